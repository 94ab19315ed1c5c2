"""12 Gangsters, one test per rule or ruling: given events, when a seat plays, then events or an error code."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from games.base import EVERYONE, SPECTATOR, IllegalMoveError
from games.refusals import SetupError
from games.table import Status, Table, event_view, plain_view
from games.twelve_gangsters import RULESET
from games.twelve_gangsters.events import BossChosen, BossPassed, GangsterPlayed, RoundRevealed
from games.twelve_gangsters.moves import Play
from tests.games.helpers import created, given, refused, when

# --- helpers ---------------------------------------------------------------------------------------------


def new_game(seats: int = 3, first_boss: int | None = 0, *, seed: int = 7) -> Table[Any]:
    """A started game with bots in every seat and the Boss token on `first_boss` (None: drawn)."""
    options = {} if first_boss is None else {"first_boss": first_boss}
    return given(RULESET, created(RULESET, seats, options, seed=seed))


def play_round(table: Table[Any], cards: Sequence[int]) -> tuple[Table[Any], list[Any]]:
    """Every seat plays its card, seat 0 first; the table after the round and the round's events."""
    events: list[Any] = []
    for seat, card in enumerate(cards):
        table, new = when(RULESET, table, seat, Play(card=card))
        events += new
    return table, events


def play_rounds(table: Table[Any], rounds: Sequence[Sequence[int]]) -> tuple[Table[Any], list[Any]]:
    events: list[Any] = []
    for cards in rounds:
        table, new = play_round(table, cards)
        events += new
    return table, events


def whole_game(seats: int, first_boss: int = 0) -> tuple[Table[Any], list[Any]]:
    """Every seat plays its gangsters in increasing order, to the end."""
    rounds = 10 if seats == 5 else 12
    return play_rounds(new_game(seats, first_boss), [[card] * seats for card in range(1, rounds + 1)])


def revealed(cards: Sequence[int], first_boss: int = 0) -> RoundRevealed:
    """The reveal of a first round where seat i plays cards[i]."""
    _, events = play_round(new_game(len(cards), first_boss), cards)
    return next(e for e in events if isinstance(e, RoundRevealed))


def of_type(events: Sequence[Any], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def keys_anywhere(value: Any) -> set[str]:
    """Every dict key at any depth of a JSON-like value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_anywhere(v)}
    if isinstance(value, list | tuple):
        return {k for v in value for k in keys_anywhere(v)}
    return set()


def full_hand(seats: int) -> list[int]:
    return list(range(1, (10 if seats == 5 else 12) + 1))


# --- seats and setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_three_to_six_seats_start_a_game(seats: int) -> None:
    events = created(RULESET, seats, {"first_boss": 0})

    assert [e.type for e in events] == ["game_created", "game_started", "twelve_gangsters.boss_chosen"]
    table = given(RULESET, events)
    assert table.status is Status.IN_PROGRESS
    assert RULESET.awaiting(table.rules) == dict.fromkeys(range(seats), "play")


@pytest.mark.parametrize("seats", [2, 7])
def test_two_or_seven_seats_are_refused(seats: int) -> None:
    with pytest.raises(SetupError) as refusal:
        created(RULESET, seats)

    assert refusal.value.code == "invalid_seat_count"


def test_five_players_hold_gangsters_one_to_ten_and_play_ten_rounds() -> None:
    table = new_game(5)

    for seat in range(5):
        assert plain_view(RULESET, table, seat)["you"]["hand"] == list(range(1, 11))
    assert plain_view(RULESET, table, SPECTATOR)["state"]["rounds"] == 10
    assert refused(RULESET, table, 0, Play(card=11)) == "card_not_in_hand"
    assert refused(RULESET, table, 0, Play(card=12)) == "card_not_in_hand"
    finished, events = whole_game(5)
    assert [e.round for e in of_type(events, RoundRevealed)] == list(range(1, 11))
    assert finished.status is Status.FINISHED


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_other_player_counts_hold_gangsters_one_to_twelve_and_play_twelve_rounds(seats: int) -> None:
    table = new_game(seats)

    for seat in range(seats):
        assert plain_view(RULESET, table, seat)["you"]["hand"] == list(range(1, 13))
    assert plain_view(RULESET, table, SPECTATOR)["state"]["rounds"] == 12
    finished, events = whole_game(seats)
    assert [e.round for e in of_type(events, RoundRevealed)] == list(range(1, 13))
    assert finished.status is Status.FINISHED


@pytest.mark.parametrize("first_boss", [0, 2, 3])
def test_first_boss_option_gives_that_seat_the_boss_token(first_boss: int) -> None:
    events = created(RULESET, 4, {"first_boss": first_boss})

    assert events[-1] == BossChosen(seat=first_boss, drawn=False)
    assert revealed([5, 5, 5, 5], first_boss).boss == first_boss


@pytest.mark.parametrize(("seats", "first_boss"), [(3, 3), (3, -1), (6, 6), (4, 99)])
def test_first_boss_outside_the_seats_is_refused(seats: int, first_boss: int) -> None:
    with pytest.raises(SetupError) as refusal:
        created(RULESET, seats, {"first_boss": first_boss})

    assert refusal.value.code == "invalid_option"


@pytest.mark.parametrize("first_boss", ["1", 1.0, True])
def test_first_boss_that_is_not_an_integer_is_refused(first_boss: Any) -> None:
    with pytest.raises(SetupError) as refusal:
        created(RULESET, 3, {"first_boss": first_boss})

    assert refusal.value.code == "invalid_option"


def test_unknown_option_is_refused() -> None:
    with pytest.raises(SetupError) as refusal:
        created(RULESET, 3, {"first_godfather": 1})

    assert refusal.value.code == "invalid_option"


def test_unset_first_boss_is_drawn_and_recorded_as_drawn() -> None:
    events = created(RULESET, 4, seed=12345)

    chosen = events[-1]
    assert isinstance(chosen, BossChosen)
    assert chosen.drawn is True
    assert 0 <= chosen.seat < 4
    assert given(RULESET, events).rules.boss == chosen.seat


def test_same_seed_draws_the_same_first_boss() -> None:
    for seed in range(20):
        assert created(RULESET, 6, seed=seed)[-1] == created(RULESET, 6, seed=seed)[-1]


def test_different_seeds_eventually_draw_every_seat_as_first_boss() -> None:
    drawn = {created(RULESET, 4, seed=seed)[-1].seat for seed in range(60)}

    assert drawn == {0, 1, 2, 3}


def test_a_drawn_first_boss_is_replayed_from_its_event_not_redrawn() -> None:
    events = created(RULESET, 5, seed=3)
    chosen = events[-1]
    assert isinstance(chosen, BossChosen)
    other = (chosen.seat + 1) % 5

    table = given(RULESET, [*events[:-1], BossChosen(seat=other, drawn=True)])

    assert table.rules.boss == other


# --- a round: face down, then revealed together ------------------------------------------------------------


@pytest.mark.parametrize("last", [0, 1, 2])
def test_round_is_revealed_only_when_every_seat_including_the_boss_has_chosen(last: int) -> None:
    table = new_game(3, first_boss=0)
    cards = {0: 6, 1: 4, 2: 9}

    for seat in (s for s in range(3) if s != last):
        table, events = when(RULESET, table, seat, Play(card=cards[seat]))
        assert events == [GangsterPlayed(seat=seat, card=cards[seat])]
    assert table.rules.round == 1
    assert plain_view(RULESET, table, SPECTATOR)["state"]["last_round"] is None
    _, events = when(RULESET, table, last, Play(card=cards[last]))

    assert events == [
        GangsterPlayed(seat=last, card=cards[last]),
        RoundRevealed(round=1, boss=0, plays=(6, 4, 9), succeeded=(0, 1), stopped=(2,)),
        BossPassed(seat=1),
    ]


def test_gangsters_below_the_boss_succeed_and_so_does_the_boss() -> None:
    assert revealed([8, 3, 5, 7]) == RoundRevealed(
        round=1, boss=0, plays=(8, 3, 5, 7), succeeded=(0, 1, 2, 3), stopped=()
    )


def test_gangsters_above_the_boss_are_stopped() -> None:
    assert revealed([8, 9, 12, 3]) == RoundRevealed(
        round=1, boss=0, plays=(8, 9, 12, 3), succeeded=(0, 3), stopped=(1, 2)
    )


def test_tie_with_boss_stops_the_boss() -> None:
    assert revealed([8, 8, 3, 12]) == RoundRevealed(
        round=1, boss=0, plays=(8, 8, 3, 12), succeeded=(1, 2), stopped=(0, 3)
    )


def test_several_seats_tied_with_the_boss_all_succeed_and_the_boss_is_stopped() -> None:
    assert revealed([8, 8, 8, 2]) == RoundRevealed(
        round=1, boss=0, plays=(8, 8, 8, 2), succeeded=(1, 2, 3), stopped=(0,)
    )


def test_boss_succeeds_alone_when_everyone_else_is_above() -> None:
    assert revealed([2, 5, 7, 12]) == RoundRevealed(
        round=1, boss=0, plays=(2, 5, 7, 12), succeeded=(0,), stopped=(1, 2, 3)
    )


def test_boss_succeeds_when_everyone_else_is_below() -> None:
    assert revealed([12, 1, 11, 6]) == RoundRevealed(
        round=1, boss=0, plays=(12, 1, 11, 6), succeeded=(0, 1, 2, 3), stopped=()
    )


def test_gangsters_are_compared_with_the_boss_seat_not_with_seat_zero() -> None:
    assert revealed([8, 12, 8, 1], first_boss=2) == RoundRevealed(
        round=1, boss=2, plays=(8, 12, 8, 1), succeeded=(0, 3), stopped=(1, 2)
    )


def test_revealed_gangsters_go_face_up_or_face_down_in_front_of_their_seat() -> None:
    table, _ = play_round(new_game(4, first_boss=0), [8, 8, 3, 12])

    seats = plain_view(RULESET, table, SPECTATOR)["state"]["seats"]
    assert [(s["succeeded"], s["stopped"]) for s in seats] == [([], [8]), ([8], []), ([3], []), ([], [12])]


def test_everyone_sees_the_latest_revealed_round_and_the_round_to_play() -> None:
    table, _ = play_rounds(new_game(3, first_boss=0), [[6, 4, 9], [1, 12, 3]])

    state = plain_view(RULESET, table, SPECTATOR)["state"]
    assert state["last_round"] == msgspec.to_builtins(
        RoundRevealed(round=2, boss=1, plays=(1, 12, 3), succeeded=(0, 1, 2), stopped=())
    )
    assert state["round"] == 3


# --- the Boss token ------------------------------------------------------------------------------------------


def test_boss_passes_clockwise_after_each_round() -> None:
    table = new_game(4, first_boss=1)

    table, events = play_round(table, [1, 1, 1, 1])
    assert events[-1] == BossPassed(seat=2)
    table, events = play_round(table, [2, 2, 2, 2])
    assert events[-1] == BossPassed(seat=3)
    assert [e.boss for e in of_type(events, RoundRevealed)] == [2]
    assert plain_view(RULESET, table, SPECTATOR)["state"]["boss"] == 3


def test_boss_token_wraps_from_the_last_seat_to_seat_zero() -> None:
    table, events = play_round(new_game(4, first_boss=3), [1, 1, 1, 1])

    assert events[-1] == BossPassed(seat=0)
    assert table.rules.boss == 0


@pytest.mark.parametrize("seats", [3, 5])
def test_no_boss_passed_after_the_final_round(seats: int) -> None:
    _, events = whole_game(seats, first_boss=1)

    rounds = 10 if seats == 5 else 12
    assert isinstance(events[-1], RoundRevealed)
    assert events[-1].round == rounds
    assert [e.seat for e in of_type(events, BossPassed)] == [(1 + r) % seats for r in range(1, rounds)]


# --- refused moves ---------------------------------------------------------------------------------------------


def test_choosing_twice_in_a_round_is_refused() -> None:
    table, _ = when(RULESET, new_game(3), 1, Play(card=4))

    assert refused(RULESET, table, 1, Play(card=4)) == "already_played"
    assert refused(RULESET, table, 1, Play(card=9)) == "already_played"


@pytest.mark.parametrize("card", [0, 13, -1, 100])
def test_a_gangster_never_dealt_is_refused(card: int) -> None:
    assert refused(RULESET, new_game(3), 0, Play(card=card)) == "card_not_in_hand"


def test_a_gangster_cannot_be_played_twice_across_rounds() -> None:
    table, _ = play_round(new_game(3), [5, 5, 7])

    assert refused(RULESET, table, 0, Play(card=5)) == "card_not_in_hand"
    assert refused(RULESET, table, 2, Play(card=7)) == "card_not_in_hand"
    table, _ = when(RULESET, table, 2, Play(card=5))
    assert table.rules.chosen[2] == 5


def test_moves_are_refused_while_seats_are_open() -> None:
    table = given(RULESET, created(RULESET, 3, {"first_boss": 0}, open_seats=1))

    assert refused(RULESET, table, 0, Play(card=5)) == "game_not_started"


def test_moves_are_refused_after_the_end() -> None:
    table, _ = whole_game(3)

    assert refused(RULESET, table, 0, Play(card=1)) == "game_already_finished"
    with pytest.raises(IllegalMoveError) as refusal:
        RULESET.decide(table.rules, 0, Play(card=1), random.Random(0))  # the rules refuse too
    assert refusal.value.code == "game_already_finished"


# --- scores and the end ------------------------------------------------------------------------------------------


def test_score_is_the_sum_of_face_up_gangsters() -> None:
    table, _ = play_rounds(new_game(3, first_boss=0), [[8, 3, 9], [4, 12, 2], [10, 6, 10]])
    # round 1 (Boss 0, B=8): 0 and 1 succeed, 2 stopped
    # round 2 (Boss 1, B=12): all succeed
    # round 3 (Boss 2, B=10): 0 ties and succeeds, the Boss is stopped, 1 succeeds

    scores = [s["score"] for s in plain_view(RULESET, table, SPECTATOR)["state"]["seats"]]
    assert scores == [8 + 4 + 10, 3 + 12 + 6, 2]


def test_stopped_gangsters_score_nothing_at_the_end() -> None:
    # Everyone plays the same gangster each round: only the Boss is stopped, and each seat is Boss 4 times.
    table, _ = play_rounds(new_game(3, first_boss=0), [[card] * 3 for card in range(1, 13)])

    result = RULESET.result(table.rules)
    assert result.scores == (78 - (1 + 4 + 7 + 10), 78 - (2 + 5 + 8 + 11), 78 - (3 + 6 + 9 + 12))
    assert result.winners == (0,)
    assert result.ranks == (1, 2, 3)
    assert result.tie_break is None


def test_rulebook_example_printed_as_36_scores_38() -> None:
    # Seats 1 and 2 play alike; seat 0 is Boss in rounds 1, 4, 7 and 10 and is stopped each time.
    rounds = [
        [1, 1, 1],  # Boss 0 tied: stopped
        [2, 4, 4],  # Boss 1: 2 < 4, face up
        [5, 5, 5],  # Boss 2: 5 = 5, face up
        [3, 3, 3],  # Boss 0 tied: stopped
        [4, 6, 6],  # face up
        [6, 9, 9],  # face up
        [7, 7, 7],  # Boss 0 tied: stopped
        [10, 10, 10],  # face up
        [11, 12, 12],  # face up
        [8, 8, 8],  # Boss 0 tied: stopped
        [12, 11, 11],  # 12 > 11: stopped
        [9, 2, 2],  # 9 > 2: stopped
    ]
    table, _ = play_rounds(new_game(3, first_boss=0), rounds)

    seat = plain_view(RULESET, table, SPECTATOR)["state"]["seats"][0]
    assert seat["succeeded"] == [2, 5, 4, 6, 10, 11]
    assert seat["score"] == 38
    assert RULESET.result(table.rules).scores[0] == 38


def test_the_result_details_each_seats_succeeded_and_stopped_gangsters_in_the_order_played() -> None:
    rounds = [
        [8, 4, 10],  # Boss 0: 0 and 1 succeed, 2 stopped
        [3, 12, 6],  # Boss 1: all succeed
        [9, 1, 9],  # Boss 2 matched by 0: 0 and 1 succeed, the Boss stopped
    ]
    held = [sorted(set(range(1, 13)) - {played[seat] for played in rounds}) for seat in range(3)]
    rounds += [list(cards) for cards in zip(*held, strict=True)]
    table, _ = play_rounds(new_game(3, first_boss=0), rounds)

    result = RULESET.result(table.rules)
    seats = result.details["seats"]
    assert [seat["seat"] for seat in seats] == [0, 1, 2]
    assert seats[0]["succeeded"][:3] == [8, 3, 9]
    assert seats[2]["stopped"][:2] == [10, 9]
    assert seats[2]["succeeded"][:1] == [6]
    for seat in seats:
        assert sum(seat["succeeded"]) == result.scores[seat["seat"]]
        assert sorted(seat["succeeded"] + seat["stopped"]) == list(range(1, 13))


def test_tie_on_score_is_broken_by_the_number_of_successful_heists() -> None:
    rounds = [
        [12, 1, 1],  # Boss 0 succeeds with 12, 1 and 2 succeed with 1
        [1, 12, 12],  # Boss 1 stopped by seat 2; seat 0 succeeds with 1
        *([card] * 3 for card in (5, 4, 2, 6, 9, 3, 8, 11, 7, 10)),  # only the Boss is stopped
    ]
    table, _ = play_rounds(new_game(3, first_boss=0), rounds)

    result = RULESET.result(table.rules)
    assert result.scores == (54, 54, 49)
    assert [len(pile) for pile in table.rules.succeeded] == [9, 8, 8]
    assert result.winners == (0,)
    assert result.ranks == (1, 2, 3)
    assert result.tie_break == "successful_heists"
    assert result.tie_breakers == ("successful_heists",)


def test_seats_tied_on_score_and_heists_share_the_victory() -> None:
    # Everyone plays alike, so each seat loses the four gangsters it plays as Boss: 26 each.
    cards = [1, 2, 3, 12, 11, 10, 6, 5, 4, 7, 8, 9]
    table, _ = play_rounds(new_game(3, first_boss=0), [[card] * 3 for card in cards])

    result = RULESET.result(table.rules)
    assert result.scores == (52, 52, 52)
    assert result.winners == (0, 1, 2)
    assert result.ranks == (1, 1, 1)
    assert result.tie_break is None


# --- what each viewer sees ------------------------------------------------------------------------------------


def test_a_chosen_gangster_is_hidden_from_other_seats_and_spectators() -> None:
    _, events = when(RULESET, new_game(3), 1, Play(card=7))
    played = events[0]

    for viewer in (0, 2, SPECTATOR):
        assert event_view(RULESET, played, viewer) == {"seat": 1}
        assert RULESET.event_view(played, viewer) == {"seat": 1}
    for viewer in (1, EVERYONE):
        assert event_view(RULESET, played, viewer) == {"seat": 1, "card": 7}


def test_a_revealed_round_shows_every_gangster_to_everyone() -> None:
    reveal = revealed([6, 4, 9])

    for viewer in (0, 1, 2, SPECTATOR, EVERYONE):
        assert list(event_view(RULESET, reveal, viewer)["plays"]) == [6, 4, 9]


def test_a_seat_sees_its_own_hand_and_choice_and_nobody_elses() -> None:
    table, _ = play_round(new_game(3), [6, 4, 9])
    table, _ = when(RULESET, table, 2, Play(card=11))

    mine = plain_view(RULESET, table, 2)
    assert mine["you"]["hand"] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]
    assert mine["you"]["chosen"] == 11
    assert plain_view(RULESET, table, 0)["you"] == {
        "seat": 0,
        "hand": [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12],
        "chosen": None,
        "legal_moves": [{"type": "play", "card": c} for c in [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]],
    }
    for viewer in (0, 1, 2):
        body = plain_view(RULESET, table, viewer)
        assert {"hand", "chosen"} & keys_anywhere({k: v for k, v in body.items() if k != "you"}) == set()
    assert {"you", "hand", "chosen"} & keys_anywhere(plain_view(RULESET, table, SPECTATOR)) == set()


def test_another_seats_choice_does_not_change_what_others_see() -> None:
    table = new_game(3)
    with_four, _ = when(RULESET, table, 2, Play(card=4))
    with_twelve, _ = when(RULESET, table, 2, Play(card=12))

    for viewer in (0, 1, SPECTATOR):
        assert plain_view(RULESET, with_four, viewer) == plain_view(RULESET, with_twelve, viewer)
    assert plain_view(RULESET, with_four, 2) != plain_view(RULESET, with_twelve, 2)


def test_everyone_sees_who_has_chosen_but_not_what() -> None:
    table, _ = when(RULESET, new_game(3), 1, Play(card=7))

    state = plain_view(RULESET, table, 0)["state"]
    assert [s["has_chosen"] for s in state["seats"]] == [False, True, False]
    assert plain_view(RULESET, table, 0)["awaiting"] == [
        {"seat": 0, "decision": "play", "simultaneous": True},
        {"seat": 2, "decision": "play", "simultaneous": True},
    ]


def test_everyone_view_shows_every_hand_and_choice() -> None:
    table, _ = when(RULESET, new_game(3), 1, Play(card=7))

    seats = plain_view(RULESET, table, EVERYONE)["state"]["seats"]
    assert [s["chosen"] for s in seats] == [None, 7, None]
    assert [s["hand"] for s in seats] == [list(range(1, 13))] * 3


# --- legal moves -------------------------------------------------------------------------------------------


def test_legal_moves_are_exactly_the_hand_before_choosing() -> None:
    table, _ = play_rounds(new_game(4), [[3, 3, 3, 3], [9, 1, 12, 5]])

    assert RULESET.legal_moves(table.rules, 0) == [Play(card=c) for c in full_hand(4) if c not in (3, 9)]
    assert RULESET.legal_moves(table.rules, 2) == [Play(card=c) for c in full_hand(4) if c not in (3, 12)]


def test_no_legal_moves_after_choosing() -> None:
    table, _ = when(RULESET, new_game(3), 1, Play(card=7))

    assert RULESET.legal_moves(table.rules, 1) == []
    assert len(RULESET.legal_moves(table.rules, 0)) == 12


def test_no_legal_moves_and_nobody_awaited_after_the_end() -> None:
    table, _ = whole_game(4)

    assert all(RULESET.legal_moves(table.rules, seat) == [] for seat in range(4))
    assert RULESET.awaiting(table.rules) == {}


@pytest.mark.parametrize("seats", [3, 5])
def test_legal_moves_agree_with_decide(seats: int) -> None:
    table, _ = play_round(new_game(seats), [seat + 1 for seat in range(seats)])
    table, _ = when(RULESET, table, 0, Play(card=10))

    for seat in range(seats):
        legal = RULESET.legal_moves(table.rules, seat)
        for card in range(0, 14):
            move = Play(card=card)
            if move in legal:
                assert when(RULESET, table, seat, move)[1][0] == GangsterPlayed(seat=seat, card=card)
            else:
                assert refused(RULESET, table, seat, move) in ("already_played", "card_not_in_hand")
