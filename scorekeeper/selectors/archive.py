"""A club's whole record as one JSON document, its export: a read (services/archive.py reads a
document back, services/imports.py restores it).

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
from django.db import models

from scorekeeper.models import (
    Check,
    Club,
    Event,
    Game,
    Hand,
    Player,
    Result,
    Round,
    RulesProfile,
    Season,
    Seat,
    TableMeld,
)

FORMAT = "shanghai-scorekeeper-club"
VERSION = 1

# In dependency order: a row only points to rows of models listed before it (or to its own
# model). Memberships are the accounts' own; photos are files. Results (places and ratings of
# finished tables) travel as they are, so a restored club shows the same standings.
EXPORTED = [
    Player,
    Season,
    RulesProfile,
    Game,
    Seat,
    Round,
    Hand,
    TableMeld,
    Event,
    Check,
    Result,
]
# A TV link, like a season's share link, opens a table to anyone: a copy makes its own.
# Imports and recounts are work queued for the club, not its record; the owners' audit trail and
# the accounts' sessions and languages are this site's, not the club's. The players' head to
# head and points left are sums of their results, added up again from them when a club is imported.
NOT_EXPORTED = {
    "Club",
    "Membership",
    "Photo",
    "TableLink",
    "ClubImport",
    "Recount",
    "OwnerAction",
    "MemberSession",
    "AccountLanguage",
    "Rivalry",
    "PointsLeft",
}
# A season's share link opens its standings to anyone: it is not copied with the club (a copy
# shares when asked, and the original's link keeps pointing only at the original).
NOT_EXPORTED_FIELDS = {(Season, "share_token")}
# Fields added after version 1 was first written: a file made before them has none, and its rows
# take the fields' defaults (a player exported before deletions existed is not retired).
LATER_FIELDS = {(Player, "retired")}


def model_key(model) -> str:
    return model._meta.model_name


def exported_fields(model) -> list[models.Field]:
    """The fields a row carries: every concrete one but the id and the club."""
    return [
        field
        for field in model._meta.concrete_fields
        if not field.primary_key
        and field.related_model is not Club
        and (model, field.name) not in NOT_EXPORTED_FIELDS
    ]


def is_account(field) -> bool:
    return field.related_model is get_user_model()


# Ids stored inside JSON values: an event's before/after (shapes in services/events.py) name
# seats and melds.
def event_ids_moved(value, seat, meld):
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
        elif key == "down":
            moved[key] = sorted(seat(one) for one in item)
        else:
            moved[key] = item
    return moved


def club_rows(club: Club, model):
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
        Result: "game__club",
    }[model]
    return model.objects.filter(**{path: club}).order_by("pk")


def club_payload(club: Club) -> dict:
    """Everything the club holds, as plain JSON values, ids numbered from 1 per model."""
    rows = {model: list(club_rows(club, model)) for model in EXPORTED}
    local = {
        model: {row.pk: number for number, row in enumerate(found, start=1)}
        for model, found in rows.items()
    }
    user_ids = {
        getattr(row, field.attname)
        for model, found in rows.items()
        for field in exported_fields(model)
        if is_account(field)
        for row in found
    }
    accounts = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    tables = {
        model_key(model): [_row_out(model, row, local, accounts) for row in found]
        for model, found in rows.items()
    }
    return {"club": club.name, "models": tables}


def _row_out(model, row, local, accounts) -> dict:
    out = {"id": local[model][row.pk]}
    for field in exported_fields(model):
        value = getattr(row, field.attname)
        if is_account(field):
            value = accounts.get(value)
        elif field.is_relation:
            value = local[field.related_model].get(value)
        out[field.name] = _plain(value)
    if model is Event:
        seat, meld = local[Seat].get, local[TableMeld].get
        out["before"] = event_ids_moved(row.before, seat, meld)
        out["after"] = event_ids_moved(row.after, seat, meld)
    if model is Result:
        out["others"] = others_moved(row.others, local[Player].get)
    return out


def others_moved(value, player) -> dict:
    """A result's places of the table's other players ({player id: place}), each player id
    passed through `player`."""
    return {str(player(int(key))): place for key, place in value.items()}


def _plain(value):
    """A field's value as JSON holds it; times keep their microseconds (DjangoJSONEncoder's
    would not), so a restored club is the same to the microsecond."""
    if isinstance(value, date | time):  # datetime is a date
        return value.isoformat()
    if isinstance(value, Decimal | UUID):
        return str(value)
    return value


def payload_checksum(payload: dict) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def club_document(payload: dict) -> str:
    """A payload as a document: format, version, checksum and the payload itself."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "sha256": payload_checksum(payload),
        "payload": payload,
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def club_export_json(club: Club) -> str:
    """Everything the club holds as a JSON document (see the module's docstring)."""
    return club_document(club_payload(club))
