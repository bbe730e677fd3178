from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class StaffAdminConfig(admin_apps.AdminConfig):
    """Django's admin, on a site that asks staff for two-factor sign-in (named in
    INSTALLED_APPS; not this module's default, which stays ScorekeeperConfig)."""

    default = False
    default_site = "scorekeeper.admin_site.StaffAdminSite"


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Shanghai Scorekeeper"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in, user_logged_out
        from django.tasks.signals import task_enqueued

        from scorekeeper import system_checks  # noqa: F401 - registers the checks

        # Which browsers an account is signed in to, for "log out everywhere else".
        user_logged_in.connect(_session_remember, dispatch_uid="scorekeeper.session_remember")
        # The idle time of a shared tablet counts from the login.
        user_logged_in.connect(_tablet_session_start, dispatch_uid="scorekeeper.tablet_session")
        # The language the member chose holds from the login on.
        user_logged_in.connect(_member_language_start, dispatch_uid="scorekeeper.member_language")
        # A browser that logs out is no longer answered from the cache's pass for its session.
        user_logged_out.connect(_session_end, dispatch_uid="scorekeeper.session_end")
        # With Redis, a queued task wakes an idle worker at once (services.tasks' doorbell).
        task_enqueued.connect(_task_enqueued, dispatch_uid="scorekeeper.task_enqueued_ring")


# The receivers import the services when called: importing them here, at start-up, would load
# every service and with them the recognizer's image libraries into every command.
def _task_enqueued(sender, **kwargs):
    from scorekeeper.services.tasks import task_enqueued_ring

    task_enqueued_ring(sender, **kwargs)


def _session_remember(sender, request, user, **kwargs):
    from scorekeeper.services.accounts import session_remember

    if request is not None and request.session.session_key:
        session_remember(user=user, session_key=request.session.session_key)


def _session_end(sender, request, user, **kwargs):
    from scorekeeper.services.polls import poll_passes_revoke

    if request is not None and request.session.session_key:
        poll_passes_revoke(sessions=[request.session.session_key])


def _tablet_session_start(sender, request, user, **kwargs):
    from scorekeeper.middleware import tablet_session_start

    if request is not None and hasattr(request, "session"):
        tablet_session_start(request, user)


def _member_language_start(sender, request, user, **kwargs):
    from scorekeeper.views.accounts import member_language_start

    if request is not None and hasattr(request, "session"):
        member_language_start(request, user)
