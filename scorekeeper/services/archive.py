"""A club export read back (services/imports.py restores it): the document checked for its
format, version and checksum. The format itself, and the export that writes it, is a read:
selectors/archive.py; its names are here too, as the importer reads them."""

import json

from django.utils.translation import gettext as _

from scorekeeper.models import Game
from scorekeeper.selectors.archive import (
    EXPORTED,
    FORMAT,
    LATER_FIELDS,
    VERSION,
    event_ids_moved,
    exported_fields,
    is_account,
    model_key,
    others_moved,
    payload_checksum,
)

from .refusals import ImportRefused

__all__ = [
    "EXPORTED",
    "LATER_FIELDS",
    "event_ids_moved",
    "exported_fields",
    "is_account",
    "model_key",
    "others_moved",
    "document_parsed",
    "document_payload",
    "document_table_count",
    "exported_club_name",
]


def document_parsed(document: bytes | str) -> dict:
    """The document read as JSON, if it is a club export of this format and version. Its checksum
    and tables are left to `document_payload`: reading is all a web request does with a file."""
    try:
        parsed = json.loads(document)
    except (ValueError, RecursionError):
        raise ImportRefused(
            _("This is not a club export: it is not JSON, or it was cut short.")
        ) from None
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise ImportRefused(_("This file is not a Shanghai Scorekeeper club export."))
    if parsed.get("version") != VERSION:
        refusal = _("This export is format version {version}; this app reads version {ours}.")
        raise ImportRefused(refusal.format(version=repr(parsed.get("version")), ours=VERSION))
    return parsed


def document_table_count(parsed: dict) -> int:
    """How many tables a parsed document says it holds (0 when it says nothing readable)."""
    payload = parsed.get("payload")
    tables = payload.get("models") if isinstance(payload, dict) else None
    games = tables.get(model_key(Game)) if isinstance(tables, dict) else None
    return len(games) if isinstance(games, list) else 0


def document_payload(document: bytes | str) -> dict:
    """The payload of a document, if it is an intact file of this format and version."""
    parsed = document_parsed(document)
    payload = parsed.get("payload")
    if not isinstance(payload, dict) or parsed.get("sha256") != payload_checksum(payload):
        raise ImportRefused(
            _(
                "This file was changed or damaged after it was exported (its checksum does not "
                "match), so it was not imported."
            )
        )
    tables = payload.get("models")
    if not isinstance(tables, dict) or set(tables) != {model_key(model) for model in EXPORTED}:
        raise ImportRefused(_("This export does not hold the tables this app expects."))
    return payload


def exported_club_name(document: bytes | str) -> str:
    """The name of the club a document was exported from (refused like an import if bad)."""
    name = document_payload(document).get("club")
    return name.strip() if isinstance(name, str) and name.strip() else _("Imported club")
