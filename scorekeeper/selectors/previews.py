"""What each deletion would remove and what it keeps, read before anything is deleted: the
deletion pages show it, and the services refuse what it refuses, in the same words."""

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.template.defaultfilters import filesizeformat
from django.utils.timezone import localtime

from scorekeeper.models import Club, Game, Photo, Player, Round, RulesProfile, Season


@dataclass(frozen=True)
class DeletionPreview:
    """`what` is deleted, in players' words: the lines of what `goes` and what `stays`, or the
    `refusal` that says why it cannot be and what to do instead."""

    what: str
    goes: list[str] = field(default_factory=list)
    stays: list[str] = field(default_factory=list)
    refusal: str = ""


def counted(number: int, singular: str, plural: str) -> str:
    """ "1 table", "3 tables"."""
    return f"{number} {singular if number == 1 else plural}"


def _photos_line(photos) -> str:
    """ "4 photos (2.3 MB)" of a queryset of photos."""
    figures = photos.aggregate(count=Count("pk"), size=Sum("size", default=0))
    return f"{counted(figures['count'], 'photo', 'photos')} ({filesizeformat(figures['size'])})"


def _contracts_line(rounds) -> str:
    return counted(rounds.filter(finished_at__isnull=False).count(), "contract", "contracts")


def player_preview(player: Player) -> DeletionPreview:
    tables = player.seats.aggregate(
        all=Count("pk"), finished=Count("pk", filter=Q(game__finished_at__isnull=False))
    )
    if not tables["all"]:
        return DeletionPreview(
            what=f"the player {player}",
            goes=[f"{player}: no table has had {player} at it, so nothing else changes."],
        )
    in_play = tables["all"] - tables["finished"]
    keeps = "keeps" if tables["finished"] == 1 else "keep"
    stays = [
        f"{counted(tables['finished'], 'finished table', 'finished tables')} {keeps} "
        f"{player}'s name, scores and totals; the standings and ratings do not change.",
    ]
    if in_play:
        goes_on = "goes" if in_play == 1 else "go"
        stays.append(
            f"{counted(in_play, 'table', 'tables')} in play {goes_on} on with {player} seated."
        )
    return DeletionPreview(
        what=f"the player {player}",
        goes=[
            f"{player} is no longer listed among the club's players nor offered for new "
            f"tables. Adding a player called {player} again brings them back."
        ],
        stays=stays,
    )


def profile_preview(profile: RulesProfile) -> DeletionPreview:
    what = f"the rule profile {profile}"
    if not profile.club.profiles.exclude(pk=profile.pk).exists():
        return DeletionPreview(
            what=what,
            refusal=f"{profile} is the club's only rule profile, and new tables need one: "
            "make another profile first.",
        )
    tables = profile.games.count()
    keep = "keeps its" if tables == 1 else "keep their"
    return DeletionPreview(
        what=what,
        goes=[f"{profile} and its house rules: it is no longer offered for new tables."],
        stays=[
            f"{counted(tables, 'table', 'tables')} started under {profile} {keep} own copy of "
            "its rules, scores and totals; the standings do not change."
        ],
    )


def season_preview(season: Season) -> DeletionPreview:
    what = f"the season {season}"
    tables = season.games.count()
    if tables:
        return DeletionPreview(
            what=what,
            refusal=f"{season} has {counted(tables, 'table', 'tables')}, and the standings "
            f"need it: delete those tables first, or keep {season} (closing it ends it today).",
        )
    if not season.club.seasons.exclude(pk=season.pk).exists():
        return DeletionPreview(
            what=what,
            refusal=f"{season} is the club's only season, and new tables need one: add another "
            "season first.",
        )
    return DeletionPreview(
        what=what,
        goes=[f"{season}: no table was played in it, so no standings change."],
    )


def game_preview(game: Game) -> DeletionPreview:
    names = ", ".join(seat.player.name for seat in game.seats.select_related("player"))
    goes = [
        f"The table of {names}, started {localtime(game.started_at):%Y-%m-%d}: "
        f"{_contracts_line(game.rounds)} played, "
        f"{counted(game.events.count(), 'entry', 'entries')} of history, "
        f"{counted(game.checks.count(), 'question', 'questions')} asked of the meld checker, "
        f"{_photos_line(game.photos)}."
    ]
    if game.finished_at is not None:
        goes.append(
            f"Its results leave the standings of {game.season} and all time; the ratings of "
            "the tables finished after it are worked out again without it."
        )
    else:
        goes.append("It is still in play: it never reached the standings.")
    return DeletionPreview(
        what="this table",
        goes=goes,
        stays=[f"The players ({names}) and every other table of {game.club}."],
    )


def club_preview(club: Club) -> DeletionPreview:
    games = Game.objects.filter(club=club)
    figures = games.aggregate(
        all=Count("pk"), finished=Count("pk", filter=Q(finished_at__isnull=False))
    )
    members = club.memberships.count()
    return DeletionPreview(
        what=f"the club {club}",
        goes=[
            f"{counted(figures['all'], 'table', 'tables')} ({figures['finished']} finished) with "
            f"{_contracts_line(Round.objects.filter(game__club=club))} and "
            f"{_photos_line(Photo.objects.filter(game__club=club))}.",
            f"{counted(club.players.count(), 'player', 'players')}, "
            f"{counted(club.seasons.count(), 'season', 'seasons')} and their standings, "
            f"{counted(club.profiles.count(), 'rule profile', 'rule profiles')}, the invite "
            "code and the share and TV links.",
        ],
        stays=[
            f"The accounts of its members ({counted(members, 'member', 'members')}): they can "
            "still log in and stay in their other clubs.",
            "Nothing can bring the club back: export it first (Everything, JSON) to keep a copy.",
        ],
    )
