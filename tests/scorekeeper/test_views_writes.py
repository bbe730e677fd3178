"""What every write to a table goes through (scorekeeper/views/writes.py): the version of
the screen it was made on, and a table that is still being played."""

import pytest

from scorekeeper.models import TableMeld
from tests.factories import HUGE, database_state, go_down, post_refused, score_data, seats, url

pytestmark = pytest.mark.django_db


BAD_VERSIONS = ["", "abc", "-1", "1.5", "1e3", " ", None, "7"]


TABLE_WRITES = ["may_i", "went_down", "went_out", "shanghai", "undo"]


@pytest.mark.parametrize("version", BAD_VERSIONS)
@pytest.mark.parametrize("name", TABLE_WRITES)
def test_a_bad_version_saves_nothing_and_says_why(client, member, game, name, version):
    data = {"seat": seats(game)[0].pk}
    if version is not None:
        data["version"] = version
    post_refused(client, url(name, game), data, "nothing was saved", status=(200, 409))


@pytest.mark.parametrize("name", ["may_i", "undo"])
def test_a_version_too_large_for_the_database_is_stale(client, member, game, name):
    post_refused(
        client,
        url(name, game),
        {"version": HUGE, "seat": seats(game)[0].pk},
        "nothing was saved",
        status=(200, 409),
    )


@pytest.mark.parametrize("name", ["melds_record", "lay_off"])
@pytest.mark.parametrize("version", ["", "abc", "-1", None, "7"])
def test_checker_recordings_with_a_bad_version_save_nothing(client, member, game, name, version):
    first = seats(game)[0]
    go_down(game, first, "7H 7S 7D | 9C 9H 9S")
    meld = TableMeld.objects.filter(owner=first).first()
    data = {"seat": first.pk, "melds": "7C", "meld": meld.pk}
    if version is not None:
        data["version"] = version
    post_refused(client, url(name, game), data, "nothing was saved", status=(200, 409))


@pytest.mark.parametrize("version", ["", "abc", "-1", "0"])
def test_a_correction_with_a_bad_version_is_refused(client, member, one_round_played, version):
    game = one_round_played
    post_refused(
        client,
        url("round_edit", game, 1),
        {**score_data(game), "version": version},
        "nothing was saved",
        status=(200, 409),
    )


# A table that is over


@pytest.mark.parametrize(
    "name",
    [
        "may_i",
        "went_down",
        "went_out",
        "shanghai",
        "score",
        "melds_record",
    ],
)
def test_writes_to_a_finished_table_are_refused(client, member, finished, name):
    post_refused(
        client,
        url(name, finished),
        {
            "version": finished.version,
            "seat": seats(finished)[0].pk,
            "melds": "7H 7S 7D | 9C 9H 9S",
        },
        "game is over",
    )


@pytest.mark.parametrize("name", ["lay_off", "table_check", "table_photo"])
def test_the_checker_of_a_finished_table_is_a_404(client, member, finished, name):
    before = database_state()
    response = client.post(
        url(name, finished),
        {"version": finished.version, "seat": seats(finished)[0].pk, "cards": "7H"},
    )
    assert response.status_code == 404
    assert database_state() == before
