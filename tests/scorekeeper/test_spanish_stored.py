"""Text stored when it is written, in the language of the member who wrote it: a table's history
and the owners' audit trail made in Spanish hold no English word (outside card notation and the
club's names), as tests/scorekeeper/test_spanish.py reads the pages."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

import rules
from scorekeeper import services
from scorekeeper.forms import GameStartForm
from scorekeeper.models import Membership, Role, RulesProfile
from tests.factories import make_club, make_game, make_player, make_user, play_round, seats
from tests.scorekeeper.test_spanish import CLUB, PLAYERS, english_left, english_words

pytestmark = pytest.mark.django_db


def _english_in(texts: list[str]) -> list[str]:
    return english_left("".join(f"<p>{text}</p>" for text in texts), english_words())


def test_a_history_written_in_spanish_has_no_english_word():
    owner = make_user(PLAYERS[4])
    club = make_club(owner, name=CLUB)
    players = [make_player(club, name) for name in PLAYERS[:3]]
    with translation.override("es"):
        game = make_game(club, players)
        ann, ben, cleo = seats(game)
        services.melds_record(
            game=game,
            version=game.version,
            seat=ann,
            melds=[rules.parse_cards("8H 8S 8D"), rules.parse_cards("KC KD JK")],
            user=owner,
        )
        services.shanghai_claim_onto(
            game=game,
            version=game.version,
            seat=cleo,
            discarder=ben,
            meld=game.rounds.get().melds.first(),
            card=rules.parse_cards("8C")[0],
            user=owner,
        )
        services.shanghai_record(
            game=game, version=game.version, seat=ben, discarder=cleo, user=owner
        )
        play_round(game, went_out=0, points=[10, 20])
        services.round_edit(
            game=game,
            version=game.version,
            round_=game.rounds.get(number=1),
            entries={ann.pk: rules.HandEntry(points=15), cleo.pk: rules.HandEntry(points=20)},
            went_out=ben,
            rummy=True,
            user=owner,
        )
        services.action_undo(game=game, version=game.version, user=owner)
    history = list(game.events.order_by("pk").values_list("description", flat=True))
    assert len(history) == 7
    assert any(" (colocado en 8S 8H 8D)" in entry for entry in history), history
    assert any("cerró Ben, no Ann" in entry for entry in history), history
    assert _english_in(history) == [], history


def test_an_owners_audit_trail_written_in_spanish_has_no_english_word():
    owner = make_user(PLAYERS[4])
    club = make_club(owner, name=CLUB)
    ann, ben = make_user(PLAYERS[0]), make_user(PLAYERS[1])
    for user in (ann, ben):
        Membership.objects.create(club=club, user=user, role=Role.VIEWER)
    players = [make_player(club, name) for name in PLAYERS[2:5]]
    with translation.override("es"):
        game = make_game(club, players)
        expires = timezone.now() + timedelta(days=3)
        services.club_invite_set(club=club, user=owner, role=Role.VIEWER, expires_at=expires)
        services.club_invite_set(club=club, user=owner, role=Role.SCORER, expires_at=None)
        services.club_invite_rotate(club=club, user=owner)
        services.member_role_set(
            membership=club.memberships.get(user=ann), user=owner, role=Role.SCORER
        )
        services.member_remove(membership=club.memberships.get(user=ben), user=owner)
        services.game_delete(game=game, user=owner)
        services.player_delete(player=players[0], user=owner)
    trail = list(club.owner_actions.order_by("pk").values_list("summary", flat=True))
    assert len(trail) == 7
    assert "dio a Ann el rol de anotador" in trail
    assert _english_in(trail) == [], trail


def test_a_club_made_in_spanish_names_its_seed_rules_in_spanish_and_starts_tables_with_them():
    with translation.override("es"):
        club = make_club(name=CLUB)
    seed = club.profiles.get()
    assert seed.name == "Reglas iniciales"
    RulesProfile.objects.create(club=club, name="Corto", settings=seed.settings)
    # Read in English now: the seed rules are still the ones a new table starts from.
    assert GameStartForm(club=club).fields["profile"].initial == str(seed.pk)
    assert RulesProfile.seed_names() == {"Seed rules", "Reglas iniciales"}


def test_a_tap_refused_in_spanish_says_why_in_spanish():
    owner = make_user(PLAYERS[4])
    club = make_club(owner, name=CLUB)
    game = make_game(club, [make_player(club, name) for name in PLAYERS[:3]])
    ann = seats(game)[0]
    with translation.override("es"):
        with pytest.raises(services.ActionRefused, match="^No hay nada que deshacer.$"):
            services.action_undo(game=game, version=game.version, user=owner)
        services.hand_mark_down(game=game, version=game.version, seat=ann, user=owner)
        with pytest.raises(services.ActionRefused, match="^Ann ya se bajó en esta ronda.$"):
            services.hand_mark_down(game=game, version=game.version, seat=ann, user=owner)
        services.round_record_went_out(game=game, version=game.version, seat=ann, user=owner)
        with pytest.raises(services.ActionRefused) as refused:
            services.round_score(game=game, version=game.version, entries={}, user=owner)
    assert "Anota las cartas que le quedaron a Ben, o sus puntos." in str(refused.value)
    assert _english_in([str(refused.value)]) == []
