"""The service worker that keeps the app's shell and the round screens opened on a tablet, so a
table opened once loads again with no connection (static/js/sw.js)."""

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js, served at /sw.js: a worker's scope is the folder its script comes from,
    and the pages it keeps are not under /static/. Never cached, so a new version is taken up
    at the next page load."""
    path = finders.find("js/sw.js")
    if path is None:
        raise Http404("No service worker")
    with open(path, encoding="utf-8") as script:
        response = HttpResponse(script.read(), content_type="text/javascript; charset=utf-8")
    patch_cache_control(response, no_cache=True)
    return response
