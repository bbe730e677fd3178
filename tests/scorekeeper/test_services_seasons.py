"""Closing a season, on the club's date (scorekeeper/services/seasons.py). The other season
writes are tested through their pages in test_views_seasons.py."""

from datetime import UTC, date, datetime

import pytest
from django.utils import timezone

from scorekeeper import services
from scorekeeper.models import Season
from tests.factories import make_user

pytestmark = pytest.mark.django_db

# Moments when the club's date is not the server's (UTC): Kiritimati is 14 hours ahead, so at
# 11:00 UTC on Thursday it is already Friday there; Los Angeles is 8 hours behind, so at 04:00
# UTC on Friday it is still Thursday evening there.
ELSEWHERE = [
    ("Pacific/Kiritimati", datetime(2026, 3, 5, 11, 0, tzinfo=UTC), date(2026, 3, 6)),
    ("America/Los_Angeles", datetime(2026, 3, 6, 4, 0, tzinfo=UTC), date(2026, 3, 5)),
]


@pytest.fixture
def clock(monkeypatch):
    """Sets the server's clock (Django's timezone.now) to a moment of the test's choosing."""

    def set_clock(moment: datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: moment)

    return set_clock


@pytest.mark.parametrize(("time_zone", "moment", "club_today"), ELSEWHERE)
def test_a_season_closes_on_the_clubs_date_not_the_servers(clock, time_zone, moment, club_today):
    clock(moment)
    club = services.club_create(user=make_user(), name="Far away", time_zone=time_zone)
    season = services.season_close(season=club.seasons.get(), user=club.owner())
    season.refresh_from_db()
    assert season.ends_on == club_today
    # Over where the club plays, from today on, whatever time zone is active (the server's here).
    assert Season.objects.current(club) is None
    with timezone.override(time_zone):
        assert Season.objects.current(club) is None


# New Year where the club plays, and not yet (or no longer) by the server's clock.
NEW_YEAR = [
    ("Pacific/Kiritimati", datetime(2026, 12, 31, 11, 0, tzinfo=UTC), 2027),
    ("America/Los_Angeles", datetime(2027, 1, 1, 4, 0, tzinfo=UTC), 2026),
]


@pytest.mark.parametrize(("time_zone", "moment", "year"), NEW_YEAR)
def test_a_new_clubs_first_season_is_the_clubs_year(clock, time_zone, moment, year):
    clock(moment)
    club = services.club_create(user=make_user(), name="Far away", time_zone=time_zone)
    season = club.seasons.get()
    assert (season.name, season.starts_on) == (str(year), date(year, 1, 1))
