from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from scorekeeper import services
from scorekeeper.models import Club
from scorekeeper.services import archive


class Command(BaseCommand):
    help = (
        "Restore a club export (JSON) into an empty club (--club ID), or into a new club made "
        "for an account (--user USERNAME, --name NAME)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--club", type=int, help="an existing club with no players or tables")
        target.add_argument("--user", help="create a new club with this account as its member")
        parser.add_argument("--name", help="the new club's name (default: the exported club's)")

    def handle(self, *args, file, club, user, name, **options):
        try:
            document = file.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            with transaction.atomic():
                target = self._club(document, club, user, name)
                owner = target.owner()
                if owner is None:
                    raise CommandError(f"Club {target.pk} has no owner to import as.")
                counts = services.club_import(user=owner, club=target, document=document)
        except services.ActionRefused as refusal:
            raise CommandError(str(refusal)) from None
        rows = ", ".join(f"{count} {model}" for model, count in counts.items())
        self.stdout.write(f"Imported into {target} (club {target.pk}): {rows}.")

    def _club(self, document: bytes, club: int | None, user: str | None, name: str | None):
        if club is not None:
            found = Club.objects.filter(pk=club).first()
            if found is None:
                raise CommandError(f"There is no club {club}.")
            return found
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"There is no account {user!r}.")
        name = name or archive.exported_club_name(document)
        return services.club_create(user=account, name=name[:80])
