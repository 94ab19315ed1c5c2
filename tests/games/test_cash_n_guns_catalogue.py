"""Ca$h 'n Guns' catalogue against the rules: every loot card a deal holds, worth what the tally scores; the
painting scale and the diamond bonus as scored; bullets, clips and first-aid kits as the rules play them."""

from __future__ import annotations

from typing import Any

import msgspec

from games.cash_n_guns import RULESET
from games.cash_n_guns import events as ev
from games.cash_n_guns.evolve import evolve
from games.cash_n_guns.loot import tally
from games.cash_n_guns.moves import Load
from games.cash_n_guns.rules import shots
from games.cash_n_guns.state import Phase, State, initial_state
from tests.games.helpers import created

CARDS = {card["id"]: card for card in msgspec.to_builtins(RULESET.catalogue.cards)}
CONSTANTS = {name: constant.value for name, constant in RULESET.catalogue.constants.items()}
LOOT = {card: entry for card, entry in CARDS.items() if entry["kind"] not in ("bullet", "token")}


def score(*loots: list[str]) -> list[int]:
    """What the tally scores each of several living seats."""
    return list(tally(loots, [True] * len(loots), [0] * len(loots), "eighth_turn").scores)


def test_every_loot_card_of_a_deal_is_in_the_catalogue_and_nothing_else() -> None:
    for seed in range(3):
        dealt = next(e for e in created(RULESET, 4, seed=seed) if isinstance(e, ev.LootDealt))
        cards = [card for pile in dealt.piles for card in pile]
        assert sorted(cards) == sorted(LOOT)


def test_a_banknote_or_diamond_scores_its_value_and_the_rest_score_nothing_alone() -> None:
    for card, entry in LOOT.items():
        rival = [card] if entry["kind"] == "diamond" else []  # a diamond each: nobody gets the bonus
        alone = CONSTANTS["painting_values"][1] if entry["kind"] == "painting" else entry["value"]
        assert score([card], rival)[0] == alone, card
        assert entry["value"] == (alone if entry["kind"] in ("cash", "diamond") else 0), card


def test_paintings_score_together_by_the_catalogues_scale() -> None:
    paintings = [card for card, entry in LOOT.items() if entry["kind"] == "painting"]
    scale = CONSTANTS["painting_values"]

    assert len(scale) == len(paintings) + 1
    for count, worth in enumerate(scale):
        assert score(paintings[:count], [])[0] == worth


def test_strictly_the_most_diamond_cards_earns_the_catalogues_bonus() -> None:
    diamonds = sorted((c for c, e in LOOT.items() if e["kind"] == "diamond"), key=lambda c: LOOT[c]["value"])
    small, big = diamonds[0], diamonds[-1]

    assert score([small, diamonds[1]], [big]) == [
        LOOT[small]["value"] + LOOT[diamonds[1]]["value"] + CONSTANTS["diamond_bonus"],
        LOOT[big]["value"],
    ]


def test_bullet_cards_are_what_a_seat_holds_and_may_load() -> None:
    bullets = {card: entry for card, entry in CARDS.items() if entry["kind"] == "bullet"}
    state = initial_state(4, {})
    loading = msgspec.structs.replace(state, phase=Phase.LOAD, turn=1)

    assert (state.gangsters[0].bangs, state.gangsters[0].clicks) == (
        bullets["bang"]["per_seat"],
        bullets["click"]["per_seat"],
    )
    assert {m.card for m in RULESET.legal_moves(loading, 0) if isinstance(m, Load)} == set(bullets)


def fired(bullet: str) -> int:
    """The wounds seat 1 takes when seat 0 fires this card at it, both standing."""
    state = initial_state(4, {})
    gangsters = list(state.gangsters)
    gangsters[0] = msgspec.structs.replace(gangsters[0], loaded=bullet, target=1, stand=True)
    gangsters[1] = msgspec.structs.replace(gangsters[1], loaded="click", target=0, stand=True)
    return shots(msgspec.structs.replace(state, gangsters=tuple(gangsters), turn=1)).hits[1]


def test_a_fired_bullet_deals_the_catalogues_wounds() -> None:
    assert fired("bang") == CARDS["bang"]["wounds"] == 1
    assert fired("click") == CARDS["click"]["wounds"] == 0


def taken(card: str, wounds: int) -> Any:
    """Seat 0, with `wounds`, after taking this card from the table."""
    state = initial_state(4, {})
    gangsters = (msgspec.structs.replace(state.gangsters[0], wounds=wounds), *state.gangsters[1:])
    state: State = msgspec.structs.replace(state, gangsters=gangsters, table_loot=(card,), phase=Phase.SHARING)
    return evolve(state, ev.LootTaken(seat=0, card=card)).gangsters[0]


def test_clips_and_first_aid_kits_act_as_the_catalogue_says() -> None:
    for card, entry in LOOT.items():
        after = taken(card, wounds=2)
        assert after.bangs == 3 + entry.get("bangs", 0), card
        assert after.wounds == 2 - entry.get("heals", 0), card
    assert {e["kind"] for e in LOOT.values() if "bangs" in e} == {"clip"}
    assert {e["kind"] for e in LOOT.values() if "heals" in e} == {"first-aid"}


def test_the_new_godfather_token_is_listed_under_the_name_the_take_move_uses() -> None:
    take = next(m for m in RULESET.moves if m.__struct_config__.tag == "take")

    assert CARDS["godfather_token"]["kind"] == "token"
    assert "godfather_token" in take.__struct_fields__
