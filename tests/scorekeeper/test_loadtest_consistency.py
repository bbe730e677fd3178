"""The load test's consistency check (tools/loadtest/consistency.py) finds what it is for: an
accepted write missing or saved twice, a refused one saved, totals off their rounds, photo files
without their rows. (May I? over the limit is refused by a database constraint, so no database
can be built to show it.)"""

import pytest

from scorekeeper import services
from scorekeeper.models import Event
from tests.factories import make_game, play_round, seats
from tools.loadtest.consistency import database_problems, table_problems

MAY_I = ["may_i"]


def write(version, outcome="accepted", user="ann", kinds=MAY_I, action="may_i"):
    return {"version": version, "outcome": outcome, "user": user, "kinds": kinds, "action": action}


def test_a_table_whose_events_are_its_accepted_writes_has_no_problem():
    writes = [write(0), write(0, "refused", user="ben"), write(1, user="ben")]
    assert table_problems(1, writes, [("may_i", "ann"), ("may_i", "ben")]) == []


def test_an_accepted_write_missing_from_the_database_is_reported():
    problems = table_problems(1, [write(0), write(1)], [("may_i", "ann")])
    assert problems == ["table 1: accepted may_i at version 1 is lost"]


def test_a_refused_write_saved_is_reported():
    writes = [write(0), write(1, "refused", user="ben")]
    problems = table_problems(1, writes, [("may_i", "ann"), ("may_i", "ben")])
    assert problems == [
        "table 1: event 1 (may_i by ben) was not accepted: "
        "a refused write saved, or one saved twice"
    ]


def test_an_event_of_another_kind_or_account_than_the_accepted_write_is_reported():
    problems = table_problems(1, [write(0)], [("undo", "ann")])
    assert problems == [
        "table 1: accepted may_i by ann at version 0 is not in the database (found undo by ann)"
    ]


def test_a_write_lost_in_flight_may_be_saved_or_not():
    lost = [write(0), write(1, "unknown")]
    assert table_problems(1, lost, [("may_i", "ann"), ("may_i", "ann")]) == []
    assert table_problems(1, lost, [("may_i", "ann")]) == []


def test_two_writes_accepted_at_one_version_are_reported():
    problems = table_problems(1, [write(0), write(0, user="ben")], [("may_i", "ben")])
    assert "table 1: two writes accepted at version 0" in problems


def record_of(game, writes, checks=0):
    return {"writes": [{**w, "table": game.pk} for w in writes], "checks": {str(game.pk): checks}}


@pytest.fixture
def two_may_is(db):
    """A table with two May I?s accepted, as the load generator would have recorded them."""
    game = make_game()
    user = game.created_by
    for version in (0, 1):
        services.may_i_spend(game=game, version=version, seat=seats(game)[version], user=user)
    return game, record_of(game, [write(0, user=user.username), write(1, user=user.username)])


def test_the_database_as_recorded_has_no_problem(two_may_is, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    game, record = two_may_is
    assert database_problems(record, [game.pk]) == []


def test_an_accepted_write_saved_twice_in_the_database_is_reported(two_may_is, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    game, record = two_may_is
    twice = game.events.order_by("pk").last()
    twice.pk = None
    twice.save()
    problems = database_problems(record, [game.pk])
    assert f"table {game.pk}: version 2 but 3 events" in problems
    assert any("event 2 (may_i" in problem and "saved twice" in problem for problem in problems)


def test_an_accepted_write_missing_from_the_database_is_reported_there_too(
    two_may_is, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    game, record = two_may_is
    Event.objects.filter(pk=game.events.order_by("pk").last().pk).delete()
    problems = database_problems(record, [game.pk])
    assert f"table {game.pk}: accepted may_i at version 1 is lost" in problems


def test_more_questions_answered_than_check_rows_is_reported(two_may_is, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    game, record = two_may_is
    record["checks"][str(game.pk)] = 1
    assert database_problems(record, [game.pk]) == [
        f"table {game.pk}: 1 questions answered, fewer Check rows"
    ]


def test_stored_totals_that_are_not_the_sum_of_the_rounds_are_reported(db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    game = make_game()
    for _ in range(7):
        play_round(game)
    user = game.created_by.username
    kinds = [["went_out"], ["round_scored"]] * 7
    writes = [write(n, user=user, kinds=k) for n, k in enumerate(kinds)]
    assert database_problems(record_of(game, writes), [game.pk]) == []
    result = game.results.first()
    result.total += 5
    result.save()
    problems = database_problems(record_of(game, writes), [game.pk])
    assert len(problems) == 1 and problems[0].startswith(f"table {game.pk}: totals")


def test_a_photo_file_without_its_row_is_reported(two_may_is, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    game, record = two_may_is
    (tmp_path / "photos" / "2026").mkdir(parents=True)
    (tmp_path / "photos" / "2026" / "left.jpg").write_bytes(b"\xff\xd8")
    assert database_problems(record, [game.pk]) == [
        "photo file without its row: photos/2026/left.jpg"
    ]
