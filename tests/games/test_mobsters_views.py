"""Mobsters: what each viewer sees (hands private, the deck hidden, played cards public), in views and in
events, and the final result."""

from __future__ import annotations

import msgspec

from games.base import EVERYONE, SPECTATOR
from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import Kind
from games.mobsters.moves import DrawExtra, EndPhase, Hit
from games.table import Status, plain_view
from tests.games.helpers import created, given, when
from tests.games.mobsters_helpers import cid, game, mobster, of_type, operation, rolled

LUCKY, TONY = mobster("Lucky"), mobster("Tony")
CASINO, SNIPER, BEAT_COP = operation("Casino"), cid(Kind.HIT, "Sniper"), cid(Kind.LAW, "Beat Cop")


def test_a_seat_sees_its_own_hand_and_only_how_many_cards_the_others_hold() -> None:
    table = game(3, hands={0: [SNIPER], 1: [CASINO]})

    body = msgspec.to_builtins(RULESET.view(table.rules, 1))

    assert msgspec.to_builtins(RULESET.you(table.rules, 1)) == {"hand": [CASINO]}
    assert [s["hand_count"] for s in body["seats"]] == [3, 1, 0]
    assert all("hand" not in s for s in body["seats"])
    assert "deck" not in body


def test_spectators_see_no_hand_and_no_deck_order() -> None:
    table = game(2, hands={0: [SNIPER]})

    body = msgspec.to_builtins(RULESET.view(table.rules, SPECTATOR))

    assert "deck" not in body
    assert body["deck_count"] == len(table.rules.deck)
    assert all("hand" not in s for s in body["seats"])


def test_everyone_sees_every_hand_and_the_deck_order() -> None:
    table = game(2, hands={0: [SNIPER], 1: [CASINO]})

    body = msgspec.to_builtins(RULESET.view(table.rules, EVERYONE))

    assert body["deck"] == list(table.rules.deck)
    assert [s["hand"] for s in body["seats"]] == [list(b.hand) for b in table.rules.bosses]


def test_cards_in_play_money_and_the_discard_pile_are_public() -> None:
    table = game(2, hands={0: [SNIPER]}, crews={0: {LUCKY: [CASINO]}, 1: {TONY: []}}, law={TONY: [BEAT_COP]})
    table, _ = rolled(table, 0, EndPhase(), [])
    table, _ = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [2])

    body = msgspec.to_builtins(RULESET.view(table.rules, SPECTATOR))

    assert body["discard"] == [SNIPER]
    assert body["seats"][0]["money"] == 1000
    assert body["seats"][0]["income"] == 500
    assert body["seats"][0]["mobsters"] == [
        {
            "card": LUCKY,
            "operations": [CASINO],
            "law": [],
            "has_action": False,
            "deed": {"action": "hit", "card": SNIPER, "on": TONY, "roll": 2},
        }
    ]
    assert body["seats"][1]["mobsters"][0]["law"] == [BEAT_COP]


def test_the_deck_order_in_the_shuffle_event_is_hidden_from_every_seat() -> None:
    events = created(RULESET, 3, {"first_player": 0})
    [shuffled] = of_type(events, ev.DeckShuffled)

    for viewer in (0, 1, 2, SPECTATOR):
        assert "cards" not in RULESET.event_view(shuffled, viewer)
    assert RULESET.event_view(shuffled, EVERYONE)["cards"] == shuffled.cards


def test_dealt_and_drawn_cards_are_seen_only_by_their_drawer() -> None:
    events = created(RULESET, 3, {"first_player": 0})
    deal = of_type(events, ev.CardsDrawn)[1]

    assert RULESET.event_view(deal, 1)["cards"] == deal.cards
    for viewer in (0, 2, SPECTATOR):
        assert RULESET.event_view(deal, viewer) == {"seat": 1, "reason": "deal", "count": 7}


def test_an_extra_card_is_seen_only_by_its_buyer() -> None:
    table = game(2, crews={0: {LUCKY: []}})
    table, [bought] = when(RULESET, table, 0, DrawExtra(mobster=LUCKY))

    assert RULESET.event_view(bought, 0)["card"] == bought.card
    assert "card" not in RULESET.event_view(bought, 1)
    assert RULESET.event_view(bought, 1)["price"] == 1000


def test_cards_played_face_up_are_in_every_viewers_events() -> None:
    table = game(2, hands={0: [SNIPER]}, crews={0: {LUCKY: []}, 1: {TONY: []}}, phase="hit")
    table, events = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [5])

    for event in events:
        assert RULESET.event_view(event, 1) == msgspec.to_builtins(event) == RULESET.event_view(event, SPECTATOR)


def test_the_table_view_lists_the_awaited_seat_and_its_legal_moves_ready_to_post() -> None:
    table = game(2, crews={0: {LUCKY: []}})

    body = plain_view(RULESET, table, 0)

    assert body["awaiting"] == [{"seat": 0, "decision": "draw", "simultaneous": False}]
    assert body["you"]["legal_moves"] == [{"type": "draw_extra", "mobster": LUCKY}, {"type": "end_phase"}]
    assert plain_view(RULESET, table, 1)["you"]["legal_moves"] == []
    for move in body["you"]["legal_moves"]:
        move_type = RULESET.move_type(move["type"])
        assert move_type is not None
        assert msgspec.to_builtins(msgspec.convert(move, move_type)) == move


def test_a_finished_game_shows_every_hand_to_all() -> None:
    table = game(2, hands={1: [CASINO]}, phase="law", deck_size=1)
    table, _ = when(RULESET, table, 0, EndPhase())

    assert table.status is Status.FINISHED
    assert plain_view(RULESET, table, SPECTATOR)["state"]["seats"][1]["hand"][0] == CASINO


# --- the result ------------------------------------------------------------------------------------------------


def test_the_richest_seat_wins_and_debt_counts_below_zero() -> None:
    table = game(3, phase="law", deck_size=1, money={0: 2500, 1: -700, 2: 900})
    table, _ = when(RULESET, table, 0, EndPhase())

    result = RULESET.result(table.rules)

    assert result.scores == (2500, -700, 900)
    assert result.ranks == (1, 3, 2)
    assert result.winners == (0,)
    assert result.tie_break is None and result.tie_breakers == ()


def test_tied_richest_seats_share_the_victory() -> None:
    table = game(3, phase="law", deck_size=1, money={0: 2500, 1: 2500, 2: 900})
    table, _ = when(RULESET, table, 0, EndPhase())

    result = RULESET.result(table.rules)

    assert result.winners == (0, 1)
    assert result.ranks == (1, 1, 3)
    assert result.tie_break is None


def test_a_finished_game_awaits_nobody() -> None:
    table = given(RULESET, created(RULESET, 2, {"first_player": 0}))

    assert RULESET.is_over(table.rules) is False
    table = game(2, phase="law", deck_size=1)
    table, _ = when(RULESET, table, 0, EndPhase())
    assert RULESET.is_over(table.rules)
    assert RULESET.awaiting(table.rules) == {}
