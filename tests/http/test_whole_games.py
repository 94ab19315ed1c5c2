"""Whole 12 Gangsters games over HTTP. The test scores every game itself, from the cards it chose, and checks
that the service agrees: scores, ranks, winners, tie-break, versions and status."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

import pytest

from tests.client import ApiClient, Table, assert_problem

PLAYED = "twelve_gangsters.gangster_played"
REVEALED = "twelve_gangsters.round_revealed"
PASSED = "twelve_gangsters.boss_passed"


@dataclass
class Expected:
    """The final tally as the rules (RULINGS.md) give it, computed here without the service."""

    scores: list[int]
    heists: list[int]
    succeeded: list[list[int]]
    ranks: list[int]
    winners: list[int]
    tie_break: str | None


def bosses(players: int, first_boss: int, rounds: int) -> list[int]:
    """The Boss of each round: the first Boss, then clockwise."""
    return [(first_boss + r) % players for r in range(rounds)]


def expected_tally(players: int, first_boss: int, rounds: list[list[int]]) -> Expected:
    """Below the Boss's gangster succeeds, above is stopped; equal succeeds and stops the Boss's."""
    succeeded: list[list[int]] = [[] for _ in range(players)]
    for boss, plays in zip(bosses(players, first_boss, len(rounds)), rounds, strict=True):
        bar = plays[boss]
        boss_stopped = any(card == bar for seat, card in enumerate(plays) if seat != boss)
        for seat, card in enumerate(plays):
            if (seat == boss and not boss_stopped) or (seat != boss and card <= bar):
                succeeded[seat].append(card)
    scores = [sum(pile) for pile in succeeded]
    heists = [len(pile) for pile in succeeded]
    keys = list(zip(scores, heists, strict=True))
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    top = [seat for seat in range(players) if scores[seat] == max(scores)]
    broken = len(top) > 1 and len({heists[seat] for seat in top}) > 1
    return Expected(
        scores=scores,
        heists=heists,
        succeeded=succeeded,
        ranks=ranks,
        winners=[seat for seat in range(players) if ranks[seat] == 1],
        tie_break="successful_heists" if broken else None,
    )


def seeded_rounds(players: int, first_boss: int, rounds: int, rng: random.Random) -> list[list[int]]:
    """Each seat's card per round: random from its hand, often matching the Boss's card to reach the ties."""
    hands = [list(range(1, rounds + 1)) for _ in range(players)]
    chosen: list[list[int]] = []
    for boss in bosses(players, first_boss, rounds):
        plays = [0] * players
        plays[boss] = rng.choice(hands[boss])
        for seat in range(players):
            if seat != boss:
                match = plays[boss] in hands[seat] and rng.random() < 0.3
                plays[seat] = plays[boss] if match else rng.choice(hands[seat])
        for seat, card in enumerate(plays):
            hands[seat].remove(card)
        chosen.append(plays)
    return chosen


def play_round(api: ApiClient, table: Table, plays: list[int], order: list[int], version: int, last: bool) -> int:
    """Every seat plays its card, in the given order; each answer has the version the event count says."""
    for position, seat in enumerate(order):
        response = api.play(table, seat, plays[seat])
        assert response.status_code == 200, response.json
        closing = position == len(order) - 1
        types = [e["type"] for e in response.json["events"]]
        if not closing:
            assert types == [PLAYED]
        elif last:
            assert types == [PLAYED, REVEALED]
        else:
            assert types == [PLAYED, REVEALED, PASSED]
        version += len(types)
        assert response.json["version"] == version
        assert response.headers["ETag"] == f'"{version}-{seat}"'  # the mover's own view
        assert response.json["game"]["status"] == ("finished" if closing and last else "in_progress")
    return version


@pytest.mark.parametrize(("players", "first_boss"), [(3, 2), (4, 0), (5, 3), (6, 5)])
def test_a_whole_game_scores_every_seat_as_the_rules_say(api: ApiClient, players: int, first_boss: int) -> None:
    rng = random.Random(1000 + players)
    seats = [{"name": f"P{i}"} for i in range(players - 1)] + [{"open": True}]
    table = api.create(seats=seats, options={"first_boss": first_boss}, seed=players)
    assert (table.body["status"], table.body["version"]) == ("waiting", 1)
    assert_problem(api.result(table), 409, "game_not_finished")

    joined = api.join(table, "Latecomer", accept_public_randomness=True)  # the test chose the seed
    assert joined.status_code == 201
    assert joined.json["seat"] == players - 1
    assert (joined.json["game"]["status"], joined.json["game"]["version"]) == ("in_progress", 4)

    rounds = 10 if players == 5 else 12
    start = api.game(table, 0)
    assert start["state"]["rounds"] == rounds
    assert start["state"]["boss"] == first_boss
    assert start["you"]["hand"] == list(range(1, rounds + 1))
    assert [m["card"] for m in start["you"]["legal_moves"]] == list(range(1, rounds + 1))

    chosen = seeded_rounds(players, first_boss, rounds, rng)
    boss_matched = [
        any(card == plays[boss] for seat, card in enumerate(plays) if seat != boss)
        for boss, plays in zip(bosses(players, first_boss, rounds), chosen, strict=True)
    ]
    assert any(boss_matched) and not all(boss_matched), "the game should reach both sides of the equal ruling"
    version = 4
    for number, plays in enumerate(chosen, start=1):
        if number == rounds:
            assert_problem(api.result(table), 409, "game_not_finished")
        order = rng.sample(range(players), players)
        version = play_round(api, table, plays, order, version, last=number == rounds)
    assert version == 4 + rounds * (players + 2) - 1

    expected = expected_tally(players, first_boss, chosen)
    result = api.result(table)
    assert result.status_code == 200
    assert result.headers["ETag"] == f'"{version}"'
    assert result.json["version"] == version
    assert result.json["scores"] == expected.scores
    assert result.json["ranks"] == expected.ranks
    assert result.json["winners"] == expected.winners
    assert result.json["tie_break"] == expected.tie_break
    assert result.json["tie_breakers"] == ["successful_heists"]

    final = api.game(table)
    assert (final["status"], final["version"]) == ("finished", version)
    assert final["awaiting"] == []
    for seat, public in enumerate(final["state"]["seats"]):
        assert public["score"] == expected.scores[seat]
        assert sorted(public["succeeded"]) == sorted(expected.succeeded[seat])
        assert public["hand"] == []

    revealed = [e["payload"] for e in api.events(table) if e["type"] == REVEALED]
    assert [r["plays"] for r in revealed] == chosen
    assert [r["boss"] for r in revealed] == bosses(players, first_boss, rounds)
    assert [r["round"] for r in revealed] == list(range(1, rounds + 1))


def test_five_players_play_ten_rounds_with_gangsters_one_to_ten(api: ApiClient) -> None:
    table = api.create(players=5, options={"first_boss": 0})
    assert api.game(table, 0)["you"]["hand"] == list(range(1, 11))
    assert_problem(api.play(table, 0, 11), 409, "card_not_in_hand")
    assert_problem(api.play(table, 0, 12), 409, "card_not_in_hand")
    for card in range(1, 11):
        for seat in range(5):
            assert api.play(table, seat, card).status_code == 200
    revealed = [e for e in api.events(table) if e["type"] == REVEALED]
    assert len(revealed) == 10
    assert api.game(table)["status"] == "finished"
    # Everyone plays the same card each round: every seat but the Boss succeeds and the Boss is stopped.
    boss_cards = [[card for card in range(1, 11) if (card - 1) % 5 == seat] for seat in range(5)]
    assert api.result(table).json["scores"] == [55 - sum(cards) for cards in boss_cards]


# Schedules found by searching seeded strategies with `expected_tally`; rows are rounds, columns seats.
TIE_BROKEN_BY_HEISTS = [
    [12, 11, 3], [5, 12, 12], [2, 6, 11], [4, 1, 8], [10, 3, 2], [3, 5, 6],
    [9, 8, 7], [6, 4, 5], [8, 9, 10], [1, 10, 9], [11, 7, 1], [7, 2, 4],
]  # fmt: skip
SHARED_VICTORY = [
    [8, 2, 11], [11, 8, 9], [1, 5, 5], [5, 4, 2], [10, 12, 6], [9, 1, 1],
    [6, 11, 3], [2, 6, 4], [3, 9, 8], [12, 3, 7], [4, 10, 12], [7, 7, 10],
]  # fmt: skip


def play_schedule(api: ApiClient, schedule: list[list[int]], first_boss: int = 0) -> Table:
    table = api.create(players=len(schedule[0]), options={"first_boss": first_boss})
    for plays in schedule:
        for seat, card in enumerate(plays):
            assert api.play(table, seat, card).status_code == 200
    return table


def test_seats_tied_on_score_are_separated_by_successful_heists(api: ApiClient) -> None:
    expected = expected_tally(3, 0, TIE_BROKEN_BY_HEISTS)
    assert expected.scores == [44, 56, 56] and expected.heists == [8, 10, 9]
    result = api.result(play_schedule(api, TIE_BROKEN_BY_HEISTS)).json
    assert result["scores"] == [44, 56, 56]
    assert result["ranks"] == [3, 1, 2]
    assert result["winners"] == [1]
    assert result["tie_break"] == "successful_heists"


def test_seats_tied_on_score_and_heists_share_the_victory(api: ApiClient) -> None:
    expected = expected_tally(3, 0, SHARED_VICTORY)
    assert expected.scores == [58, 58, 40] and expected.heists == [10, 10, 7]
    result = api.result(play_schedule(api, SHARED_VICTORY)).json
    assert result["scores"] == [58, 58, 40]
    assert result["ranks"] == [1, 1, 3]
    assert result["winners"] == [0, 1]
    assert result["tie_break"] is None


def test_open_seats_are_filled_by_join_and_the_game_starts_when_the_last_is_taken(api: ApiClient) -> None:
    table = api.create(seats=[{"name": "Al"}, {"open": True}, {"open": True}], options={"first_boss": 1})
    assert table.body["status"] == "waiting"
    assert [s["open"] for s in table.body["seats"]] == [False, True, True]
    assert list(table.tokens) == [0]
    assert table.body["state"] is None and table.body["awaiting"] == []
    assert_problem(api.play(table, 0, 5), 409, "game_not_started")
    assert api.version(table) == 1

    first = api.join(table, "Bugsy")
    assert (first.status_code, first.json["seat"]) == (201, 1)
    assert first.headers["ETag"] == '"2-1"'
    assert first.json["game"]["status"] == "waiting"
    assert first.json["game"]["you"] == {"seat": 1, "legal_moves": []}
    assert_problem(api.play(table, 1, 5), 409, "game_not_started")

    second = api.join(table, "Capone")
    assert (second.status_code, second.json["seat"]) == (201, 2)
    started = second.json["game"]
    assert (started["status"], started["version"]) == ("in_progress", 5)
    assert started["state"]["boss"] == 1
    assert [s["name"] for s in started["seats"]] == ["Al", "Bugsy", "Capone"]
    assert not any(s["open"] for s in started["seats"])
    types = [e["type"] for e in api.events(table)]
    assert types == ["game_created", "seat_joined", "seat_joined", "game_started", "twelve_gangsters.boss_chosen"]

    assert_problem(api.join(table, "Dillinger"), 409, "game_already_started")
    assert api.version(table) == 5
    assert len({*table.tokens.values()}) == 3
    for seat in range(3):
        assert api.play(table, seat, 7).status_code == 200


def test_a_finished_game_is_public_down_to_every_card_and_the_seed(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0}, seed=4242)
    for card in range(1, 13):
        for seat in range(3):
            assert api.play(table, seat, 13 - card if seat == 1 else card).status_code == 200

    spectator = api.game(table)
    assert spectator["status"] == "finished"
    assert spectator["seed"] == 4242
    digest = hashlib.sha256(f"{spectator['seed']}:{spectator['salt']}".encode()).hexdigest()
    assert digest == spectator["seed_commitment"] == table.body["seed_commitment"]
    assert "seed" not in table.body and "salt" not in table.body
    for public in spectator["state"]["seats"]:
        assert public["hand"] == [] and public["chosen"] is None

    feed = api.events(table)
    assert feed == api.events(table, 0)
    assert [e["version"] for e in feed] == list(range(1, spectator["version"] + 1))
    created = feed[0]["payload"]
    assert (created["seed"], created["salt"]) == (4242, spectator["salt"])
    plays = [e for e in feed if e["type"] == PLAYED]
    assert len(plays) == 36
    cards = {(e["payload"]["seat"], e["payload"]["card"]) for e in plays}
    assert cards == {(seat, card) for seat in range(3) for card in range(1, 13)}
    for event in feed:
        if event["type"] == PLAYED:
            assert event["command"]["move"] == {"type": "play", "card": event["payload"]["card"]}
        if event["seat"] is not None:
            assert "command_id" in event

    seat_view = api.game(table, 2)
    assert seat_view["you"]["legal_moves"] == []
    assert {k: v for k, v in seat_view.items() if k != "you"} == spectator
    assert_problem(api.play(table, 0, 1), 409, "game_already_finished")
    assert api.version(table) == spectator["version"]


def test_the_same_seed_draws_the_same_first_boss(api: ApiClient) -> None:
    for seed in range(5):
        drawn = {api.create(players=6, seed=seed).body["state"]["boss"] for _ in range(2)}
        assert len(drawn) == 1, f"seed {seed} drew the Bosses {drawn}"
