"""The routine every view that changes a table follows: clean the form, check the screen's
version, call the service, and answer with the result or with the refusal."""

from collections.abc import Callable

from django.http import HttpResponse

from scorekeeper import services


def form_refusal(form) -> services.ActionRefused:
    """A form that did not clean, as the refusal it is: a stale screen, or the form's errors."""
    if "version" in form.errors:
        return services.StaleState()
    return services.ActionRefused(" ".join(e for errors in form.errors.values() for e in errors))


def write_or_refusal(
    form,
    write: Callable[[dict], object],
    *,
    refused: Callable[[services.ActionRefused], HttpResponse],
    done: Callable[[], HttpResponse],
) -> HttpResponse:
    """`write(cleaned_data)` if the form cleans; `refused(reason)` if it does not or the service
    refuses (a stale screen included); `done()` once written."""
    if not form.is_valid():
        return refused(form_refusal(form))
    try:
        write(form.cleaned_data)
    except services.ActionRefused as refusal:
        return refused(refusal)
    return done()
