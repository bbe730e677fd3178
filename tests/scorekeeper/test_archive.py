"""The club's JSON export and import: a club restored into an empty club is the same, row for row;
a bad, foreign, cut-short or edited file is refused with a reason and changes nothing, whether
the command imports it or a worker does, once, however often its task runs."""

import json
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django_tasks_db.models import DBTaskResult

import rules
from scorekeeper import services
from scorekeeper.models import (
    Club,
    ClubImport,
    Event,
    ImportStatus,
    Membership,
    Player,
    Result,
    Role,
    Seat,
    TableMeld,
)
from scorekeeper.selectors import archive
from scorekeeper.services.tasks import tasks_requeue_stale, uploads_drop_stale
from tests.factories import built_once, make_club, make_game, make_user, play_round, run_tasks
from tests.scorekeeper.club_pages import club_urls, page_texts, tables_by_place

# slow: a lived-in club built through the services, exported and imported.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _fresh(game):
    game.refresh_from_db()
    return game.version


def _seats(game) -> list[Seat]:
    return list(game.seats.order_by("position"))


def make_lived_in_club():
    """A club with two seasons (one shared), two profiles, a table with May I?s, melds, a
    lay-off, a check, an edited and an undone score, a finished table (with its results and
    ratings), and a table left with a player down."""
    ann, bob = make_user("ann-archive"), make_user("bob-archive")
    club = make_club(ann, name="Thursday Night")
    services.club_join(user=bob, invite_code=club.invite_code)
    services.season_create(user=club.owner(), club=club, name="Winter", starts_on="2026-01-05")
    services.profile_save(
        user=club.owner(), club=club, name="Quick", house_rules=rules.HouseRules(may_i_limit=3)
    )
    game = make_game(club, players=4, user=ann)
    seats = _seats(game)
    services.may_i_spend(game=game, version=_fresh(game), seat=seats[1], user=bob)
    services.melds_record(
        game=game,
        version=_fresh(game),
        seat=seats[0],
        melds=rules.parse_melds("7H 7S 7D | 9C 9D 9S"),
        user=ann,
    )
    meld = TableMeld.objects.filter(round__game=game).first()
    services.meld_lay_off(
        game=game,
        version=_fresh(game),
        seat=seats[0],
        meld=meld,
        cards=rules.parse_cards("7C"),
        user=bob,
    )
    services.check_ask(
        game=game,
        round_=game.rounds.get(number=1),
        question=rules.Question.MELD,
        cards=rules.parse_melds("7H 7S 7D 7C"),
        melds=[meld],
        target=0,
        user=bob,
    )
    play_round(game, went_out=0, points=[15, 30, 45], user=ann)
    play_round(game, went_out=2, points=[5, 10, 20], user=bob)
    services.round_edit(
        game=game,
        version=_fresh(game),
        round_=game.rounds.get(number=2),
        entries={seat.pk: rules.HandEntry(points=25) for seat in seats if seat != seats[2]},
        went_out=seats[2],
        user=ann,
    )
    services.action_undo(game=game, version=_fresh(game), user=bob)
    finished = make_game(club, players=3, user=ann)
    for went_out in [0, 1, 2, 0, 1, 2, 0]:
        play_round(finished, went_out=went_out, points=[10, 20], user=ann)
    services.season_share(user=finished.season.club.owner(), season=finished.season)
    other = make_game(club, players=3, user=bob)
    services.melds_record(
        game=other,
        version=_fresh(other),
        seat=_seats(other)[1],
        melds=rules.parse_melds("4H 4S 4D | KC KD KS"),
        user=bob,
    )
    return club


def _describe(row, depth=2):
    """A row by its values and, through its relations, by its related rows' values: no ids."""
    described = {}
    for field in type(row)._meta.concrete_fields:
        if field.primary_key or field.related_model is Club:
            continue
        if (type(row), field.name) in archive.NOT_EXPORTED_FIELDS:
            continue
        value = getattr(row, field.name)
        if field.related_model is get_user_model():
            value = value.get_username() if value else None
        elif field.is_relation:
            value = _describe(value, depth - 1) if value is not None and depth else None
        described[field.name] = value
    if isinstance(row, Event):
        described["before"] = _named_ids(row.before)
        described["after"] = _named_ids(row.after)
    if isinstance(row, Result):
        described["others"] = archive.others_moved(
            row.others, lambda pk: Player.objects.get(pk=pk).name
        )
    return described


def _named_ids(value: dict) -> dict:
    """An event's before/after with seat and meld ids replaced by what they name."""

    def seat(pk):
        return Seat.objects.get(pk=pk).player.name if pk is not None else None

    def meld(pk):
        found = TableMeld.objects.filter(pk=pk).first()
        return found.cards if found else None

    return archive.event_ids_moved(value, seat, meld)


def _club_rows(club) -> dict:
    return {
        model._meta.model_name: [_describe(row) for row in archive.club_rows(club, model)]
        for model in archive.EXPORTED
    }


def _snapshot(club) -> dict:
    """Every table's row count, and the club's own seasons and profiles."""
    counts = {model._meta.label: model.objects.count() for model in apps.get_models()}
    return {
        "counts": counts,
        "seasons": list(club.seasons.values_list("name", flat=True)),
        "profiles": list(club.profiles.values_list("name", "settings")),
    }


@pytest.fixture(scope="module")
def lived_in(django_db_setup, django_db_blocker):
    """The lived-in club's id and export, built once for the module's tests (each build is tens
    of writes through the services)."""
    with built_once(django_db_blocker):
        club = make_lived_in_club()
        yield club.pk, archive.club_export_json(club)


@pytest.fixture
def exported(lived_in):
    """The lived-in club, read afresh for the test, and its export."""
    pk, document = lived_in
    return Club.objects.get(pk=pk), document


@pytest.fixture
def empty_club():
    """A new club that the original's members joined: who recorded what comes back for them."""
    club = make_club(make_user(), name="Restored")
    for username in ("ann-archive", "bob-archive"):
        user = get_user_model().objects.filter(username=username).first()
        if user is not None:
            services.club_join(user=user, invite_code=club.invite_code)
    return club


def test_every_model_of_the_app_is_exported_or_left_out_on_purpose():
    names = {model.__name__ for model in apps.get_app_config("scorekeeper").get_models()}
    exported = {model.__name__ for model in archive.EXPORTED}
    assert names == exported | archive.NOT_EXPORTED
    assert not exported & archive.NOT_EXPORTED


def test_an_imported_club_is_the_exported_one_row_for_row(exported, empty_club):
    club, document = exported
    counts = services.club_import(user=empty_club.owner(), club=empty_club, document=document)

    assert counts["event"] == Event.objects.filter(game__club=club).count() == 24
    assert counts["tablemeld"] == 4 and counts["check"] == 1 and counts["result"] == 3
    assert _club_rows(empty_club) == _club_rows(club)
    # Exporting the restored club gives the same payload: ids in the file are places, not ids.
    again = json.loads(archive.club_export_json(empty_club))
    first = json.loads(document)
    assert again["payload"]["models"] == first["payload"]["models"]
    assert again["payload"]["club"] == "Restored"


def test_ids_inside_the_history_point_to_the_restored_rows(exported, empty_club):
    club, document = exported
    services.club_import(user=empty_club.owner(), club=empty_club, document=document)
    restored = empty_club.games.order_by("-pk").first()  # the table left with a player down
    down = restored.events.get(kind=Event.Kind.WENT_DOWN)
    assert set(down.after["melds"]) == set(
        TableMeld.objects.filter(round__game=restored).values_list("pk", flat=True)
    )
    # Undo after the import takes back the restored melds, and only those.
    original_melds = TableMeld.objects.filter(round__game__club=club).count()
    services.action_undo(game=restored, version=restored.version, user=empty_club.owner())
    assert not TableMeld.objects.filter(round__game=restored).exists()
    assert TableMeld.objects.filter(round__game__club=club).count() == original_melds


def test_accounts_are_matched_by_username_and_missing_ones_left_empty(exported, empty_club):
    _, document = exported
    get_user_model().objects.filter(username="bob-archive").delete()
    services.club_import(user=empty_club.owner(), club=empty_club, document=document)
    events = Event.objects.filter(game__club=empty_club)
    assert events.filter(created_by__username="ann-archive").exists()
    assert not events.filter(created_by__username="bob-archive").exists()
    assert events.filter(created_by__isnull=True, kind=Event.Kind.MAY_I).exists()


def test_history_is_never_given_to_an_account_outside_the_club(exported):
    """The file names bob-archive; an account of that name here that is not a member of the
    club imported into gets nothing of its history."""
    _, document = exported
    stranger = make_club(make_user(), name="Restored elsewhere")
    services.club_import(user=stranger.owner(), club=stranger, document=document)
    events = Event.objects.filter(game__club=stranger)
    assert not events.filter(created_by__username__in=["ann-archive", "bob-archive"]).exists()
    assert events.filter(created_by__isnull=True).count() == events.count()


def _club_pages(club) -> list[str]:
    """Every page of the club but its own, which differs on purpose (invite code, members)."""
    return club_urls(club)[1:]


def _texts(client, club, *, names: dict[str, str]) -> list[str]:
    """The words of every page of the club, the clubs' names and the tables' (their ids) made
    one."""
    return page_texts(client, _club_pages(club), same=names | tables_by_place(club))


def test_every_page_of_a_restored_club_reads_as_the_originals(client, exported, empty_club):
    """A field holding an id the import did not point at the restored rows shows the original
    club's rows on a page, or none: the page then differs, or fails."""
    club, document = exported
    services.club_import(user=empty_club.owner(), club=empty_club, document=document)
    ann = get_user_model().objects.get(username="ann-archive")
    Membership.objects.filter(club=empty_club, user=ann).update(role=Role.OWNER)  # as at home
    client.force_login(ann)
    same = {"Thursday Night": "CLUB", "Restored": "CLUB"}
    original = _texts(client, club, names=same)
    restored = _texts(client, empty_club, names=same)
    assert len(restored) == len(original) > 10
    for before, after in zip(original, restored, strict=True):
        assert after == before
    # The club's own page differs on purpose (its invite code, members, share links): it works.
    assert client.get(empty_club.get_absolute_url()).status_code == 200


def test_times_are_restored_to_the_microsecond(exported, empty_club):
    club, document = exported
    services.club_import(user=empty_club.owner(), club=empty_club, document=document)
    original = list(Event.objects.filter(game__club=club).order_by("pk"))
    restored = list(Event.objects.filter(game__club=empty_club).order_by("pk"))
    assert [event.created_at for event in restored] == [event.created_at for event in original]
    assert any(event.created_at.microsecond % 1000 for event in original)


def _edited(document: str, change) -> str:
    """The document with `change` applied to its payload, and a checksum that matches again."""
    payload = json.loads(document)["payload"]
    change(payload["models"])
    return archive.club_document(payload)


def _set(model: str, field: str, value, row: int = 0):
    def change(models):
        models[model][row][field] = value

    return change


def _event(kind: str, side: str, change):
    """A change of the first event of `kind`'s `side` (its before or after)."""

    def change_models(models):
        event = next(event for event in models["event"] if event["kind"] == kind)
        event[side] = change(event[side])

    return change_models


def _first_hand(payload: dict, cards: str) -> dict:
    seat = next(key for key in payload if key.isdecimal())
    return payload | {seat: [cards, payload[seat][1]]}


REFUSED = [
    ("not JSON", lambda document: b"\xff\xfe\x00 not json", "not JSON"),
    ("cut short", lambda document: document[: len(document) // 2], "cut short"),
    ("another format", lambda document: '[{"model": "auth.user", "pk": 1}]', "not a Shanghai"),
    (
        "another version",
        lambda document: document.replace('"version": 1', '"version": 9', 1),
        "version 9",
    ),
    (
        "edited by hand",
        lambda document: document.replace('"name": "Winter"', '"name": "Summer"', 1),
        "checksum",
    ),
    (
        "a reference outside the file",
        lambda document: _edited(document, _set("seat", "player", 999)),
        "does not hold",
    ),
    (
        "an undo of an event the file does not hold",
        lambda document: _edited(document, _set("event", "undoes", 999)),
        "does not hold",
    ),
    (
        "a name longer than a player's",
        lambda document: _edited(document, _set("player", "name", "N" * 41)),
        "at most 40 characters",
    ),
    (
        "points too large for the column",
        lambda document: _edited(document, _set("hand", "points", 2**70)),
        "points is not valid",
    ),
    (
        "a NUL in a hand's cards",
        lambda document: _edited(document, _set("hand", "cards", "7H\x00")),
        "NUL character",
    ),
    (
        "a date that is not one",
        lambda document: _edited(document, _set("season", "starts_on", "next Tuesday")),
        "starts_on",
    ),
    (
        "unplayable house rules",
        lambda document: _edited(document, _set("game", "rules", {"decks": "many"})),
        "house rules",
    ),
    (
        "a missing field",
        lambda document: _edited(document, lambda models: models["hand"][0].pop("points")),
        "wrong fields",
    ),
    (
        "two players with one name",
        lambda document: _edited(
            document,
            lambda models: models["player"][1].update(name=models["player"][0]["name"].upper()),
        ),
        "two players called",
    ),
    (
        "two players with one name but for a zero-width space",
        lambda document: _edited(
            document,
            lambda models: models["player"][1].update(
                name="\u200b" + models["player"][0]["name"] + "\u2066"
            ),
        ),
        "two players called",
    ),
    (
        "a name of invisible characters only",
        lambda document: _edited(document, _set("season", "name", "\u200b\u202e \t")),
        "only spaces or invisible characters",
    ),
    (
        "more May I?s than the limit",
        lambda document: _edited(document, _set("hand", "may_i_used", 7)),
        "break a rule",
    ),
    (
        "a meld whose cards are not cards",
        lambda document: _edited(document, _set("tablemeld", "cards", "ZZ QQ")),
        "cards are not cards",
    ),
    (
        "a hand whose cards are not cards",
        lambda document: _edited(document, _set("hand", "cards", "<b>7H</b>")),
        "cards are not cards",
    ),
    (
        "a check of cards that are not cards",
        lambda document: _edited(document, _set("check", "cards", "ZZ <script>")),
        "cards are not cards",
    ),
    (
        "a player named by a list",
        lambda document: _edited(document, _set("player", "name", ["a"])),
        'name is not text: ["a"]',
    ),
    (
        "a seat's position of 1e999",
        lambda document: _edited(document, _set("seat", "position", 1e999)),
        "position is not a whole number: Infinity",
    ),
    (
        "a seat beyond its table's players",
        lambda document: _edited(document, _set("seat", "position", 9)),
        "its table seats 5",
    ),
    (
        "points that are true",
        lambda document: _edited(document, _set("hand", "points", True)),
        "points is not a whole number",
    ),
    (
        "a rating that is not a number",
        lambda document: _edited(document, _set("result", "mu", float("nan"))),
        "mu is not a number",
    ),
    (
        "a hand's points that are not its cards'",
        lambda document: _edited(document, _set("hand", "cards", "K 7")),
        "not those of its cards",
    ),
    (
        "a hand's cards not written as the app writes them",
        lambda document: _edited(document, _set("hand", "cards", "kh  7s")),
        "not written as the app writes them",
    ),
    (
        "points nobody is left holding",
        lambda document: _edited(document, _set("hand", "points", 10_001, row=1)),
        "No hand of at most 24 cards is worth 10001 points",
    ),
    (
        "a contract the table does not play",
        lambda document: _edited(document, _set("round", "number", 8)),
        "its table plays 7",
    ),
    (
        "a hand in the history whose cards are not cards",
        lambda document: _edited(
            document, _event("round_scored", "after", lambda after: _first_hand(after, "ZZ"))
        ),
        "A hand's cards in an event's after are not cards",
    ),
    (
        "a hand in the history in another notation",
        lambda document: _edited(
            document, _event("score_edited", "before", lambda before: _first_hand(before, "k 7"))
        ),
        "not written as the app writes them",
    ),
    (
        "a meld in the history in lower case",
        lambda document: _edited(
            document,
            _event("laid_off", "after", lambda after: after | {"cards": after["cards"].lower()}),
        ),
        "A meld's cards in an event's after are not written as the app writes them",
    ),
    (
        "who went down in the history, not a list",
        lambda document: _edited(
            document, _event("score_edited", "after", lambda after: after | {"down": 5})
        ),
        "names down that are not a list of rows",
    ),
    (
        "a history that records no change",
        lambda document: _edited(document, _event("may_i", "before", lambda before: [1])),
        "is not a record of a change",
    ),
    (
        "a result's place beyond its table",
        lambda document: _edited(document, _set("result", "place", 9)),
        "its table seats",
    ),
    (
        "a result naming a player the file does not hold",
        lambda document: _edited(document, _set("result", "others", {"999": 1})),
        "does not hold",
    ),
    (
        "a result's places that are not places",
        lambda document: _edited(document, _set("result", "others", {"1": "first"})),
        "places of the other players are not valid",
    ),
    (
        "a result's points left that are not points",
        lambda document: _edited(document, _set("result", "points_left", [10, "ten"])),
        "points left per contract are not valid",
    ),
    (
        "players that are not a list",
        lambda document: _edited(document, lambda models: models.update(player=5)),
        "players are not a list of rows",
    ),
    (
        "a model left out",
        lambda document: _edited(document, lambda models: models.pop("check")),
        "tables this app expects",
    ),
]


@pytest.mark.parametrize(
    ("spoil", "reason"), [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED]
)
def test_a_bad_file_is_refused_with_a_reason_and_changes_nothing(
    exported, empty_club, spoil, reason
):
    _, document = exported
    before = _snapshot(empty_club)
    with pytest.raises(services.ImportRefused) as refusal:
        services.club_import(user=empty_club.owner(), club=empty_club, document=spoil(document))
    assert reason.lower() in str(refusal.value).lower()
    assert _snapshot(empty_club) == before


def test_a_club_with_players_is_not_imported_into(exported):
    club, document = exported
    before = _snapshot(club)
    with pytest.raises(services.ImportRefused, match="already has players or tables"):
        services.club_import(user=club.owner(), club=club, document=document)
    assert _snapshot(club) == before


def test_a_seasons_share_link_is_not_copied(exported, empty_club):
    club, document = exported
    assert club.seasons.filter(share_token__isnull=False).exists()
    assert "share_token" not in document
    services.club_import(user=empty_club.owner(), club=empty_club, document=document)
    assert not empty_club.seasons.filter(share_token__isnull=False).exists()


def test_a_retired_player_stays_retired_and_an_older_export_retires_nobody(exported, empty_club):
    club, _ = exported
    played = club.players.filter(seats__isnull=False).first()
    services.player_delete(player=played, user=club.owner())
    document = archive.club_export_json(club)
    services.club_import(user=empty_club.owner(), club=empty_club, document=document)
    assert list(empty_club.players.filter(retired=True).values_list("name", flat=True)) == [
        played.name
    ]

    def made_before_deletions(models):
        for row in models["player"]:
            del row["retired"]

    older = make_club(make_user(), name="Older")
    services.club_import(
        user=older.owner(), club=older, document=_edited(document, made_before_deletions)
    )
    assert older.players.count() == club.players.count()
    assert not older.players.filter(retired=True).exists()


# The web's import: queued by the request (what is quick to check), run by a worker.

# What the queue and the worker add: an import and its task, nothing of the club.
QUEUE_MODELS = {ClubImport._meta.label, DBTaskResult._meta.label}


def _club_snapshot(club) -> dict:
    snapshot = _snapshot(club)
    snapshot["counts"] = {k: v for k, v in snapshot["counts"].items() if k not in QUEUE_MODELS}
    return snapshot


def _queue(club, document) -> ClubImport:
    document = document.encode() if isinstance(document, str) else document
    return services.club_import_queue(club=club, user=club.owner(), document=document)


@pytest.mark.parametrize(
    ("spoil", "reason"), [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED]
)
def test_a_bad_file_sent_from_the_page_is_refused_with_a_reason_and_changes_nothing(
    exported, empty_club, spoil, reason
):
    _, document = exported
    before = _club_snapshot(empty_club)
    try:
        queued = _queue(empty_club, spoil(document))
    except services.ImportRefused as refusal:
        # Not JSON of this format and version: refused by the request, nothing queued.
        problem = str(refusal)
        assert not ClubImport.objects.exists() and not DBTaskResult.objects.exists()
    else:
        assert run_tasks() == 1
        queued.refresh_from_db()
        assert queued.status == ImportStatus.REFUSED and bytes(queued.document) == b""
        problem = queued.problem
    assert reason.lower() in problem.lower()
    assert _club_snapshot(empty_club) == before


def test_an_import_task_run_twice_imports_once(exported, empty_club):
    club, document = exported
    queued = _queue(empty_club, document)
    assert run_tasks() == 1
    imported = _club_snapshot(empty_club)
    assert empty_club.players.count() == club.players.count()

    again = services.club_import_run.enqueue(queued.pk)
    assert run_tasks() == 1

    assert services.club_import_run.get_result(again.id).return_value == (
        "already imported or refused, or the club is gone"
    )
    assert _club_snapshot(empty_club) == imported
    queued.refresh_from_db()
    assert queued.status == ImportStatus.IMPORTED


def test_an_import_whose_worker_died_is_imported_once_by_the_next(exported, empty_club):
    club, document = exported
    queued = _queue(empty_club, document)
    # A worker took it, marked it begun and died: its transaction, and so the rows, went with it.
    task = DBTaskResult.objects.get()
    task.claim("a-worker-that-died")
    DBTaskResult.objects.filter(pk=task.pk).update(started_at=timezone.now() - timedelta(hours=1))
    ClubImport.objects.filter(pk=queued.pk).update(status=ImportStatus.IMPORTING)
    assert run_tasks() == 0  # nobody takes a running task

    assert tasks_requeue_stale() == 1
    assert run_tasks() == 1

    queued.refresh_from_db()
    assert queued.status == ImportStatus.IMPORTED
    assert empty_club.players.count() == club.players.count()
    assert empty_club.games.count() == club.games.count()


def test_the_worker_refuses_a_club_that_got_a_player_meanwhile(exported, empty_club):
    _, document = exported
    queued = _queue(empty_club, document)
    services.player_create(user=empty_club.owner(), club=empty_club, name="Early")
    before = _club_snapshot(empty_club)
    run_tasks()
    queued.refresh_from_db()
    assert queued.status == ImportStatus.REFUSED
    assert "already has players or tables" in queued.problem
    assert _club_snapshot(empty_club) == before


def test_the_worker_refuses_in_the_language_the_file_was_sent_in(exported, empty_club):
    _, document = exported
    with translation.override("es"):
        queued = _queue(empty_club, document)
        with pytest.raises(services.ImportRefused, match="no es una exportación"):
            _queue(empty_club, b"not json")
    services.player_create(user=empty_club.owner(), club=empty_club, name="Early")
    run_tasks()  # in a worker: no request, the site's language active
    queued.refresh_from_db()
    assert queued.status == ImportStatus.REFUSED
    assert queued.problem == (
        f"{empty_club} ya tiene jugadores o mesas: importa en un club nuevo y vacío."
    )


def test_the_worker_refuses_for_an_owner_who_is_one_no_longer(exported, empty_club):
    _, document = exported
    queued = _queue(empty_club, document)
    Membership.objects.filter(club=empty_club).update(role=Role.SCORER)
    before = _club_snapshot(empty_club)
    run_tasks()
    queued.refresh_from_db()
    assert queued.status == ImportStatus.REFUSED
    assert queued.problem == "Only the club's owners may do that."
    assert _club_snapshot(empty_club) == before


def test_one_import_at_a_time_into_a_club(exported, empty_club):
    _, document = exported
    queued = _queue(empty_club, document)
    with pytest.raises(services.ImportRefused, match="being imported into Restored already"):
        _queue(empty_club, document)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubImport.objects.create(club=empty_club, status=ImportStatus.IMPORTING)
    run_tasks()
    queued.refresh_from_db()
    assert queued.status == ImportStatus.IMPORTED


def test_an_import_no_worker_took_within_an_hour_is_refused_and_its_file_dropped(
    exported, empty_club
):
    _, document = exported
    queued = _queue(empty_club, document)
    ClubImport.objects.filter(pk=queued.pk).update(created_at=timezone.now() - timedelta(hours=2))
    uploads_drop_stale()
    queued.refresh_from_db()
    assert queued.status == ImportStatus.REFUSED and bytes(queued.document) == b""
    assert "could not be imported in time" in queued.problem
    run_tasks()  # the worker, late, finds it ended
    assert not empty_club.players.exists()


ODD_BUT_ACCEPTED = [
    ("an answer in markup", _set("check", "answer", "<img src=x onerror=alert(1)>")),
    ("a player named in markup", _set("player", "name", "<b>Ann</b> & co")),
    ("a season named in markup", _set("season", "name", "Winter <i>'26</i>")),
]


@pytest.mark.parametrize(
    "change", [case[1] for case in ODD_BUT_ACCEPTED], ids=[case[0] for case in ODD_BUT_ACCEPTED]
)
def test_an_odd_file_that_is_imported_breaks_no_page(client, exported, empty_club, change):
    _, document = exported
    services.club_import(
        user=empty_club.owner(), club=empty_club, document=_edited(document, change)
    )
    client.force_login(empty_club.owner())
    pages = [empty_club.get_absolute_url(), *_club_pages(empty_club)]
    in_play = empty_club.games.filter(finished_at__isnull=True)
    pages += [reverse("table_check", args=[game.pk]) for game in in_play]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "<script>alert(1)" not in response.content.decode()
        assert "<img src=x" not in response.content.decode()


def test_a_club_that_scored_with_the_keypad_and_typed_cards_comes_back_whole(client):
    """The score entry keeps ranks alone from the keypad ("K 7") beside cards typed or read
    ("KH 7S"): the import reads each hand as the score entry wrote it."""
    club = make_club(make_user(), name="Keypad")
    game = make_game(club, players=3)
    seats = _seats(game)
    services.round_record_went_out(
        game=game, version=_fresh(game), seat=seats[0], user=game.created_by
    )
    keypad, typed = rules.parse_ranks("K 7 JK"), rules.parse_ranks("KH 7S")
    entries = {seats[1].pk: rules.HandEntry(cards=tuple(keypad))}
    entries[seats[2].pk] = rules.HandEntry(cards=tuple(typed))
    services.round_score(game=game, version=_fresh(game), entries=entries, user=game.created_by)
    assert sorted(club.games.get().rounds.get(number=1).hands.values_list("cards", flat=True)) == [
        "",
        "K 7 JK",
        "KH 7S",
    ]
    restored = make_club(club.owner(), name="Keypad")
    services.club_import(user=club.owner(), club=restored, document=archive.club_export_json(club))
    assert _club_rows(restored) == _club_rows(club)
    client.force_login(club.owner())
    assert _texts(client, restored, names={}) == _texts(client, club, names={})


def test_a_file_of_more_players_than_a_club_keeps_is_refused_in_the_caps_words(empty_club):
    players = [
        {"id": n, "name": f"P{n}", "retired": False, "created_at": "2026-01-05T20:00:00+00:00"}
        for n in range(1, 60_001)
    ]
    tables = {archive.model_key(model): [] for model in archive.EXPORTED}
    document = archive.club_document({"club": "Huge", "models": {**tables, "player": players}})
    before = _snapshot(empty_club)
    with pytest.raises(services.ImportRefused) as refusal:
        services.club_import(user=empty_club.owner(), club=empty_club, document=document)
    assert str(refusal.value).startswith(
        "The file has 60,000 players: more than 500 players, the most a club keeps."
    )
    assert _snapshot(empty_club) == before
