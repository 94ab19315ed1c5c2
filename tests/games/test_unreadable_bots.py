"""Nobody who reads a bot's code can read its hidden choices off the table.

Anyone may read the bots' code and run it. So the predictor here has read it: at each hidden decision (a
12 Gangsters gangster; a Ca$h 'n Guns load, aim and courage; a Mobsters setup decision) it is given what the bot
was given, the seat's own view (strictly more than the table shows anyone else), computes the bot's own
distribution with generators of its own (`POLICIES`: the function each bot draws its move from), and guesses
the likeliest move. Over the decisions of self-played games, for each ruleset, bot kind and kind of decision
apart, and leaving out forced choices (a single legal move), it must be right at most 1.5 times as often as a
blind guess: the mean of 1/k over those decisions, k legal moves each. That holds of the guesses that came true,
and of their odds by the distribution the bot drew its move from (rebuilt with the bot's own generator), which
the luck of the draws does not move. The bound is on the mean, not on each decision: the bots' prices are set so
that the mean lands under 1.4 (`games.mixing`; measured on these games and on as many others), and no single
decision gives a move more than 0.9, nor 3 / k.

Mobsters' turns are played face up, but the way a phase goes could still tell what a hand lacks (a bot that
always plays every mobster it holds tells, by ending its recruit phase, that it holds none). The measure there
is a likelihood ratio, not a rate of right guesses: a rate depends on how often hands hold such a card, which is
the deal's doing, not the bot's; the ratio is the bot's alone and bounds any observer's inference, whatever it
believed before. For each phase of a smart bot's turn that starts with a card of a kind it could play (a
mobster in the recruit phase, a cost in the collection, a Law or an Escape Law card in the law phase, a hit or a
destroy in the hit phase, a crime in the crime phase), the phase is played on as the same bot would play it
without cards of that kind, and the chance of that course with the cards is compared with its chance without:
the ratio must stay at most 3, so that an observer who thought it even odds that the hand holds one is, after
the phase, at most 75% sure that it holds none (1.5 times the 50% chance of a blind yes/no guess).
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from games import mixing
from games import table as tables
from games.bots import Bot, bot_for, random_policy
from games.cash_n_guns import bots as cash_n_guns_bots
from games.hard import hard_policy
from games.mobsters import RULESET as MOBSTERS
from games.mobsters import bots as mobsters_bots
from games.mobsters.cards import CARDS, Kind
from games.registry import RULESETS
from games.search import Budget
from games.selfplay import generator, play_out
from games.table import bot_kinds
from games.twelve_gangsters import bots as twelve_gangsters_bots
from tests.games.helpers import apply, created, given

pytestmark = pytest.mark.timeout(600)  # each ruleset's games with a searching bot are played before its tests

Table = tables.Table[Any]
Policy = Callable[[dict[str, Any], random.Random], mixing.Mixed]

HARD = Budget(ms=None, iterations=30)
"""The `hard` bot's search in these games: a fixed number of iterations, so that its distribution can be computed
again (by the predictor, and to check the move played) and the games are the same on every machine."""

POLICIES: dict[str, dict[str, Policy]] = {
    ruleset_id: {**policies, **({"hard": hard_policy(RULESETS[ruleset_id], HARD)} if searched else {})}
    for ruleset_id, policies in {
        "twelve-gangsters": {"random": random_policy, "smart": twelve_gangsters_bots.smart_policy},
        "cash-n-guns": {"random": random_policy, "smart": cash_n_guns_bots.smart_policy},
        "mobsters": {"random": random_policy, "smart": mobsters_bots.smart_policy},
    }.items()
    for searched in [RULESETS[ruleset_id].determinize is not None]
}
"""Each bot kind's distribution, by ruleset: every kind a ruleset seats must be here to be measured (`hard` in
every ruleset that has `determinize`)."""

HIDDEN = {"twelve-gangsters": {"play"}, "cash-n-guns": {"load", "aim", "courage"}, "mobsters": {"setup"}}
"""The decisions whose choice nobody sees when it is made."""

TABLES = {
    "twelve-gangsters": [(["smart", "random", "smart"], 30), (["smart", "random", "random", "smart", "random"], 8)],
    "cash-n-guns": [
        (["smart", "random", "smart", "random"], 40),
        (["smart", "smart", "random", "random", "random"], 8),
    ],
}
"""The self-played games, as (seat kinds, games): one or two smart bots among random ones."""
HARD_TABLES = {
    "twelve-gangsters": [(["hard", "smart", "random"], 16), (["hard", "smart", "random", "smart", "random"], 8)],
    "cash-n-guns": [(["hard", "smart", "random", "random"], 40)],
}
"""The games a `hard` bot plays in, in a ruleset that has one."""

SETUPS = (["smart", "random", "smart", "random"], 400)
"""Mobsters games played through their setup only (its decisions are the hidden ones), as (seat kinds, games)."""
HARD_SETUPS = (["hard", "random", "smart", "random"], 400)

EDGE_CAP = 1.5
"""A predictor may guess a kind of hidden choice at most this many times as often as chance."""
MIN_DECISIONS = 150
"""Fewer decisions of a kind than this would say little."""


Decision = tuple[str, str, dict[str, Any], dict[str, Any], mixing.Mixed]
"""A bot kind, the decision's name, the seat's view, the move the bot made, and the distribution it drew it from."""


class Remembered:
    """A policy that answers a view and a generator's state met before as it did then, and leaves the generator
    as it did: a searching bot's move and the look at the distribution it drew it from cost one search, not two."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.met: dict[tuple[bytes, Any], tuple[mixing.Mixed, Any]] = {}

    def __call__(self, view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
        key = (msgspec.json.encode(view, order="sorted"), rng.getstate())
        found = self.met.pop(key, None)  # each is met twice: by the bot, then by the watch
        if found is None:
            found = self.met[key] = (self.policy(view, rng), rng.getstate())
        drawn, after = found
        rng.setstate(after)
        return drawn


@functools.cache
def hidden_decisions(ruleset_id: str, hard: bool) -> list[Decision]:
    """Every hidden decision the bots made in the self-played games of a ruleset: those of the games a `hard`
    bot plays in, or of the others."""
    ruleset = RULESETS[ruleset_id]
    found: list[Decision] = []
    policies: dict[str, Policy] = {kind: Remembered(policy) for kind, policy in POLICIES[ruleset_id].items()}
    policies["random"] = random_policy  # (the random bot draws its own way)
    bots: dict[str, Bot] = {kind: functools.partial(mixing.play, policy) for kind, policy in policies.items()}
    bots["random"] = bot_for(ruleset, "random")

    def watch(kinds: list[str], seed: int) -> Callable[[Table, int, dict[str, Any]], None]:
        def seen(table: Table, seat: int, body: dict[str, Any]) -> None:
            decision = ruleset.awaiting(table.rules)[seat]
            if decision in HIDDEN[ruleset_id]:
                view = tables.plain_view(ruleset, table, seat)
                rng = generator(seed, table.version, seat)  # the bot's own: its samples, then its draw
                drawn = policies[kinds[seat]](view, rng)
                assert kinds[seat] == "random" or mixing.draw(drawn, rng) == body
                found.append((kinds[seat], decision, view, body, drawn))

        return seen

    if hard and ruleset.determinize is None:
        return found
    if ruleset_id == "mobsters":
        for kinds, games in [HARD_SETUPS if hard else SETUPS]:
            for seed in range(games):
                setups(kinds, seed, [bots[kind] for kind in kinds], watch(kinds, seed))
    else:
        for kinds, games in HARD_TABLES[ruleset_id] if hard else TABLES[ruleset_id]:
            for seed in range(games):
                play_out(ruleset, kinds, seed, watch(kinds, seed), bots=[bots[kind] for kind in kinds])
    return found


def setups(kinds: list[str], seed: int, bots: list[Bot], watch: Callable[[Table, int, dict[str, Any]], None]) -> None:
    """A Mobsters game played by its bots until its first turn."""
    table = given(MOBSTERS, created(MOBSTERS, len(kinds), seed=seed))
    while table.rules.phase == "setup" and table.status is tables.Status.IN_PROGRESS:
        for seat in sorted(MOBSTERS.awaiting(table.rules)):
            rng = generator(seed, table.version, seat)
            body = bots[seat](tables.plain_view(MOBSTERS, table, seat), rng)
            watch(table, seat, body)
            table = apply(MOBSTERS, table, tables.play(MOBSTERS, table, seat, move_of(body)))


def move_of(body: dict[str, Any]) -> Any:
    move_type = MOBSTERS.move_type(body["type"])
    assert move_type is not None, body
    return msgspec.convert(body, move_type)


def predicted(policy: Policy, view: dict[str, Any], tries: int = 2) -> dict[str, Any]:
    """The predictor's guess: the likeliest move of the bot's distribution, averaged over generators of its own."""
    chance: dict[str, float] = defaultdict(float)
    moves: dict[str, dict[str, Any]] = {}
    for i in range(tries):
        for move, p in policy(view, random.Random(f"predictor:{i}")):
            key = msgspec.json.encode(move).decode()
            chance[key] += p
            moves[key] = move
    return moves[max(chance, key=chance.__getitem__)]


@pytest.fixture(scope="module", params=sorted(HIDDEN))
def decisions(request: pytest.FixtureRequest) -> tuple[str, list[Decision]]:
    return request.param, hidden_decisions(request.param, hard=False) + hidden_decisions(request.param, hard=True)


@pytest.fixture(scope="module", params=sorted(HIDDEN))
def smart_decisions(request: pytest.FixtureRequest) -> tuple[str, list[Decision]]:
    """The decisions of the games without a `hard` bot, which hold every smart bot's the next test reads."""
    return request.param, hidden_decisions(request.param, hard=False)


def test_no_predictor_guesses_a_hidden_choice_much_better_than_chance(decisions: tuple[str, list[Decision]]) -> None:
    ruleset_id, found = decisions
    assert set(POLICIES[ruleset_id]) == bot_kinds(RULESETS[ruleset_id])  # every bot kind is measured
    hits: dict[tuple[str, str], int] = defaultdict(int)
    expected: dict[tuple[str, str], float] = defaultdict(float)
    chance: dict[tuple[str, str], float] = defaultdict(float)
    count: dict[tuple[str, str], int] = defaultdict(int)
    for kind, decision, view, move, drawn in found:
        legal = view["you"]["legal_moves"]
        if len(legal) < 2:
            continue  # forced: nothing to guess
        key = (kind, decision)
        guess = predicted(POLICIES[ruleset_id][kind], view)
        hits[key] += guess == move
        expected[key] += chance_of(drawn, guess)
        chance[key] += 1 / len(legal)
        count[key] += 1

    report = f"{ruleset_id}: " + "; ".join(
        f"{kind} {decision}: {hits[key]} of {count[key]} right = {hits[key] / count[key]:.1%}, chance "
        f"{chance[key] / count[key]:.1%}: {hits[key] / chance[key]:.2f} x chance "
        f"(by the bot's odds, {expected[key] / chance[key]:.2f} x)"
        for key in sorted(count)
        for kind, decision in [key]
    )
    print(report)
    assert {kind for kind, _ in count} == set(POLICIES[ruleset_id]), report
    assert {decision for _, decision in count} == HIDDEN[ruleset_id], report
    assert all(n >= MIN_DECISIONS for n in count.values()), report
    assert all(hits[key] <= EDGE_CAP * chance[key] for key in count), report
    assert all(expected[key] <= EDGE_CAP * chance[key] for key in count), report


def test_every_hidden_choice_is_a_legal_mixed_choice_drawn_with_the_bots_generator(
    smart_decisions: tuple[str, list[Decision]],
) -> None:
    """Every candidate is legal and the chances add up to one; none is certain where there is a choice; the bot
    plays what its distribution draws with the generator it is handed, so two generators often differ."""
    ruleset_id, found = smart_decisions
    smart = [
        (view, move) for kind, _, view, move, _ in found if kind == "smart" and len(view["you"]["legal_moves"]) > 1
    ]
    bot = RULESETS[ruleset_id].bots["smart"]
    policy = POLICIES[ruleset_id]["smart"]
    differ = 0
    sample = [view for view, _ in smart[:: max(1, len(smart) // 100)]]
    for view in sample:
        choices = policy(view, random.Random(5))
        assert all(m in view["you"]["legal_moves"] for m, _ in choices)
        assert sum(p for _, p in choices) == pytest.approx(1.0)
        assert max(p for _, p in choices) < 1.0, choices
        generator = random.Random(9)
        assert bot(view, random.Random(9)) == mixing.draw(policy(view, generator), generator)
        differ += bot(view, random.Random(1)) != bot(view, random.Random(2))
    assert differ >= 0.3 * len(sample), f"{differ} of {len(sample)} choices differ"


# --- Mobsters: what a phase's course tells of the hand ----------------------------------------------------------


STAGES = mobsters_bots.STAGES
PHASES = mobsters_bots.PHASES
PHASE_GAMES = [(["smart", "random"], 16), (["smart", "random", "smart"], 8)]
"""Mobsters games played whole, as (seat kinds, games)."""
MIN_PHASES = 10
"""Fewer phases of a kind than this would say little."""
MAX_RATIO = 3.0
"""An observer's odds that the hand holds none may grow at most this much: 50% becomes at most 75%."""


def plays_a(view: dict[str, Any], kinds: frozenset[Kind]) -> bool:
    """Whether one of the seat's legal moves plays a card of these kinds from its hand."""
    return any(card_played(view, move) in cards_of(view, kinds) for move in view["you"]["legal_moves"])


def without(view: dict[str, Any], kinds: frozenset[Kind]) -> dict[str, Any]:
    """The seat's view, had its hand held no card of these kinds."""
    gone = cards_of(view, kinds)
    you = view["you"]
    hand = [c for c in you["hand"] if c not in gone]
    legal = [m for m in you["legal_moves"] if card_played(view, m) not in gone]
    return {**view, "you": {**you, "hand": hand, "legal_moves": legal}}


def cards_of(view: dict[str, Any], kinds: frozenset[Kind]) -> set[str]:
    return {c for c in view["you"]["hand"] if CARDS[c].kind in kinds}


def card_played(view: dict[str, Any], move: dict[str, Any]) -> str | None:
    """The card from hand a move plays, if any."""
    card = move.get("card") or move.get("operation")
    return card if card in view["you"]["hand"] else None


def phase_ratio(table: Table, seat: int, kinds: frozenset[Kind], rng: random.Random) -> float:
    """The phase played on from here as the smart bot would play it without cards of this kind: how many times
    likelier that course is without them than with them."""
    policy = POLICIES["mobsters"]["smart"]
    phase, turn = table.rules.phase, table.rules.turn
    ratio = 1.0
    while (
        table.status is tables.Status.IN_PROGRESS
        and (table.rules.phase, table.rules.turn) == (phase, turn)
        and MOBSTERS.awaiting(table.rules).get(seat) == phase
    ):
        view = tables.plain_view(MOBSTERS, table, seat)
        unheld = policy(without(view, kinds), rng)
        move = mixing.draw(unheld, rng)
        chance_with = chance_of(policy(view, rng), move)
        if chance_with == 0:
            return float("inf")
        ratio *= chance_of(unheld, move) / chance_with
        table = apply(MOBSTERS, table, tables.play(MOBSTERS, table, seat, move_of(move)))
    return ratio


def chance_of(choices: mixing.Mixed, move: dict[str, Any]) -> float:
    return sum(p for m, p in choices if m == move)


def phase_starts(kinds: list[str], seed: int) -> list[tuple[Table, int]]:
    """Each table of a self-played Mobsters game where a smart seat makes its first move of a phase of its turn."""
    starts: list[tuple[Table, int]] = []
    begun: set[tuple[int, int, str]] = set()

    def watch(table: Table, seat: int, body: dict[str, Any]) -> None:
        phase = table.rules.phase
        if kinds[seat] == "smart" and phase in STAGES and (seat, table.rules.turn, phase) not in begun:
            begun.add((seat, table.rules.turn, phase))
            starts.append((table, seat))

    play_out(MOBSTERS, kinds, seed, watch)
    return starts


def test_no_phase_of_a_mobsters_turn_tells_much_of_what_the_hand_lacks() -> None:
    starts = [start for kinds, games in PHASE_GAMES for seed in range(games) for start in phase_starts(kinds, seed)]
    ratios: dict[tuple[str, frozenset[Kind]], list[float]] = defaultdict(list)
    rng = random.Random(3)
    for table, seat in starts:
        view = tables.plain_view(MOBSTERS, table, seat)
        for kinds in STAGES[table.rules.phase]:
            if plays_a(view, kinds):
                ratios[(table.rules.phase, kinds)].append(phase_ratio(table, seat, kinds, rng))

    report = "; ".join(
        f"{phase} phase, {' or '.join(sorted(kinds))} in hand: {len(found)} phases, likelihood ratio "
        f"mean {sum(found) / len(found):.2f}, max {max(found):.2f}"
        for (phase, kinds), found in sorted(ratios.items(), key=lambda item: PHASES.index(item[0][0]))
    )
    assert {(phase, kinds) for phase, stages in STAGES.items() for kinds in stages} == set(ratios), report
    assert all(len(found) >= MIN_PHASES for found in ratios.values()), report
    assert all(max(found) <= MAX_RATIO for found in ratios.values()), report
