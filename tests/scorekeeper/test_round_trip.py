"""Every club round-trips, whatever was played: exported and imported into an empty club, or backed
up and restored into an empty database, the copy's every page reads as the original's.

The table's state machine (table_machine.Table: May I?s, going down, melds, lay-offs, Shanghai
claims and protects, going out, hands scored as keypad ranks or points, edits of the points and
of who went out, undo) plays one table under one of its house rules, and the club gets a
history around it: hands typed as cards, photos of hands and of melds read (unsure cards among
them) and checks asked with them, more tables played in other seasons under a second rules
profile, some to the end, tables and players deleted. At the end of each example the club is
exported (selectors/archive.py) and imported (services/imports.py) into an empty club of the
same owner and name, and the whole database backed up and restored (services/backups.py) into an
empty one; every page of the club (club, standings, club night, seasons, players, tables, their
history and photos, the TV views) is then read as the owner and compared: the imported club's
word for word, with only the tables' names (their ids), the invite code and the TV links'
tokens made one; the restored database's markup whole, but for what a page carries for the
session reading it (the CSRF token, the signed poll address, the account's id). An export
leaves the photos out on purpose: the original's are deleted before its pages are read for that
comparison; the backup keeps them.

The photos are kept as read (a worker's reading, not the recognizer's: it takes a second a
photo). `make test` runs a short search (2 examples of up to 14 steps, tests/depth.py); CI sets
TEST_DEPTH=ci for three parts of 5 examples of up to 30 steps.
"""

import tempfile
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, precondition, rule, run_state_machine_as_test

import rules
from scorekeeper import services
from scorekeeper.models import Club, TableLink
from scorekeeper.selectors import archive
from scorekeeper.services.backups import backup_restore, backup_write
from tests.depth import examples
from tests.factories import kept_photo, make_player, run_tasks
from tests.scorekeeper.club_pages import club_urls, page_markup, page_texts, tables_by_place
from tests.scorekeeper.table_machine import HANDS, HOUSE_RULES, Table

# Examples a test, steps an example, and parts (tests, which the workers share out): a few
# seconds in `make test`, three parts of half a minute each in CI.
EXAMPLES, STEPS, PARTS = examples(dev=(2, 14, 1), ci=(5, 30, 3))

# Hands typed as cards (or read from a photo and corrected), beside the keypad's ranks (HANDS).
TYPED = ["KH 7S", "JK 2C 2D", "10H JH QH", "AS", "5D 5C 9S", "QS QD"]
# Melds read from a photo and asked of the checker.
CHECKED = ["7H 7S 7D", "4C 5C 6C 7C", "KH KS", "JK=9H 10H JH QH"]
SHORT = "three contracts"  # the second profile's rules: its tables finish in three rounds

hand_texts = st.tuples(st.sampled_from(HANDS + TYPED), st.booleans())


class ClubHistory(Table):
    """The table's state machine, its club given a history around the table, and a round trip at
    the end of each example."""

    @initialize(players=st.integers(3, 5), name=st.sampled_from(sorted(HOUSE_RULES)))
    def start(self, players, name):
        self.name = name
        Table.start(self, players=players)
        self.club = self.game.club
        self.owner = self.game.created_by
        self.short = services.profile_save(
            user=self.owner, club=self.club, name="Short", house_rules=HOUSE_RULES[SHORT]
        )
        self.others = []  # the other tables, as started

    # The table's own hands, typed as cards as well as keyed as ranks or points.

    @rule(data=st.lists(st.tuples(st.sampled_from(TYPED), st.booleans()), min_size=5, max_size=5))
    def scored_as_typed(self, data):
        self.scored(data)

    @rule(index=st.integers(0, 4), text=st.sampled_from(TYPED), unsure=st.booleans())
    def photo_of_a_hand(self, index, text, unsure):
        kept_photo(self.game, seat=self.seat(index), detections=_read(text, unsure))

    @rule(text=st.sampled_from(CHECKED), photo=st.booleans())
    def checked(self, text, photo):
        round_ = self.current()
        if round_ is None:
            return
        read = kept_photo(self.game, detections=_read(text, True)) if photo else None
        services.check_ask(
            question=rules.Question.MELD,
            cards=rules.parse_melds(text),
            user=self.owner,
            game=self.game,
            round_=round_,
            photo=read,
        )

    def undo_may_be_refused(self, refusal):
        # A scored contract is not reopened once the next one has photos or checks.
        return "cannot be reopened" in str(refusal)

    # The club around the table.

    @rule(month=st.integers(1, 12))
    def season_started(self, month):
        number = self.club.seasons.count() + 1
        services.season_create(
            user=self.owner,
            club=self.club,
            name=f"Season {number}",
            starts_on=date(2025 + number % 2, month, 1),
        )

    @rule(
        seated=st.integers(3, 4),
        season=st.integers(0, 9),
        plays=st.lists(
            st.tuples(st.integers(0, 3), st.lists(hand_texts, min_size=3, max_size=3)),
            max_size=3,
        ),
    )
    def another_table(self, seated, season, plays):
        playing = list(self.club.players.playing().order_by("pk"))
        while len(playing) < seated:
            playing.append(make_player(self.club, owner=self.owner))
        seasons = list(self.club.seasons.order_by("pk"))
        game = services.game_start(
            club=self.club,
            user=self.owner,
            players=playing[-seated:],
            first_dealer=0,
            season=seasons[season % len(seasons)],
            profile=self.short,
        )
        self.others.append(game)
        for went_out, data in plays:
            if not _round_played(game, went_out, data, self.owner):
                break

    @precondition(lambda self: self.others)
    @rule(which=st.integers(0, 9))
    def table_deleted(self, which):
        game = self.others.pop(which % len(self.others))
        services.game_delete(game=game, user=self.owner)
        _tasks_run()  # the ratings of the later tables, replayed without it

    @rule(which=st.integers(0, 20))
    def player_deleted(self, which):
        players = list(self.club.players.playing().order_by("pk"))
        if not players:
            return
        services.player_delete(player=players[which % len(players)], user=self.owner)

    def teardown(self):
        if hasattr(self, "club"):
            round_trip(self.club, self.owner)


def _tasks_run() -> None:
    # In a transaction, as a worker takes a task (this test's own does not hold one).
    with transaction.atomic():
        run_tasks()


def _read(text: str, unsure: bool) -> list[dict]:
    """A photo's reading of `text`'s cards, the last one unsure when `unsure`."""
    cards = [str(card) for card in rules.parse_cards(text)]
    return [
        {
            "card": card,
            "confidence": 0.4 if unsure and place == len(cards) - 1 else 0.97,
            "box": [10 * place, 0, 10 * place + 8, 12],
        }
        for place, card in enumerate(cards)
    ]


def _round_played(game, went_out: int, data, user) -> bool:
    """Play the table's current round: seat `went_out` goes out and the others are scored from
    `data`, (ranks or cards, as points or not) each; False when it was refused."""
    seats = list(game.seats.order_by("position"))
    out = seats[went_out % len(seats)]
    game.refresh_from_db()
    services.round_record_went_out(game=game, version=game.version, seat=out, user=user)
    house_rules = game.house_rules
    entries = {}
    for seat, (text, as_points) in zip([seat for seat in seats if seat != out], data, strict=False):
        cards = tuple(rules.parse_ranks(text))
        points = rules.penalty_points(cards, house_rules)
        entries[seat.pk] = (
            rules.HandEntry(points=points) if as_points else rules.HandEntry(cards=cards)
        )
    game.refresh_from_db()
    try:
        services.round_score(game=game, version=game.version, entries=entries, user=user)
    except services.ActionRefused:
        return False
    return True


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def club_pages(club, client: Client) -> list[str]:
    """Every page of `club` as `client` reads it, with what legitimately differs between a club
    and its copy made one: the tables' names (their ids), the invite code, the TV links'
    tokens."""
    urls = club_urls(club)
    club.refresh_from_db()
    tokens = TableLink.objects.filter(game__club=club).values_list("token", flat=True)
    same = tables_by_place(club) | {token: "TV-TOKEN" for token in [*tokens, club.tv_token]}
    same[club.invite_code] = "INVITE-CODE"
    return page_texts(client, urls, same=same)


def _same_pages(original: list[str], copy: list[str], urls: list[str]) -> None:
    assert len(copy) == len(original)
    for url, before, after in zip(urls, original, copy, strict=True):
        assert after == before, f"{url} differs"


def round_trip(club: Club, owner) -> None:
    """Export and import the club into an empty club, then back up the database and restore it
    into an empty one: each copy's pages must be the original's, the restored one's markup
    too (its ids are the original's)."""
    _tasks_run()  # what workers still owe the club (ratings replayed): the club as it settles
    urls = club_urls(club)
    client = _client(owner)
    markup = page_markup(client, urls)
    with tempfile.TemporaryDirectory() as folder:
        backup = Path(folder) / "backup.tar.gz"
        backup_write(path=backup)

        # An export leaves the photos out: the original without them is what comes back.
        for game in club.games.all():
            for photo in game.photos.all():
                services.photo_delete(photo=photo, user=owner)
        copy = services.club_create(user=owner, name=club.name)
        original = club_pages(club, client)
        services.club_import(user=owner, club=copy, document=archive.club_export_json(club))
        _same_pages(original, club_pages(copy, client), urls)

        _database_empty()
        backup_restore(path=backup)
    owner = get_user_model().objects.get(username=owner.username)
    _same_pages(markup, page_markup(_client(owner), urls), urls)
    _database_empty()


def _database_empty() -> None:
    """An empty, migrated database and no photos: a new server."""
    call_command("flush", interactive=False, verbosity=0)
    for path in Path(django_settings.MEDIA_ROOT).rglob("*"):
        if path.is_file():
            path.unlink()


# Transactional: a backup is restored into an empty database, which the test's own transaction
# would not let it be.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("part", range(PARTS))
def test_every_club_comes_back_whole_from_its_export_and_from_a_backup(part):
    run_state_machine_as_test(
        ClubHistory,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
