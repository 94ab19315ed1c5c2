"""`benchmarks.hard_bot` seats one `hard` bot against seats of another kind, its seat turning round the table."""

from __future__ import annotations

from benchmarks.hard_bot import seat_kinds
from games import table as tables
from games.registry import RULESETS
from games.selfplay import play_out


def test_the_hard_seat_turns_round_the_table() -> None:
    assert [seat_kinds("smart", 3, game) for game in range(4)] == [
        ["hard", "smart", "smart"],
        ["smart", "hard", "smart"],
        ["smart", "smart", "hard"],
        ["hard", "smart", "smart"],
    ]


def test_pimc_seats_are_not_shown_as_the_house_random_bot_unless_asked() -> None:
    """The hard seat expects a seat the table shows held by the random bot to play at random: PIMC sits under its
    own name, as in the arena, unless `--pimc-as-random` asks for the former seating."""
    ruleset = RULESETS["twelve-gangsters"]
    assert seat_kinds("pimc", 3, 1) == ["pimc", "hard", "pimc"]
    assert seat_kinds("pimc", 3, 1, pimc_as_random=True) == ["random", "hard", "random"]
    shown: list[dict[str, object]] = []
    kinds = ["random", "pimc", "smart"]
    play_out(ruleset, kinds, 1, lambda table, seat, body: shown.extend(tables.plain_view(ruleset, table, 0)["seats"]))
    bots = {seat["seat"]: seat.get("bot") for seat in shown}
    assert bots[0] == "random" and bots[1] != "random" and bots[2] == "smart"


def test_a_lone_seat_of_the_other_kind_turns_round_the_table_among_hard_seats() -> None:
    assert [seat_kinds("pimc", 4, game, lone=True) for game in range(5)] == [
        ["pimc", "hard", "hard", "hard"],
        ["hard", "pimc", "hard", "hard"],
        ["hard", "hard", "pimc", "hard"],
        ["hard", "hard", "hard", "pimc"],
        ["pimc", "hard", "hard", "hard"],
    ]
