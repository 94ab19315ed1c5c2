"""Ca$h 'n Guns, what each viewer sees: a loaded card, an aim in the window, a courage choice, the future piles
and held loot stay with their owner (and EVERYONE) until the rules reveal them."""

from __future__ import annotations

import json
from typing import Any

from games.base import EVERYONE, SPECTATOR, Viewer
from games.cash_n_guns import RULESET
from games.cash_n_guns.events import CourageChosen, LootDealt, LootRevealed
from games.cash_n_guns.moves import Aim, Courage, Load, SkipPrivilege, Take
from games.table import Table, event_view, plain_view
from tests.games.cng_helpers import aim, hold_up, load, moves, new_game, of_type, ring, stacked, turn
from tests.games.helpers import created, when

OTHERS: list[Viewer] = [1, 2, 3, SPECTATOR]


def seat_view(table: Table[Any], viewer: Viewer, seat: int) -> dict[str, Any]:
    return plain_view(RULESET, table, viewer)["state"]["seats"][seat]


def seen_by(table: Table[Any], viewer: Viewer) -> str:
    """The whole view as JSON text, to search for a secret anywhere in it."""
    return json.dumps(plain_view(RULESET, table, viewer))


def test_a_loaded_card_is_seen_only_by_its_seat() -> None:
    table, events = when(RULESET, new_game(4), 0, Load(card="bang"))

    for viewer in OTHERS:
        assert event_view(RULESET, events[0], viewer) == {"seat": 0}
        body = plain_view(RULESET, table, viewer)
        assert '"bang"' not in json.dumps(body["state"])
        assert body.get("you", {}).get("loaded_card") is None
    assert event_view(RULESET, events[0], 0) == {"seat": 0, "card": "bang"}
    assert event_view(RULESET, events[0], EVERYONE) == {"seat": 0, "card": "bang"}
    assert plain_view(RULESET, table, 0)["you"]["loaded_card"] == "bang"
    assert seat_view(table, 1, 0)["has_loaded"] is True


def test_loading_a_bang_or_a_click_looks_the_same_to_every_other_viewer() -> None:
    with_bang, _ = when(RULESET, new_game(4), 0, Load(card="bang"))
    with_click, _ = when(RULESET, new_game(4), 0, Load(card="click"))

    for viewer in OTHERS:
        assert plain_view(RULESET, with_bang, viewer) == plain_view(RULESET, with_click, viewer)
    assert plain_view(RULESET, with_bang, 0) != plain_view(RULESET, with_click, 0)


def test_aims_are_hidden_while_the_window_is_open_and_all_shown_when_it_closes() -> None:
    table, _ = load(new_game(4))
    table, events = when(RULESET, table, 0, Aim(target=2))

    for viewer in OTHERS:
        assert event_view(RULESET, events[0], viewer) == {"seat": 0}
        assert seat_view(table, viewer, 0)["target"] is None
    assert seat_view(table, 1, 0)["has_aimed"] is True
    assert plain_view(RULESET, table, 0)["you"]["aiming_at"] == 2
    table, events = aim(table, {1: 2, 2: 3, 3: 0})
    assert [seat_view(table, SPECTATOR, s)["target"] for s in range(4)] == [2, 2, 3, 0]


def test_a_courage_choice_is_hidden_until_every_choice_is_revealed_together() -> None:
    table, _ = aim(load(new_game(4))[0], ring(4))
    table, _ = when(RULESET, table, 0, SkipPrivilege())
    table, events = when(RULESET, table, 2, Courage(stand=False))

    for viewer in (0, 1, 3, SPECTATOR):
        assert event_view(RULESET, events[0], viewer) == {"seat": 2}
        assert seat_view(table, viewer, 2)["stands"] is None
        assert seat_view(table, viewer, 2)["has_chosen"] is True
    assert event_view(RULESET, events[0], 2) == {"seat": 2, "stand": False}
    assert plain_view(RULESET, table, 2)["you"]["courage"] is False
    table, events = moves(table, [(0, Courage(stand=True)), (1, Courage(stand=True)), (3, Courage(stand=True))])
    assert [seat_view(table, SPECTATOR, s)["stands"] for s in range(4)] == [True, True, False, True]


def test_standing_or_lying_down_looks_the_same_to_others_until_the_reveal() -> None:
    table, _ = aim(load(new_game(4))[0], ring(4))
    table, _ = when(RULESET, table, 0, SkipPrivilege())
    standing, seen_standing = when(RULESET, table, 2, Courage(stand=True))
    lying, seen_lying = when(RULESET, table, 2, Courage(stand=False))

    for viewer in (0, 1, 3, SPECTATOR):
        assert plain_view(RULESET, standing, viewer) == plain_view(RULESET, lying, viewer)
        assert event_view(RULESET, seen_standing[0], viewer) == event_view(RULESET, seen_lying[0], viewer)
    assert of_type(seen_lying, CourageChosen) == [CourageChosen(seat=2, stand=False)]


def test_the_dealt_piles_are_seen_by_nobody_but_everyone() -> None:
    events = created(RULESET, 4, {"first_godfather": 0})
    dealt = of_type(events, LootDealt)[0]

    for viewer in [0, 1, 2, 3, SPECTATOR]:
        assert "piles" not in event_view(RULESET, dealt, viewer)
    assert event_view(RULESET, dealt, EVERYONE)["piles"] == dealt.piles


def test_future_piles_appear_in_no_view_but_everyones() -> None:
    table = new_game(4, piles=stacked())
    future = [card for pile in table.rules.piles for card in pile]

    for viewer in [0, 1, 2, 3, SPECTATOR]:
        text = seen_by(table, viewer)
        assert not any(f'"{card}"' in text for card in future)
        assert plain_view(RULESET, table, viewer)["state"]["piles_left"] == 7
    assert plain_view(RULESET, table, EVERYONE)["state"]["piles"] == [list(pile) for pile in table.rules.piles]


def test_each_pile_is_revealed_to_all_by_its_own_event_at_the_start_of_its_turn() -> None:
    table = new_game(4, piles=stacked())
    second = table.rules.piles[0]

    _, events = turn(table, aims={})

    revealed = of_type(events, LootRevealed)[0]
    assert revealed == LootRevealed(turn=2, cards=second)
    for viewer in [0, SPECTATOR]:
        assert event_view(RULESET, revealed, viewer)["cards"] == second


def test_a_seats_loot_is_shown_to_itself_and_others_see_only_how_many_cards_it_holds() -> None:
    table, _ = hold_up(new_game(4, piles=stacked("painting-04")), aims={})
    table, _ = when(RULESET, table, 0, Take(loot="painting-04"))

    assert plain_view(RULESET, table, 0)["you"]["loot"] == ["painting-04"]
    assert plain_view(RULESET, table, 0)["you"]["loot_value"] == 4000
    for viewer in OTHERS:
        assert seat_view(table, viewer, 0)["loot_count"] == 1
        assert "painting-04" not in json.dumps(plain_view(RULESET, table, viewer)["state"]["seats"])
    assert seat_view(table, EVERYONE, 0)["loot"] == ["painting-04"]


def test_you_holds_the_seats_bullet_cards_loaded_card_courage_and_loot() -> None:
    table, _ = when(RULESET, new_game(4), 3, Load(card="bang"))

    you = plain_view(RULESET, table, 3)["you"]
    assert you == {
        "seat": 3,
        "bang_cards": 2,
        "click_cards": 5,
        "loaded_card": "bang",
        "aiming_at": None,
        "courage": None,
        "loot": [],
        "loot_value": 0,
        "legal_moves": [],
    }
    assert seat_view(table, 1, 3)["bullet_cards"] == 7
    assert {"bang_cards", "click_cards"} & set(seat_view(table, 1, 3)) == set()


def test_everyone_sees_every_secret() -> None:
    table, _ = when(RULESET, new_game(4), 1, Load(card="click"))

    seats = plain_view(RULESET, table, EVERYONE)["state"]["seats"]
    assert [s["loaded_card"] for s in seats] == [None, "click", None, None]
    assert [s["bang_cards"] for s in seats] == [3, 3, 3, 3]
