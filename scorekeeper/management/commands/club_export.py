from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.models import Club
from scorekeeper.selectors import archive, score_sheet


class Command(BaseCommand):
    help = "Write a club (JSON: everything; CSV: scores, or one season's) to a file or stdout."

    def add_arguments(self, parser):
        parser.add_argument("club", type=int, help="the club's id")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--season", type=int, help="only this season's scores (CSV only)")
        parser.add_argument("-o", "--output", type=Path, help="the file to write (default stdout)")

    def handle(self, *args, club, format, season, output, **options):
        found = Club.objects.filter(pk=club).first()
        if found is None:
            raise CommandError(f"There is no club {club}.")
        if format == "json":
            if season is not None:
                raise CommandError("--season goes with --format csv: JSON holds the whole club.")
            text = archive.club_export_json(found)
        else:
            chosen = found.seasons.filter(pk=season).first() if season is not None else None
            if season is not None and chosen is None:
                raise CommandError(f"{found} has no season {season}.")
            text = score_sheet.score_sheet_csv(found, chosen)
        if output is None:
            self.stdout.write(text, ending="")
            return
        # The CSV file starts with a byte-order mark so spreadsheets read it as UTF-8.
        output.write_text(text, encoding="utf-8-sig" if format == "csv" else "utf-8")
        self.stderr.write(f"Wrote {found} to {output}.")
