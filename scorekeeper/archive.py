"""A club's whole record as one JSON document, and back.

The document is generic: each exported model's rows carry every concrete field of the model (the
club itself aside), so a field added later travels without code changes. Ids are the rows'
places in the file (1, 2, ...), not database ids, so exporting a restored club gives the same
document again. Accounts travel as usernames. A SHA-256 of the canonical payload detects a file
that was damaged, cut short or edited by hand; it is not a signature.
"""

import hashlib
import json
from datetime import date, time
from decimal import Decimal
from uuid import UUID

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction

import rules

from .models import (
    Check,
    Club,
    Event,
    Game,
    Hand,
    Player,
    Round,
    RulesProfile,
    Season,
    Seat,
    TableMeld,
)
from .services import ActionRefused

FORMAT = "shanghai-scorekeeper-club"
VERSION = 1

# In dependency order: a row only points to rows of models listed before it (or to its own
# model, restored in a second pass). Memberships are the accounts' own; photos are files.
EXPORTED = [Player, Season, RulesProfile, Game, Seat, Round, Hand, TableMeld, Event, Check]
NOT_EXPORTED = {"Club", "Membership", "Photo"}


class ImportRefused(ActionRefused):
    """A file that cannot be imported, with the reason; nothing was changed."""


def _key(model) -> str:
    return model._meta.model_name


def _fields(model) -> list[models.Field]:
    """The fields a row carries: every concrete one but the id and the club."""
    return [
        field
        for field in model._meta.concrete_fields
        if not field.primary_key and field.related_model is not Club
    ]


def _is_account(field) -> bool:
    return field.related_model is get_user_model()


# Ids stored inside JSON values: an event's before/after (shapes in services/events.py) name
# seats and melds.
def _event_json(value, seat, meld):
    """The event's before/after with every seat and meld id passed through `seat` and `meld`."""
    if not isinstance(value, dict):
        return value
    moved = {}
    for key, item in value.items():
        if key.isdecimal():
            moved[str(seat(int(key)))] = item
        elif key == "went_out":
            moved[key] = seat(item)
        elif key == "meld":
            moved[key] = meld(item)
        elif key == "melds":
            moved[key] = [meld(one) for one in item] if isinstance(item, list) else meld(item)
        else:
            moved[key] = item
    return moved


def _queryset(club: Club, model):
    path = {
        Player: "club",
        Season: "club",
        RulesProfile: "club",
        Game: "club",
        Seat: "game__club",
        Round: "game__club",
        Hand: "round__game__club",
        TableMeld: "round__game__club",
        Event: "game__club",
        Check: "game__club",
    }[model]
    return model.objects.filter(**{path: club}).order_by("pk")


def club_payload(club: Club) -> dict:
    """Everything the club holds, as plain JSON values, ids numbered from 1 per model."""
    rows = {model: list(_queryset(club, model)) for model in EXPORTED}
    local = {
        model: {row.pk: number for number, row in enumerate(found, start=1)}
        for model, found in rows.items()
    }
    user_ids = {
        getattr(row, field.attname)
        for model, found in rows.items()
        for field in _fields(model)
        if _is_account(field)
        for row in found
    }
    accounts = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    tables = {
        _key(model): [_row_out(model, row, local, accounts) for row in found]
        for model, found in rows.items()
    }
    return {"club": club.name, "models": tables}


def _row_out(model, row, local, accounts) -> dict:
    out = {"id": local[model][row.pk]}
    for field in _fields(model):
        value = getattr(row, field.attname)
        if _is_account(field):
            value = accounts.get(value)
        elif field.is_relation:
            value = local[field.related_model].get(value)
        out[field.name] = _plain(value)
    if model is Event:
        seat, meld = local[Seat].get, local[TableMeld].get
        out["before"] = _event_json(row.before, seat, meld)
        out["after"] = _event_json(row.after, seat, meld)
    return out


def _plain(value):
    """A field's value as JSON holds it; times keep their microseconds (DjangoJSONEncoder's
    would not), so a restored club is the same to the microsecond."""
    if isinstance(value, date | time):  # datetime is a date
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    return value


def _checksum(payload: dict) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def club_document(payload: dict) -> str:
    """A payload as a document: format, version, checksum and the payload itself."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "sha256": _checksum(payload),
        "payload": payload,
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def club_export_json(club: Club) -> str:
    """Everything the club holds as a JSON document (see the module's docstring)."""
    return club_document(club_payload(club))


# Import


def _read(document: bytes | str) -> dict:
    """The payload of a document, if it is an intact file of this format and version."""
    try:
        parsed = json.loads(document)
    except (ValueError, RecursionError):
        raise ImportRefused(
            "This is not a club export: it is not JSON, or it was cut short."
        ) from None
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise ImportRefused("This file is not a Shanghai Scorekeeper club export.")
    if parsed.get("version") != VERSION:
        raise ImportRefused(
            f"This export is format version {parsed.get('version')!r}; "
            f"this app reads version {VERSION}."
        )
    payload = parsed.get("payload")
    if not isinstance(payload, dict) or parsed.get("sha256") != _checksum(payload):
        raise ImportRefused(
            "This file was changed or damaged after it was exported (its checksum does not "
            "match), so it was not imported."
        )
    tables = payload.get("models")
    if not isinstance(tables, dict) or set(tables) != {_key(model) for model in EXPORTED}:
        raise ImportRefused("This export does not hold the tables this app expects.")
    return payload


def exported_club_name(document: bytes | str) -> str:
    """The name of the club a document was exported from (refused like an import if bad)."""
    name = _read(document).get("club")
    return name.strip() if isinstance(name, str) and name.strip() else "Imported club"


class _Rows:
    """The rows of one model being restored: file ids to new rows."""

    def __init__(self, model, rows):
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise ImportRefused(f"The {model._meta.verbose_name_plural} are not a list of rows.")
        self.model = model
        self.rows = rows
        self.saved = {}  # file id -> saved instance

    def id_of(self, file_id):
        """The new database id of a row of this model named in the file (None stays None)."""
        if file_id is None:
            return None
        try:
            return self.saved[file_id].pk
        except (KeyError, TypeError):
            raise ImportRefused(
                f"The file names {self.model._meta.verbose_name} {file_id!r}, which it does not "
                "hold."
            ) from None


def _row_in(rows: _Rows, row: dict, restored: dict, accounts: dict, club: Club):
    """An unsaved instance from a row of the file, and its references to its own model."""
    model = rows.model
    fields = _fields(model)
    name = model._meta.verbose_name
    expected = {"id"} | {field.name for field in fields}
    if set(row) != expected:
        wrong = ", ".join(sorted(set(row) ^ expected))
        raise ImportRefused(f"A {name} in the file has the wrong fields ({wrong}).")
    instance = model()
    if any(field.related_model is Club for field in model._meta.concrete_fields):
        instance.club = club
    own = {}
    for field in fields:
        value = row[field.name]
        if _is_account(field):
            value = accounts.get(value) if isinstance(value, str) else None
        elif field.related_model is model:
            own[field.attname] = value
            value = None
        elif field.is_relation:
            value = restored[field.related_model].id_of(value)
        elif isinstance(value, str) and "\x00" in value:
            # PostgreSQL refuses NUL in text where SQLite keeps it: refuse it on both.
            raise ImportRefused(f"A {name}'s {field.name} holds a NUL character.")
        else:
            try:
                value = field.to_python(value)
            except ValidationError as error:
                raise ImportRefused(
                    f"A {name}'s {field.name} is not valid: {error.messages[0]}"
                ) from None
        setattr(instance, field.attname, value)
    try:
        instance.clean_fields(exclude=[field.name for field in fields if field.is_relation])
        stored_rules = {RulesProfile: "settings", Game: "rules"}.get(model)
        if stored_rules:
            rules.HouseRules.from_dict(getattr(instance, stored_rules))
    except ValidationError as error:
        field_name, messages = next(iter(error.message_dict.items()))
        raise ImportRefused(f"A {name}'s {field_name} is not valid: {messages[0]}") from None
    except (ValueError, TypeError) as error:  # RulesError is a ValueError
        raise ImportRefused(f"A {name}'s house rules are not valid: {error}") from None
    return instance, own


def _restore(rows: _Rows, restored: dict, accounts: dict, club: Club) -> None:
    """Save one model's rows, then set what bulk_create cannot: the file's times, references to
    rows of the same model, and the ids inside an event's before/after."""
    model = rows.model
    built, own = [], []
    for row in rows.rows:
        if type(row.get("id")) is not int or row["id"] in rows.saved:
            raise ImportRefused(f"A {model._meta.verbose_name} in the file has no proper id.")
        instance, references = _row_in(rows, row, restored, accounts, club)
        rows.saved[row["id"]] = instance
        built.append(instance)
        own.append(references)
    stamped = [
        field.attname
        for field in _fields(model)
        if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False)
    ]
    times = [{attname: getattr(instance, attname) for attname in stamped} for instance in built]
    model.objects.bulk_create(built)
    changed = set(stamped)
    for instance, kept, references in zip(built, times, own, strict=True):
        for attname, value in kept.items():
            setattr(instance, attname, value)
        for attname, file_id in references.items():
            setattr(instance, attname, rows.id_of(file_id))
            changed.add(attname)
    if model is Event:
        seat, meld = restored[Seat].id_of, restored[TableMeld].id_of
        for instance in built:
            instance.before = _event_json(instance.before, seat, meld)
            instance.after = _event_json(instance.after, seat, meld)
        changed |= {"before", "after"}
    if changed and built:
        model.objects.bulk_update(built, sorted(changed), batch_size=500)


def _accounts(tables: dict) -> dict[str, int]:
    """The accounts the file names that exist here, by username."""
    usernames = {
        row.get(field.name)
        for model in EXPORTED
        for field in _fields(model)
        if _is_account(field)
        for row in tables[_key(model)]
        if isinstance(row, dict)
    }
    named = [username for username in usernames if isinstance(username, str)]
    return dict(get_user_model().objects.filter(username__in=named).values_list("username", "pk"))


def club_import(*, club: Club, document: bytes | str) -> dict[str, int]:
    """Restore an exported club into `club`, which must have no players and no tables yet: its
    seasons and rule profiles are replaced by the file's. Returns the rows restored by model.
    A file that cannot be restored whole is refused with ImportRefused and changes nothing."""
    payload = _read(document)
    tables = payload["models"]
    accounts = _accounts(tables)
    restored = {}
    try:
        with transaction.atomic():
            club = Club.objects.select_for_update().get(pk=club.pk)
            if club.players.exists() or club.games.exists():
                raise ImportRefused(
                    f"{club} already has players or tables: import into a new, empty club."
                )
            club.seasons.all().delete()
            club.profiles.all().delete()
            for model in EXPORTED:
                restored[model] = _Rows(model, tables[_key(model)])
                _restore(restored[model], restored, accounts, club)
    except DatabaseError as error:
        reason = str(error).strip().splitlines()[0][:200] if str(error).strip() else "refused"
        raise ImportRefused(
            "The file's rows break a rule of the club's records (two players with one name, "
            f"say), so nothing was imported ({reason})."
        ) from None
    return {_key(model): len(rows.saved) for model, rows in restored.items()}
