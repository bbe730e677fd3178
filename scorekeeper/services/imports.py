"""Restoring a club from its export (the format is scorekeeper.archive's): queued by a request
and run by a worker, or run at once by the `club_import` command."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connections, router, transaction
from django.tasks import task
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from scorekeeper.models import (
    UNDER_WAY,
    Club,
    ClubImport,
    Event,
    Game,
    ImportStatus,
    Player,
    Result,
    Role,
    RulesProfile,
    Seat,
    TableMeld,
)
from scorekeeper.names import NameRefused, name_clean, name_key
from scorekeeper.services import archive, import_checks

from .audit import owner_action_record
from .refusals import ImportRefused
from .roles import RoleRefused, role_require
from .tallies import tallies_change


class _Rows:
    """The rows of one model being restored: file ids to new rows."""

    def __init__(self, model, rows):
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            refusal = _("The {names} are not a list of rows.")
            raise ImportRefused(refusal.format(names=model._meta.verbose_name_plural))
        self.model = model
        self.rows = rows
        # What every row of the model needs, worked out once.
        self.fields = [(field, _kind(model, field)) for field in archive.exported_fields(model)]
        self.expected = {"id"} | {field.name for field, _ in self.fields}
        self.optional = {name for later, name in archive.LATER_FIELDS if later is model}
        relations = [field for field in model._meta.concrete_fields if field.is_relation]
        self.unchecked = [field.name for field in relations]  # checked here, not by queries
        self.has_club = any(field.related_model is Club for field in relations)
        self.pending = {}  # file id -> instance, saved or about to be
        self.saved = {}  # file id -> saved instance

    def id_of(self, file_id):
        """The new database id of a row of this model named in the file (None stays None)."""
        row = self.row_of(file_id)
        return None if row is None else row.pk

    def row_of(self, file_id):
        """The restored row of this model named in the file (None stays None)."""
        if file_id is None:
            return None
        try:
            return self.saved[file_id]
        except (KeyError, TypeError):
            refusal = _("The file names {name} {id}, which it does not hold.")
            raise ImportRefused(
                refusal.format(name=self.model._meta.verbose_name, id=repr(file_id))
            ) from None


def _kind(model, field) -> str:
    if archive.is_account(field):
        return "account"
    if field.related_model is model:
        return "own"
    return "relation" if field.is_relation else "value"


def _row_in(rows: _Rows, row: dict, restored: dict, accounts: dict, club: Club):
    """An unsaved instance from a row of the file, and its references to its own model."""
    model = rows.model
    name = model._meta.verbose_name
    if row.keys() - rows.expected or rows.expected - rows.optional - row.keys():
        wrong = ", ".join(sorted(set(row) ^ rows.expected))
        refusal = _("A {name} in the file has the wrong fields ({wrong}).")
        raise ImportRefused(refusal.format(name=name, wrong=wrong))
    instance = model()
    if rows.has_club:
        instance.club_id = club.pk
    own = {}
    for field, kind in rows.fields:
        value = row[field.name] if field.name in row else field.get_default()
        if kind == "account":
            value = accounts.get(value) if isinstance(value, str) else None
        elif kind == "own":
            # An undo names another event: set once every event has its id.
            if value is not None:
                own[field.attname] = value
            value = None
        elif kind == "relation":
            # The row itself, so that the checks of the rows pointing to it read it unqueried.
            value = restored[field.related_model].row_of(value)
            if value is None and not field.null:
                related = field.related_model._meta.verbose_name
                refusal = _("A {name} in the file names no {related}.")
                raise ImportRefused(refusal.format(name=name, related=related))
            setattr(instance, field.name, value)
            continue
        elif (value := import_checks.value_typed(model, field, value)) is None:
            pass
        elif field.name == "name":
            # Names as the forms would have made them, so an import cannot bring back "A\u200bnn".
            try:
                value = name_clean(value, max_length=field.max_length)
            except NameRefused as refusal:
                words = _("A {name}'s name is not valid: {why}")
                raise ImportRefused(words.format(name=name, why=refusal)) from None
        elif isinstance(value, str) and "\x00" in value:
            # PostgreSQL refuses NUL in text where SQLite keeps it: refuse it on both.
            refusal = _("A {name}'s {field} holds a NUL character.")
            raise ImportRefused(refusal.format(name=name, field=field.name))
        else:
            try:
                value = field.to_python(value)
            except ValidationError as error:
                refusal = _("A {name}'s {field} is not valid: {why}")
                raise ImportRefused(
                    refusal.format(name=name, field=field.name, why=error.messages[0])
                ) from None
        setattr(instance, field.attname, value)
    if model is Event:
        import_checks.event_payload_check(instance.before, "before")
        import_checks.event_payload_check(instance.after, "after")
        seat, meld = restored[Seat].id_of, restored[TableMeld].id_of
        instance.before = archive.event_ids_moved(instance.before, seat, meld)
        instance.after = archive.event_ids_moved(instance.after, seat, meld)
    if model is Result:
        instance.others = _others_in(instance.others, restored[Player].id_of)
        _points_left_check(instance.points_left)
    try:
        instance.clean_fields(exclude=rows.unchecked)
        stored_rules = {RulesProfile: "settings", Game: "rules"}.get(model)
        if stored_rules:
            # Kept as the app keeps house rules: every setting, written by to_dict.
            house_rules = rules.HouseRules.from_dict(getattr(instance, stored_rules))
            setattr(instance, stored_rules, house_rules.to_dict())
    except ValidationError as error:
        field_name, messages = next(iter(error.message_dict.items()))
        refusal = _("A {name}'s {field} is not valid: {why}")
        raise ImportRefused(refusal.format(name=name, field=field_name, why=messages[0])) from None
    except (ValueError, TypeError) as error:  # RulesError is a ValueError
        refusal = _("A {name}'s house rules are not valid: {why}")
        raise ImportRefused(refusal.format(name=name, why=error)) from None
    import_checks.row_check(instance)
    return instance, own


def _others_in(value, player) -> dict:
    """A result's places of the table's other players, checked and pointed at the restored
    players: {player id as text: place from 1 to 5}."""
    if not isinstance(value, dict) or not all(
        isinstance(key, str) and key.isdecimal() and type(place) is int and 1 <= place <= 5
        for key, place in value.items()
    ):
        raise ImportRefused(_("A result's places of the other players are not valid."))
    return archive.others_moved(value, player)


def _points_left_check(value) -> None:
    """A result's points left per contract: whole numbers from 0, as the player page adds them."""
    if not isinstance(value, list) or not all(
        type(points) is int and points >= 0 for points in value
    ):
        raise ImportRefused(_("A result's points left per contract are not valid."))


def _insert_as_is(model, instances: list) -> None:
    """Insert rows a batch at a time, raw as loaddata saves them, so auto_now(_add) fields keep
    the file's times instead of now (bulk_create would stamp them); each gets its new id.
    QuerySet._insert is what bulk_create and save() use inside."""
    connection = connections[router.db_for_write(model)]
    fields = [field for field in model._meta.local_concrete_fields if not field.primary_key]
    returning = model._meta.db_returning_fields
    size = min(connection.ops.bulk_batch_size(fields, instances) or 1, 500)
    if not connection.features.can_return_rows_from_bulk_insert:
        size = 1
    for start in range(0, len(instances), size):
        batch = instances[start : start + size]
        rows = model._base_manager._insert(
            batch, fields=fields, returning_fields=returning, raw=True, using=connection.alias
        )
        for instance, row in zip(batch, rows, strict=True):
            for field, value in zip(returning, row, strict=True):
                setattr(instance, field.attname, value)
            instance._state.adding = False
            instance._state.db = connection.alias


def _restore(rows: _Rows, restored: dict, accounts: dict, club: Club) -> None:
    """Save one model's rows in the file's order, then the references to rows of the same model
    that were not saved yet when their row was built."""
    model = rows.model
    built, later, names = [], [], set()
    for row in rows.rows:
        if type(row.get("id")) is not int or row["id"] in rows.pending:
            refusal = _("A {name} in the file has no proper id.")
            raise ImportRefused(refusal.format(name=model._meta.verbose_name))
        instance, references = _row_in(rows, row, restored, accounts, club)
        rows.pending[row["id"]] = instance
        built.append(instance)
        _refuse_same_name(names, instance)
        later += [(instance, attname, file_id) for attname, file_id in references.items()]
    _insert_as_is(model, built)
    rows.saved = rows.pending
    for instance, attname, file_id in later:
        model.objects.filter(pk=instance.pk).update(**{attname: rows.id_of(file_id)})


def _refuse_same_name(names: set[str], instance) -> None:
    """Two rows of one model named alike ("Ann" and "ann") are refused, as the services refuse
    them, whichever case the database compares names in. `names`: the keys of those seen."""
    if not hasattr(instance, "name"):
        return
    key = name_key(instance.name)
    if key in names:
        refusal = _("The file has two {names} called {name}.")
        raise ImportRefused(
            refusal.format(names=instance._meta.verbose_name_plural, name=instance.name)
        )
    names.add(key)


def _accounts(tables: dict, club: Club) -> dict[str, int]:
    """The accounts the file names that are members of `club`, by username: who recorded what
    is kept for the club's own members, and never given to any other account on this site
    that happens to have the name. (Rows that are not a list are refused as such when read.)"""
    usernames = {
        row.get(field.name)
        for model in archive.EXPORTED
        for field in archive.exported_fields(model)
        if archive.is_account(field) and isinstance(tables[archive.model_key(model)], list)
        for row in tables[archive.model_key(model)]
        if isinstance(row, dict)
    }
    named = [username for username in usernames if isinstance(username, str)]
    members = get_user_model().objects.filter(username__in=named, memberships__club=club)
    return dict(members.values_list("username", "pk"))


def club_import(*, club: Club, user, document: bytes | str) -> dict[str, int]:
    """Restore an exported club into `club`, which must have no players and no tables yet: its
    seasons and rule profiles are replaced by the file's. Returns the rows restored by model.
    A file that cannot be restored whole is refused with ImportRefused and changes nothing.
    Runs where it is called (the `club_import` command); the web queues `club_import_queue`."""
    role_require(club=club, user=user, role=Role.OWNER)
    return _club_restore(club=club, user=user, payload=archive.document_payload(document))


def club_import_queue(*, club: Club, user, document: bytes) -> ClubImport:
    """Queue a club export for a worker to import into `club` (`club_import_run`), so that the
    request answers at once. Only what is quick is checked here: `user` is an owner, the file is
    JSON of this format and version, the club has no players, no tables and no import under
    way; the worker checks the rest. The file is kept with the import until the worker has read
    it; the import and its task are saved in one transaction."""
    role_require(club=club, user=user, role=Role.OWNER)
    parsed = archive.document_parsed(document)
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        _empty_require(club)
        if club.imports.filter(status__in=UNDER_WAY).exists():
            refusal = _("A file is being imported into {club} already: wait until it is done.")
            raise ImportRefused(refusal.format(club=club))
        queued = ClubImport.objects.create(
            club=club,
            created_by=user,
            document=document,
            tables=archive.document_table_count(parsed),
        )
        # The worker has no request: it says its refusals in the language of this one.
        club_import_run.enqueue(queued.pk, translation.get_language() or "")
    return queued


@task()
def club_import_run(import_id: int, language: str = "") -> dict | str:
    """A worker's task: import a queued club export all or nothing, then keep what was imported,
    or why nothing was, and drop the file. Runs into the import once: a second run (its worker
    killed, or thought dead, after the first began) finds it done and changes nothing. Returns
    the rows restored by model, or what happened instead. `language`: that of the member who
    queued it, in which the refusal and the audit trail are written (none: the site's)."""
    with translation.override(language or None):
        return _club_import_run(import_id)


def _club_import_run(import_id: int) -> dict | str:
    started = ClubImport.objects.filter(pk=import_id, status__in=UNDER_WAY).update(
        status=ImportStatus.IMPORTING
    )
    queued = ClubImport.objects.select_related("club", "created_by").filter(pk=import_id).first()
    if not started or queued is None:
        return "already imported or refused, or the club is gone"
    try:
        # The account may have lost its role, or gone, since it queued the file.
        role_require(club=queued.club, user=queued.created_by, role=Role.OWNER)
        payload = archive.document_payload(bytes(queued.document))
        counts = _club_restore(
            club=queued.club, user=queued.created_by, payload=payload, queued=queued
        )
    except (ImportRefused, RoleRefused) as refusal:
        _import_finish(import_id, status=ImportStatus.REFUSED, problem=str(refusal))
        return "refused"
    except Exception:
        _import_finish(import_id, status=ImportStatus.REFUSED, problem=str(IMPORT_FAILED))
        raise
    return counts if counts is not None else "already imported"


IMPORT_FAILED = gettext_lazy(
    "Something went wrong while importing the file, so nothing was imported. Try again later."
)


def _import_finish(import_id: int, **outcome) -> None:
    """Keep how an import ended and drop its file, unless another run ended it first."""
    ClubImport.objects.filter(pk=import_id, status__in=UNDER_WAY).update(
        document=b"", finished_at=timezone.now(), **outcome
    )


def _empty_require(club: Club) -> None:
    if club.players.exists() or club.games.exists():
        refusal = _("{club} already has players or tables: import into a new, empty club.")
        raise ImportRefused(refusal.format(club=club))


def _club_restore(
    *, club: Club, user, payload: dict, queued: ClubImport | None = None
) -> dict[str, int] | None:
    """Restore a checked payload into the empty `club` in one transaction, written down as done
    by `user` in the club's audit trail. For a `queued` import, the import is marked done in the
    same transaction, and nothing is restored (None) when another run already ended it."""
    tables = payload["models"]
    import_checks.players_check(tables[archive.model_key(Player)])
    accounts = _accounts(tables, club)
    restored = {}
    try:
        with transaction.atomic():
            club = Club.objects.select_for_update().get(pk=club.pk)
            # The club's lock orders two runs of one import: the second finds it ended.
            under_way = ClubImport.objects.filter(status__in=UNDER_WAY)
            if queued and not under_way.filter(pk=queued.pk).exists():
                return None
            _empty_require(club)
            club.seasons.all().delete()
            club.profiles.all().delete()
            for model in archive.EXPORTED:
                restored[model] = _Rows(model, tables[archive.model_key(model)])
                _restore(restored[model], restored, accounts, club)
            tallies_change(added=restored[Result].saved.values())
            counts = {archive.model_key(model): len(rows.saved) for model, rows in restored.items()}
            owner_action_record(
                club_id=club.pk,
                user=user,
                summary=_(
                    "imported a club export: {players} players, {seasons} seasons and "
                    "{tables} tables"
                ).format(players=counts["player"], seasons=counts["season"], tables=counts["game"]),
            )
            if queued:
                _import_finish(queued.pk, status=ImportStatus.IMPORTED, counts=counts)
    except DatabaseError as error:
        reason = str(error).strip().splitlines()[0][:200] if str(error).strip() else _("refused")
        refusal = _(
            "The file's rows break a rule of the club's records (two players with one name, "
            "say), so nothing was imported ({reason})."
        )
        raise ImportRefused(refusal.format(reason=reason)) from None
    return counts
