"""How strong the house bots are: `syndicate arena` tables of every bot kind of each ruleset that has a
`determinize` (the rulesets a searching bot plays), and the README's table of what they found.

    .venv/bin/python -m benchmarks.bots [--games 60] [--jobs 2] [--seed 0] [--pimc twelve-gangsters] [ruleset ...]

Each ruleset is played at the seat counts `SEATS` names (else its fewest), `LONGER` times as many games where they
are short, each table seating the kinds
`lineup` chooses: the house's searching bot, the game's own, the random bot and `pimc`, the baseline a search
must beat, as many as there are seats (pimc left out first), the rest of the seats filled again in that order.
Knobs for longer runs, from the environment: BENCH_BOTS_GAMES (games a table), BENCH_BOTS_JOBS (processes),
BENCH_BOTS_PIMC (the rulesets pimc sits in, comma-separated, or `all`): its 400 playouts a decision cost
seconds in the longer games, so by default it sits only where a table of it ends in a minute or two.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from itertools import cycle, islice

from benchmarks.common import env_int, git_commit, machine, say_command
from games.registry import RULESETS
from games.selfplay import contenders, rotations
from service.ops import arena

SEATS = {"twelve-gangsters": (3, 5), "cash-n-guns": (4,), "mobsters": (2, 3)}
"""The seat counts each ruleset's tables are played at (a ruleset not named: its fewest)."""

LONGER = {"twelve-gangsters": 2.5}
"""Games a table, times `--games`, where a game is short: a 12 Gangsters table of 60 games takes under a minute, and
at five seats sixty leave each kind's rating about as uncertain as the gaps between them (150: 2 minutes)."""

PIMC_AFFORDABLE = ("twelve-gangsters",)
"""Where pimc sits by default. Measured: a 12 Gangsters game with one pimc seat takes about a second; a full
random playout takes 0.6 ms there, 8 ms in 4-seat Ca$h 'n Guns and 26 to 33 ms in Mobsters, so its 400 playouts
a decision would take hours a table there."""

ORDER = ("hard", "random", "pimc")
"""The kinds in the order a table takes them when it has fewer seats than kinds: the house's searching bot, then
(between it and random) the game's own, then random, then pimc."""


def kinds(ruleset_id: str, pimc: Sequence[str]) -> list[str]:
    """The kinds a table of this ruleset seats, in the order it takes them."""
    found = [k for k in contenders(RULESETS[ruleset_id]) if k != "pimc" or ruleset_id in pimc or "all" in pimc]
    own = sorted(k for k in found if k not in ORDER)
    return [k for k in ("hard", *own, "random", "pimc") if k in found]


def lineup(ruleset_id: str, seats: int, pimc: Sequence[str]) -> list[str]:
    """A kind for each seat: the first `seats` kinds, or every kind and then again from the first."""
    return list(islice(cycle(kinds(ruleset_id, pimc)), seats))


def main(argv: list[str] | None = None) -> list[arena.Arena]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bots", description=__doc__.split("\n")[0])
    parser.add_argument("rulesets", nargs="*", help="rulesets to play (default: every one with a determinize)")
    parser.add_argument("--games", type=int, default=env_int("BENCH_BOTS_GAMES", 60), help="games a table")
    parser.add_argument("--jobs", type=int, default=env_int("BENCH_BOTS_JOBS", os.cpu_count() or 1))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pimc", default=os.environ.get("BENCH_BOTS_PIMC", ",".join(PIMC_AFFORDABLE)))
    args = parser.parse_args(argv)
    searched = [r.id for r in RULESETS.values() if r.determinize is not None]
    chosen = args.rulesets or searched
    pimc = args.pimc.split(",")
    print("== How strong the house bots are (arena tables, the kinds rotating round the seats)", flush=True)
    say_command("benchmarks.bots", [*chosen, "--games", str(args.games), "--jobs", str(args.jobs), "--pimc", args.pimc])
    print(machine(), flush=True)
    started = time.monotonic()
    found = []
    for ruleset_id in chosen:
        ruleset = RULESETS[ruleset_id]
        for seats in SEATS.get(ruleset_id, (ruleset.min_seats,)):
            table = lineup(ruleset_id, seats, pimc)
            games = rotations(round(args.games * LONGER.get(ruleset_id, 1)), seats)
            command = f"syndicate arena --ruleset {ruleset_id} --games {games} --seats {','.join(table)}"
            command += f" --seed {args.seed} --jobs {args.jobs}"
            played = arena.run(ruleset_id, table, games, args.seed, args.jobs)
            print("\n".join(["", *arena.lines(played, command)]), flush=True)
            found.append(played)
    print("")
    print(f"The README's table (commit {git_commit()}, {time.monotonic() - started:.0f} s):")
    print("\n".join(readme_table(found)))
    return found


def readme_table(found: Sequence[arena.Arena]) -> list[str]:
    """What the arena tables found, as the README's table: a row a kind a table, strongest first by rating."""
    rows = [
        "| ruleset | seats | games | kind (seats) | win rate (95%) | x fair share (95%) | rating (mu, sigma) "
        "| decision mean / p99 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for played in found:
        seats = len(played.lineup)
        ranked = sorted(played.scores.values(), key=lambda s: -played.ratings[s.kind].ordinal)
        for s in ranked:
            ratio, low, high = s.vs_fair
            r = played.ratings[s.kind]
            times = "-" if s.mean_s is None or s.p99_s is None else f"{ms(s.mean_s)} / {ms(s.p99_s)}"
            kind = f"`{s.kind}` ({played.lineup.count(s.kind)})"
            rows.append(
                f"| `{played.ruleset}` | {seats} | {played.games} | {kind} | {s.win_rate:.1%} "
                f"({s.low:.1%} to {s.high:.1%}) | {ratio:.2f} ({low:.2f} to {high:.2f}) | "
                f"{r.ordinal:.1f} ({r.mu:.1f}, {r.sigma:.1f}) | {times} |"
            )
    return rows


def ms(seconds: float) -> str:
    """A decision time, in the unit that reads best."""
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.1f} s"


if __name__ == "__main__":
    main()
