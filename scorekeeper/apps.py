from django.apps import AppConfig


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = "Shanghai Scorekeeper"

    def ready(self):
        from scorekeeper import system_checks  # noqa: F401 - registers the checks
