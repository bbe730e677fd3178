"""What the views that call one service and go back share: the service's success or refusal said
as a message on the page the browser is sent to."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from scorekeeper import services


def write_and_redirect(
    request: HttpRequest, write: Callable[[], object], *, said: str, to, refused_to=None
) -> HttpResponse:
    """Run `write` (a service call); say `said`, or why it was refused, and redirect `to` (after
    a refusal, to `refused_to` where that is another page)."""
    try:
        write()
    except services.ActionRefused as refusal:
        messages.error(request, str(refusal))
        return redirect(refused_to or to)
    messages.success(request, said)
    return redirect(to)
