from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from scorekeeper.services import ActionRefused
from scorekeeper.services.backups import backup_write


class Command(BaseCommand):
    help = "Write the whole database and every photo to one file (a .tar.gz)."

    def add_arguments(self, parser):
        parser.add_argument(
            "path",
            nargs="?",
            help="where to write it (default: scorekeeper-YYYYMMDD-HHMMSS.tar.gz here)",
        )

    def handle(self, *args, path, **options):
        path = Path(path or f"scorekeeper-{timezone.now():%Y%m%d-%H%M%S}.tar.gz")
        try:
            written = backup_write(path=path)
        except ActionRefused as refusal:
            raise CommandError(str(refusal)) from None
        for skipped in written.skipped:
            self.stdout.write(f"Skipped {skipped}")
        photos = len(written.manifest["files"]) - 1
        self.stdout.write(f"Wrote {path}: the database and {photos} photo(s).")
