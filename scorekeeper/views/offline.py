"""The service worker that keeps the app's shell and the round screens opened on a tablet, so a
table opened once loads again with no connection (static/js/sw.js)."""

import json

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# The line of sw.js that holds the words of its pages (in English, as the file stands).
WORDS_LINE = "const WORDS = "


def _words() -> dict[str, str]:
    """The words of the worker's two pages, shown with no connection, in the request's language."""
    return {
        "lang": get_language(),
        "noConnection": _("No connection"),
        "notKept": _(
            "This page was not kept on this device. The round screen of a table opened here "
            "before loads without a connection."
        ),
        "signedOut": _("Signed out"),
        "signedOutText": _(
            "The member who opened this table here is signed out (logged out, or idle for "
            "longer than the club allows), so this tablet no longer shows it. Log in again "
            "once the connection is back."
        ),
        "tryAgain": _("Try again"),
    }


def _script_in_language(source: str) -> str:
    """sw.js with its words' line written in the request's language (a new script for the
    browser when the language changes, so the worker is updated)."""
    lines = source.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if line.startswith(WORDS_LINE):
            words = json.dumps(_words(), ensure_ascii=False)
            lines[number] = f"{WORDS_LINE}{words};\n"
            return "".join(lines)
    raise ValueError(f"static/js/sw.js has no line starting {WORDS_LINE!r}")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js, served at /sw.js: a worker's scope is the folder its script comes from,
    and the pages it keeps are not under /static/. Never cached, so a new version (or the
    words of another language) is taken up at the next page load."""
    path = finders.find("js/sw.js")
    if path is None:
        raise Http404("No service worker")
    with open(path, encoding="utf-8") as script:
        source = _script_in_language(script.read())
    response = HttpResponse(source, content_type="text/javascript; charset=utf-8")
    patch_cache_control(response, no_cache=True)
    return response
