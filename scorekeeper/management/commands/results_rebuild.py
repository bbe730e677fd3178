from django.core.management.base import BaseCommand

from scorekeeper import services
from scorekeeper.models import Club


class Command(BaseCommand):
    help = (
        "Rewrite every club's results and ratings from its finished tables: once, for tables "
        "finished before the app kept results."
    )

    def handle(self, *args, **options):
        for club in Club.objects.all():
            count = services.results_rebuild(club=club)
            self.stdout.write(f"{club}: {count} results")
