from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Shanghai Scorekeeper"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from scorekeeper import system_checks  # noqa: F401 - registers the checks

        # Which browsers an account is signed in to, for "log out everywhere else".
        user_logged_in.connect(_session_remember, dispatch_uid="scorekeeper.session_remember")


def _session_remember(sender, request, user, **kwargs):
    from scorekeeper.services.accounts import session_remember

    if request is not None and request.session.session_key:
        session_remember(user=user, session_key=request.session.session_key)
