"""Export buttons, the import page and its progress (a worker imports the file), the commands,
and the running-totals chart on the table page."""

import csv
import html
import io
import json
from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scorekeeper import services
from scorekeeper.models import (
    Club,
    ClubImport,
    Event,
    Game,
    ImportStatus,
    Membership,
    Player,
    Role,
)
from scorekeeper.selectors import archive
from tests.factories import make_club, make_game, make_user, play_round, run_tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = make_game(players=3)
    play_round(game, went_out=1, points=[15, 40])
    return game


@pytest.fixture
def member(client, game):
    user = game.club.memberships.get().user
    client.force_login(user)
    return user


def _urls(club: Club) -> list[str]:
    season = club.seasons.first()
    return [
        reverse("club_export_json", args=[club.pk]),
        reverse("club_export_csv", args=[club.pk]),
        reverse("season_export_csv", args=[club.pk, season.pk]),
        reverse("club_import", args=[club.pk]),
    ]


def _upload(content: bytes | str, name: str = "club.json") -> SimpleUploadedFile:
    data = content.encode() if isinstance(content, str) else content
    return SimpleUploadedFile(name, data, content_type="application/json")


def test_anonymous_visitors_are_sent_to_log_in(client, game):
    for url in _urls(game.club):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_another_clubs_exports_and_import_are_404(client, game):
    client.force_login(make_user())
    for url in _urls(game.club):
        assert client.get(url).status_code == 404
    response = client.post(
        reverse("club_import", args=[game.club.pk]),
        {"document": _upload(archive.club_export_json(game.club))},
    )
    assert response.status_code == 404


def test_a_season_of_another_club_is_404(client, member, game):
    other = make_club().seasons.get()
    url = reverse("season_export_csv", args=[game.club.pk, other.pk])
    assert client.get(url).status_code == 404


def test_exports_answer_get_only(client, member, game):
    for url in _urls(game.club)[:3]:
        assert client.post(url).status_code == 405
    assert client.put(_urls(game.club)[3]).status_code == 405


def test_the_json_download_is_the_whole_club(client, member, game, django_assert_num_queries):
    # session, user, club, the eleven exported models, their accounts
    with django_assert_num_queries(15):
        response = client.get(reverse("club_export_json", args=[game.club.pk]))
    assert response["Content-Disposition"].startswith('attachment; filename="club-')
    assert response["Cache-Control"] == "private, no-store"
    document = json.loads(response.content)
    assert document["format"] == archive.FORMAT
    assert len(document["payload"]["models"]["hand"]) == 6  # two rounds dealt, three seats


def test_a_download_is_named_with_the_clubs_date(client, member, game, monkeypatch):
    services.club_set_time_zone(club=game.club, user=member, time_zone="Pacific/Kiritimati")
    # 11:00 UTC on Thursday is 01:00 on Friday in Kiritimati.
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 3, 5, 11, 0, tzinfo=UTC))
    response = client.get(reverse("club_export_csv", args=[game.club.pk]))
    assert response["Content-Disposition"].endswith('-2026-03-06.csv"')


def test_the_csv_download_opens_in_a_spreadsheet(client, member, game):
    response = client.get(reverse("club_export_csv", args=[game.club.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")  # UTF-8 byte-order mark
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["date", "season", "table"]
    assert len(rows) == 1 + 3
    season = game.season
    response = client.get(reverse("season_export_csv", args=[game.club.pk, season.pk]))
    assert f"-{season.name}-" in response["Content-Disposition"]


def test_the_club_page_offers_the_exports_and_only_an_empty_club_the_import(client, member, game):
    page = client.get(game.club.get_absolute_url()).content.decode()
    assert f"<title>{game.club} · Shanghai Scorekeeper</title>" in page
    assert reverse("club_export_json", args=[game.club.pk]) in page
    assert reverse("season_export_csv", args=[game.club.pk, game.season.pk]) in page
    assert reverse("club_import", args=[game.club.pk]) not in page
    empty = make_club(member)
    assert (
        reverse("club_import", args=[empty.pk])
        in client.get(empty.get_absolute_url()).content.decode()
    )


def _progress(client, club_import: ClubImport, shown: str | None = None):
    """The import's page, or (`shown`: the status the page shows) its poll, as htmx sends it."""
    url = reverse("club_import_progress", args=[club_import.pk])
    if shown is None:
        return client.get(url)
    return client.get(url, {"shown": shown}, headers={"HX-Request": "true"})


def test_importing_into_an_empty_club(client, member, game):
    empty = make_club(member, name="Copy")
    url = reverse("club_import", args=[empty.pk])
    assert 'type="file"' in client.get(url).content.decode()

    response = client.post(url, {"document": _upload(archive.club_export_json(game.club))})

    queued = ClubImport.objects.get(club=empty)
    assert response["Location"] == reverse("club_import_progress", args=[queued.pk])
    # The request only queued the file: the worker has not imported it yet.
    assert queued.status == ImportStatus.QUEUED and queued.tables == 1 and queued.document
    assert not empty.players.exists()
    page = html.unescape(_progress(client, queued).content.decode())
    assert "<title>Import into Copy · Shanghai Scorekeeper</title>" in page
    assert "waiting for a worker" in page and "1 table in the file" in page
    assert f'hx-get="{queued.get_absolute_url()}?shown=queued"' in page
    assert _progress(client, queued, shown="queued").status_code == 204

    assert run_tasks() == 1

    poll = _progress(client, queued, shown="queued")
    body = html.unescape(poll.content.decode())
    assert poll.status_code == 200 and body.lstrip().startswith('<div id="import-progress"')
    assert "Imported 3 players, 1 season and 1 table into Copy." in body
    assert f'href="{empty.get_absolute_url()}"' in body and "hx-get" not in body
    assert _progress(client, queued, shown="imported").status_code == 204
    assert sorted(empty.players.values_list("name", flat=True)) == sorted(
        game.club.players.values_list("name", flat=True)
    )
    assert Event.objects.filter(game__club=empty).count() == game.events.count()
    queued.refresh_from_db()
    assert queued.status == ImportStatus.IMPORTED and bytes(queued.document) == b""
    assert queued.counts["player"] == 3 and queued.finished_at is not None
    # The members page lists it with what the owners did.
    assert empty.owner_actions.get().summary == (
        "imported a club export: 3 players, 1 seasons and 1 tables"
    )


def test_the_progress_says_when_the_worker_has_begun(client, member, game):
    empty = make_club(member)
    client.post(
        reverse("club_import", args=[empty.pk]),
        {"document": _upload(archive.club_export_json(game.club))},
    )
    queued = ClubImport.objects.get(club=empty)
    # As the worker leaves it once it has taken the file, before the import commits.
    ClubImport.objects.filter(pk=queued.pk).update(status=ImportStatus.IMPORTING)
    poll = html.unescape(_progress(client, queued, shown="queued").content.decode())
    assert "Importing the file's 1 table…" in poll and "?shown=importing" in poll
    assert _progress(client, queued, shown="importing").status_code == 204


def test_a_file_that_is_not_an_export_is_refused_at_once_and_queues_nothing(client, member):
    empty = make_club(member)
    url = reverse("club_import", args=[empty.pk])
    for content, words in [
        ("{not json", "it is not JSON"),
        ('{"format": "spreadsheet"}', "not a Shanghai Scorekeeper club export"),
        ('{"format": "shanghai-scorekeeper-club", "version": 9}', "format version 9"),
    ]:
        response = client.post(url, {"document": _upload(content)})
        assert response.status_code == 200
        assert words in html.unescape(response.content.decode())
    assert not ClubImport.objects.exists() and not DBTaskResult.objects.exists()
    assert not empty.players.exists() and empty.seasons.count() == 1


def test_a_damaged_file_is_refused_by_the_worker_and_changes_nothing(client, member, game):
    empty = make_club(member)
    season = empty.seasons.get()
    document = archive.club_export_json(game.club).replace("went out", "flew out")
    response = client.post(reverse("club_import", args=[empty.pk]), {"document": _upload(document)})
    queued = ClubImport.objects.get(club=empty)
    assert response["Location"] == queued.get_absolute_url()

    assert run_tasks() == 1

    body = html.unescape(_progress(client, queued, shown="queued").content.decode())
    assert "checksum does not match" in body and "Nothing was imported." in body
    assert reverse("club_import", args=[empty.pk]) in body  # another file may be tried
    assert not empty.players.exists() and list(empty.seasons.all()) == [season]
    queued.refresh_from_db()
    assert queued.status == ImportStatus.REFUSED and bytes(queued.document) == b""


def test_a_file_over_the_size_limit_is_refused(client, member, game, settings):
    settings.CLUB_IMPORT_MAX_BYTES = 1024
    empty = make_club(member)
    document = archive.club_export_json(game.club)
    response = client.post(reverse("club_import", args=[empty.pk]), {"document": _upload(document)})
    assert "a club export here can be at most 0 MB" in html.unescape(response.content.decode())
    assert not empty.players.exists() and not ClubImport.objects.exists()


def test_a_club_with_players_shows_no_import_form(client, member, game):
    response = client.get(reverse("club_import", args=[game.club.pk]))
    assert 'type="file"' not in response.content.decode()
    response = client.post(
        reverse("club_import", args=[game.club.pk]),
        {"document": _upload(archive.club_export_json(game.club))},
    )
    assert "already has players or tables" in html.unescape(response.content.decode())
    assert Player.objects.count() == 3 and not ClubImport.objects.exists()


def test_an_import_under_way_is_shown_instead_of_the_form(client, member, game):
    empty = make_club(member)
    url = reverse("club_import", args=[empty.pk])
    document = archive.club_export_json(game.club)
    client.post(url, {"document": _upload(document)})
    queued = ClubImport.objects.get()
    assert client.get(url)["Location"] == queued.get_absolute_url()
    # A second file sent meanwhile is not taken: the first one's page answers.
    assert client.post(url, {"document": _upload(document)})["Location"] == (
        queued.get_absolute_url()
    )
    assert ClubImport.objects.count() == 1 and DBTaskResult.objects.count() == 1


def test_only_the_clubs_owners_follow_an_import(client, member, game):
    empty = make_club(member)
    client.post(
        reverse("club_import", args=[empty.pk]),
        {"document": _upload(archive.club_export_json(game.club))},
    )
    queued = ClubImport.objects.get()
    url = reverse("club_import_progress", args=[queued.pk])
    assert client.post(url).status_code == 405
    viewer = make_user()
    Membership.objects.create(club=empty, user=viewer, role=Role.SCORER)
    client.force_login(viewer)
    assert client.get(url).status_code == 403
    assert _progress(client, queued, shown="queued").status_code == 403
    client.force_login(make_user())  # another club's owner
    assert _progress(client, queued).status_code == 404
    client.logout()
    assert client.get(url)["Location"].startswith(reverse("login"))
    queued.refresh_from_db()
    assert queued.status == ImportStatus.QUEUED


def test_the_table_page_draws_running_totals(client, member, game, django_assert_num_queries):
    # session, user, table, the board's six queries and the TV link: the chart adds none
    with django_assert_num_queries(10):
        page = client.get(game.get_absolute_url()).content.decode()
    assert page.count('<svg class="chart-svg"') == 1
    assert "Running totals" in page
    partial = client.get(game.get_absolute_url(), headers={"HX-Request": "true"})
    body = partial.content.decode()
    assert body.lstrip().startswith('<div id="table"') and '<svg class="chart-svg"' in body
    fresh = make_game(game.club, players=3)
    assert "chart-svg" not in client.get(fresh.get_absolute_url()).content.decode()


def test_game_over_shows_the_chart(client, member, game):
    for _ in range(6):
        play_round(game)
    game.refresh_from_db()
    assert game.finished_at is not None
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Game over" in page and "7 contracts played" in page


def test_the_commands_export_and_import_a_club(tmp_path, game):
    path = tmp_path / "club.json"
    call_command("club_export", str(game.club.pk), "-o", str(path))
    user = make_user("importer")
    out = io.StringIO()
    call_command("club_import", str(path), "--user", "importer", stdout=out)
    copy = Club.objects.get(memberships__user=user)
    assert copy.name == game.club.name and copy.players.count() == 3
    assert "3 player" in out.getvalue()
    sheet = tmp_path / "scores.csv"
    call_command("club_export", str(copy.pk), "--format", "csv", "-o", str(sheet))
    assert sheet.read_bytes().startswith(b"\xef\xbb\xbf")
    assert len(sheet.read_text(encoding="utf-8-sig").splitlines()) == 1 + 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--club", "999999"], "There is no club 999999"),
        (["--user", "nobody"], "There is no account 'nobody'"),
        (["--club", "{club}"], "already has players or tables"),
    ],
)
def test_the_import_command_refuses_with_a_reason(tmp_path, game, arguments, message):
    path = tmp_path / "club.json"
    path.write_text(archive.club_export_json(game.club))
    arguments = [argument.format(club=game.club.pk) for argument in arguments]
    clubs = Club.objects.count()
    with pytest.raises(CommandError, match=message):
        call_command("club_import", str(path), *arguments)
    assert Club.objects.count() == clubs


def test_a_club_with_no_owner_has_none_and_the_import_command_says_so(tmp_path, game):
    path = tmp_path / "club.json"
    path.write_text(archive.club_export_json(game.club))
    empty = make_club()
    empty.memberships.all().delete()  # as nothing in the app leaves a club
    assert empty.owner() is None
    with pytest.raises(CommandError, match="has no owner"):
        call_command("club_import", str(path), "--club", str(empty.pk))
    assert not empty.players.exists()


def test_the_import_command_makes_no_club_from_a_bad_file(tmp_path):
    make_user("importer")
    path = tmp_path / "club.json"
    path.write_text('{"format": "shanghai-scorekeeper-club", "version": 1, "payload": {}}')
    with pytest.raises(CommandError, match="checksum"):
        call_command("club_import", str(path), "--user", "importer")
    assert not Club.objects.exists() and not Game.objects.exists()
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("club_import", str(tmp_path / "missing.json"), "--user", "importer")


def test_the_export_command_refuses_a_season_with_json(game):
    with pytest.raises(CommandError, match="--season goes with --format csv"):
        call_command("club_export", str(game.club.pk), "--season", str(game.season.pk))
    with pytest.raises(CommandError, match="no season 999999"):
        call_command("club_export", str(game.club.pk), "--format", "csv", "--season", "999999")


def test_where_tasks_run_in_the_request_the_import_is_done_when_its_page_opens(
    client, member, game, settings
):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    empty = make_club(member, name="Copy")
    response = client.post(
        reverse("club_import", args=[empty.pk]),
        {"document": _upload(archive.club_export_json(game.club))},
        follow=True,
    )
    body = html.unescape(response.content.decode())
    assert "Imported 3 players, 1 season and 1 table into Copy." in body
    assert "hx-get" not in body.split('id="import-progress"')[1].split("</div>")[0]
    assert empty.players.count() == 3
