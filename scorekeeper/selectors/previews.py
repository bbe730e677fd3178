"""What each deletion would remove and what it keeps, read before anything is deleted: the
deletion pages show it, and the services refuse what it refuses, in the same words."""

from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.template.defaultfilters import filesizeformat
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.models import Club, Game, Photo, Player, Round, RulesProfile, Season


@dataclass(frozen=True)
class DeletionPreview:
    """`what` is deleted, in players' words: the lines of what `goes` and what `stays`, or the
    `refusal` that says why it cannot be and what to do instead."""

    what: str
    goes: list[str] = field(default_factory=list)
    stays: list[str] = field(default_factory=list)
    refusal: str = ""


def _tables(number: int) -> str:
    return ngettext("%(count)s table", "%(count)s tables", number) % {"count": number}


def _last_one(what: str, others, refusal: str) -> DeletionPreview | None:
    """New tables need a rule profile and a season: a club's last one of either stays, refused in
    `refusal`'s words, while `others` (the club's other ones) is empty."""
    return None if others.exists() else DeletionPreview(what=what, refusal=refusal)


def _photos_line(photos) -> str:
    """ "4 photos (2.3 MB)" of a queryset of photos."""
    figures = photos.aggregate(count=Count("pk"), size=Sum("size", default=0))
    return ngettext(
        "%(count)s photo (%(size)s)", "%(count)s photos (%(size)s)", figures["count"]
    ) % {
        "count": figures["count"],
        "size": filesizeformat(figures["size"]),
    }


def _contracts_line(rounds) -> str:
    played = rounds.filter(finished_at__isnull=False).count()
    return ngettext("%(count)s contract", "%(count)s contracts", played) % {"count": played}


def player_preview(player: Player) -> DeletionPreview:
    tables = player.seats.aggregate(
        all=Count("pk"), finished=Count("pk", filter=Q(game__finished_at__isnull=False))
    )
    what = _("the player %(player)s") % {"player": player}
    if not tables["all"]:
        return DeletionPreview(
            what=what,
            goes=[
                _("%(player)s: no table has had %(player)s at it, so nothing else changes.")
                % {"player": player}
            ],
        )
    in_play = tables["all"] - tables["finished"]
    stays = [
        ngettext(
            "%(count)s finished table keeps %(player)s's name, scores and totals; the standings "
            "and ratings do not change.",
            "%(count)s finished tables keep %(player)s's name, scores and totals; the standings "
            "and ratings do not change.",
            tables["finished"],
        )
        % {"count": tables["finished"], "player": player},
    ]
    if in_play:
        stays.append(
            ngettext(
                "%(count)s table in play goes on with %(player)s seated.",
                "%(count)s tables in play go on with %(player)s seated.",
                in_play,
            )
            % {"count": in_play, "player": player}
        )
    return DeletionPreview(
        what=what,
        goes=[
            _(
                "%(player)s is no longer listed among the club's players nor offered for new "
                "tables. Adding a player called %(player)s again brings them back."
            )
            % {"player": player}
        ],
        stays=stays,
    )


def profile_preview(profile: RulesProfile) -> DeletionPreview:
    what = _("the rule profile %(profile)s") % {"profile": profile}
    only = _(
        "%(profile)s is the club's only rule profile, and new tables need one: make another "
        "profile first."
    )
    if refused := _last_one(
        what, profile.club.profiles.exclude(pk=profile.pk), only % {"profile": profile}
    ):
        return refused
    tables = profile.games.count()
    return DeletionPreview(
        what=what,
        goes=[
            _("%(profile)s and its house rules: it is no longer offered for new tables.")
            % {"profile": profile}
        ],
        stays=[
            ngettext(
                "%(count)s table started under %(profile)s keeps its own copy of its rules, "
                "scores and totals; the standings do not change.",
                "%(count)s tables started under %(profile)s keep their own copy of its rules, "
                "scores and totals; the standings do not change.",
                tables,
            )
            % {"count": tables, "profile": profile}
        ],
    )


def season_preview(season: Season) -> DeletionPreview:
    what = _("the season %(season)s") % {"season": season}
    tables = season.games.count()
    if tables:
        return DeletionPreview(
            what=what,
            refusal=_(
                "%(season)s has %(tables)s, and the standings need it: delete those tables "
                "first, or keep %(season)s (closing it ends it today)."
            )
            % {"season": season, "tables": _tables(tables)},
        )
    only = _(
        "%(season)s is the club's only season, and new tables need one: add another season first."
    )
    if refused := _last_one(
        what, season.club.seasons.exclude(pk=season.pk), only % {"season": season}
    ):
        return refused
    return DeletionPreview(
        what=what,
        goes=[
            _("%(season)s: no table was played in it, so no standings change.") % {"season": season}
        ],
    )


def game_preview(game: Game) -> DeletionPreview:
    names = ", ".join(seat.player.name for seat in game.seats.select_related("player"))
    entries, questions = game.events.count(), game.checks.count()
    goes = [
        _(
            "The table of %(names)s, started %(day)s: %(contracts)s played, %(entries)s of "
            "history, %(questions)s asked of the meld checker, %(photos)s."
        )
        % {
            "names": names,
            "day": f"{localtime(game.started_at):%Y-%m-%d}",
            "contracts": _contracts_line(game.rounds),
            "entries": ngettext("%(count)s entry", "%(count)s entries", entries)
            % {"count": entries},
            "questions": ngettext("%(count)s question", "%(count)s questions", questions)
            % {"count": questions},
            "photos": _photos_line(game.photos),
        }
    ]
    if game.finished_at is not None:
        goes.append(
            _(
                "Its results leave the standings of %(season)s and all time; the ratings of "
                "the tables finished after it are worked out again without it."
            )
            % {"season": game.season}
        )
    else:
        goes.append(_("It is still in play: it never reached the standings."))
    return DeletionPreview(
        what=_("this table"),
        goes=goes,
        stays=[
            _("The players (%(names)s) and every other table of %(club)s.")
            % {"names": names, "club": game.club}
        ],
    )


def club_preview(club: Club) -> DeletionPreview:
    games = Game.objects.filter(club=club)
    figures = games.aggregate(
        all=Count("pk"), finished=Count("pk", filter=Q(finished_at__isnull=False))
    )
    members = club.memberships.count()
    players, seasons = club.players.count(), club.seasons.count()
    profiles = club.profiles.count()
    return DeletionPreview(
        what=_("the club %(club)s") % {"club": club},
        goes=[
            _("%(tables)s (%(finished)s finished) with %(contracts)s and %(photos)s.")
            % {
                "tables": _tables(figures["all"]),
                "finished": figures["finished"],
                "contracts": _contracts_line(Round.objects.filter(game__club=club)),
                "photos": _photos_line(Photo.objects.filter(game__club=club)),
            },
            _(
                "%(players)s, %(seasons)s and their standings, %(profiles)s, the invite code "
                "and the share and TV links."
            )
            % {
                "players": ngettext("%(count)s player", "%(count)s players", players)
                % {"count": players},
                "seasons": ngettext("%(count)s season", "%(count)s seasons", seasons)
                % {"count": seasons},
                "profiles": ngettext("%(count)s rule profile", "%(count)s rule profiles", profiles)
                % {"count": profiles},
            },
        ],
        stays=[
            ngettext(
                "The accounts of its members (%(count)s member): they can still log in and stay "
                "in their other clubs.",
                "The accounts of its members (%(count)s members): they can still log in and "
                "stay in their other clubs.",
                members,
            )
            % {"count": members},
            _(
                "Nothing can bring the club back: export it first (Everything, JSON) to keep a "
                "copy."
            ),
        ],
    )
