"""What the views that change a table share: a form that did not clean, as the refusal of the
write it was for (each of them then answers a refusal with its page's `..._page_refused`), and
what a write that went through says."""

from django.utils.translation import gettext as _

from scorekeeper import services


def form_refusal(form) -> services.ActionRefused:
    """A form that did not clean, as the refusal it is: a stale screen, or the form's errors."""
    if "version" in form.errors:
        return services.StaleState()
    return services.ActionRefused(" ".join(e for errors in form.errors.values() for e in errors))


def saved_message(event) -> str:
    """What a write that went through says, in the history's words: "Saved: Ann went down."."""
    text = event.description
    text = text if text.endswith((".", "!", "?")) else f"{text}."
    return _("Saved: %(what)s") % {"what": text}
