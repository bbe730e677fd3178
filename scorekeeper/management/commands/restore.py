from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.services import ActionRefused
from scorekeeper.services.backups import backup_restore


class Command(BaseCommand):
    help = "Bring back a backup (manage.py backup) into an empty, migrated database."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file")

    def handle(self, *args, path, **options):
        try:
            manifest = backup_restore(path=Path(path))
        except ActionRefused as refusal:
            raise CommandError(str(refusal)) from None
        photos = len(manifest["files"]) - 1
        self.stdout.write(
            f"Restored the backup of {manifest['created_at']}: the database and {photos} photo(s)."
        )
