"""Search over any game's pure rules from one seat's view: what the `hard` bot and a game's review ask.

A seat never sees the true state, so each iteration draws one the view leaves possible (`Ruleset.determinize`)
and plays it out by the rules, with a generator of its own for the dice and shuffles `decide` draws. Every
iteration descends one tree, whose nodes are the moves made since the view (open loop: what chance and the hidden
parts did is not in the key, so the draws share their statistics), as Information Set MCTS does (Cowling, Powley
& Whitehouse 2012, single observer):

- A decision one seat makes in the open (a turn) is chosen by UCB1 over the moves legal in this draw, each counted
  only in the iterations that offered it (availability counts), so a move some draws forbid is not starved.
- A decision the ruleset lists in `simultaneous` is made by every awaited seat at once, each independently by
  regret matching over its own moves (decoupled simultaneous-move MCTS, Lanctot, Lisý & Winands 2014); the joint
  move is then played, and its child is the next node. Regret matching tends to the equilibrium mix where a best
  reply would be read and punished.

In a game with a `model` (its `Searching`), the search does not search the other seats' choices: at every node it
expects each to choose as the model would from that seat's own view of the state drawn (the house's `smart` bot: a
sensible player; a seat the table shows held by the house's random bot, at random), so the search answers the
choices likely at a table rather than every choice alike. Against seats that play well that is worth more than a
search of their choices within the budget can find (README: what `hard` wins).

At the root, every move of the searching seat is played out in each iteration against the same moves of the
others and the same luck (common random numbers), so its moves are compared on equal terms; a turn of more than
`COMPARED` moves is compared a window at a time, the model's own choices first. Below the tree a playout plays the
game out, every seat moving as the model would where the game has one, else at random: to the end, or, in a game
that can `evaluate` a state, up to its `Searching` horizon's decisions from the view, then evaluates it (moves
nobody has a choice of are played first). A game may instead say what stage of it a state is in (`Searching.stage`,
a Mobsters turn): the playouts then go on to the end of the stage in play, so that the root's moves are all judged
at the same point of the game, and an open root move is judged by those playouts alone (nothing below the root
changes it). Moves the playouts found alike go the model's way (`games.hard`). The reward is each seat's own: 1
for a win (a shared victory is a win for each winner), blended with its score's lead over the best other seat, so
that a playout says more than won or lost; where the game says a seat's place counts (`Searching.placed`, 12
Gangsters), blended instead with the share of its rivals it placed above (at the horizon: may expect to, by the
chances). Each seat maximizes its own. A decision that drew nothing from its
generator always leads to the same state, so the search keeps what it led to and meets it again for a look-up.

Nothing here is replayed from a log (a bot's move is recorded as the command it answered), so the search may read
the clock its `Budget` is given: it stops when that clock says the budget is spent, or after its iterations.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from games.base import Move, Ruleset

DEFAULT_BUDGET_MS = 50.0
"""A decision's time, unless the deployment says otherwise (`SYNDICATE_BOT_BUDGET_MS`)."""
EXPLORATION = 0.7
"""UCB1's exploration constant, for rewards between 0 and 1."""
GAMMA = 0.1
"""Regret matching's exploration: the share of each draw spread evenly over a seat's moves."""
EVERY_ROOT_MOVER = False
"""Whether every seat deciding at the root (not only this search's) compares all its moves each iteration: in 12
Gangsters that won no more against smart seats, at half the iterations."""
COMPARED = 24
"""The most moves of a turn the root plays out an iteration (a Mobsters hit may offer hundreds)."""
Expected = tuple[list[Move], list[float]]
"""How a model expects a seat to choose: its moves and each one's chance."""
STAGE_CAP = 60
"""The most decisions a staged search (`Searching.stage`) plays from the view before it evaluates all the same."""
LEAD_WEIGHT = 0.3
"""How much of the reward at a game's end is the seat's score lead (scaled to [0, 1]) rather than the win itself:
a random playout's win says little, its lead a little more."""


@dataclass(frozen=True)
class Budget:
    """How long one search may go on: `ms` of `clock` (seconds), or `iterations`, whichever ends first (None: no
    bound of that kind; one of them must be set). A test injects a clock, or bounds the iterations alone, so that
    a search is repeatable."""

    ms: float | None = DEFAULT_BUDGET_MS
    iterations: int | None = None
    clock: Callable[[], float] = field(default=time.perf_counter, compare=False)

    def __post_init__(self) -> None:
        if self.ms is None and self.iterations is None:
            raise ValueError("a search needs a bound: ms, iterations or both")


class Luck(random.Random):
    """A generator that tells whether anything was drawn from it since `drawn` was last cleared: a decision that
    drew nothing is the same whenever it is taken again, so the search may keep what it led to."""

    drawn = False

    def random(self) -> float:
        self.drawn = True
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.drawn = True
        return super().getrandbits(k)


class Stats:
    """One seat's choice at one node: per move, its visits, total reward, total wins, how often it was offered
    (`offered`, UCB1's availability count) and regret matching's cumulative regret."""

    __slots__ = ("offered", "regret", "rewards", "visits", "wins")

    def __init__(self) -> None:
        self.visits: dict[Move, int] = {}
        self.rewards: dict[Move, float] = {}
        self.wins: dict[Move, float] = {}
        self.offered: dict[Move, int] = {}
        self.regret: dict[Move, float] = {}

    def ucb(self, legal: Sequence[Move], rng: random.Random) -> tuple[Move, float]:
        """The move UCB1 picks among those offered now; one never tried first."""
        offered, visits = self.offered, self.visits
        untried = []
        for move in legal:
            offered[move] = offered.get(move, 0) + 1
            if move not in visits:
                untried.append(move)
        if untried:
            return rng.choice(untried), 1.0
        rewards = self.rewards
        best, best_score = legal[0], -math.inf
        for move in legal:
            n = visits[move]
            score = rewards[move] / n + EXPLORATION * math.sqrt(math.log(offered[move]) / n)
            if score > best_score:
                best, best_score = move, score
        return best, 1.0

    def strategy(self, legal: Sequence[Move]) -> list[float]:
        """Regret matching's chance of each move offered now, `GAMMA` of it spread evenly."""
        regret = self.regret
        positive = [max(regret.get(move, 0.0), 0.0) for move in legal]
        total = sum(positive)
        k = len(legal)
        return [(1 - GAMMA) * p / total + GAMMA / k for p in positive] if total > 0 else [1 / k] * k

    def matching(self, legal: Sequence[Move], rng: random.Random) -> tuple[Move, float]:
        """A move drawn by regret matching over those offered now, with its probability."""
        chances = self.strategy(legal)
        x = rng.random()
        for move, chance in zip(legal, chances, strict=True):
            x -= chance
            if x < 0:
                return move, chance
        return legal[-1], chances[-1]

    def update(self, move: Move, reward: float, win: float) -> None:
        self.visits[move] = self.visits.get(move, 0) + 1
        self.rewards[move] = self.rewards.get(move, 0.0) + reward
        self.wins[move] = self.wins.get(move, 0.0) + win

    def regret_update(self, legal: Sequence[Move], move: Move, chance: float, reward: float) -> None:
        """Regret matching's update from one sampled outcome: the move drawn was worth `reward / chance`, in
        expectation; every move offered is measured against `reward`."""
        regret = self.regret
        for other in legal:
            regret[other] = regret.get(other, 0.0) - reward
        regret[move] += reward / chance

    def regret_full(self, legal: Sequence[Move], rewards: Sequence[float]) -> None:
        """Regret matching's update when every move offered was played out: each measured against the mix."""
        expected = sum(p * r for p, r in zip(self.strategy(legal), rewards, strict=True))
        regret = self.regret
        for move, reward in zip(legal, rewards, strict=True):
            regret[move] = regret.get(move, 0.0) + reward - expected


class Node:
    """The moves made since the view lead here: each mover's `Stats`, and the child of each joint move."""

    __slots__ = ("children", "choices")

    def __init__(self) -> None:
        self.choices: dict[int, Stats] = {}
        self.children: dict[tuple[Move, ...], Node] = {}


Step = tuple[Stats, int, Sequence[Move], Move, float, bool]
"""One choice of an iteration: whose stats, the seat, the moves offered, the move, its chance, whether simultaneous."""


@dataclass(frozen=True)
class MoveEstimate:
    """What the search found of one of the seat's moves."""

    move: dict[str, Any]
    visits: int
    win_chance: float
    reward: float
    preferred: float = 0.0
    """The model's chance of the move, where the search asked it (a tie between moves found alike goes to it)."""


@dataclass(frozen=True)
class Found:
    """A search's answer for its seat: each legal move (as the view lists it) with its estimates, the seat's win
    chance now (over every iteration), how many iterations it took, the seats at the table, and the decision the
    seat owes (whether the table sees it made, or only once every seat awaited has made its own)."""

    moves: list[MoveEstimate]
    win_chance: float
    iterations: int
    seats: int
    simultaneous: bool
    decision: str | None = None


class Search:
    """One search from one seat's view. `run` grows the tree within a `Budget`; `found` reads the root."""

    def __init__(self, ruleset: Ruleset[Any], view: dict[str, Any]) -> None:
        if ruleset.determinize is None:
            raise ValueError(f"{ruleset.id} cannot be searched: it has no determinize")
        self.ruleset = ruleset
        self.view = view
        self.me: int = view["you"]["seat"]
        self.root = Node()
        self.iterations = 0
        self.wins = 0.0
        self.determinize = ruleset.determinize
        self.simultaneous = ruleset.simultaneous
        self.evaluate = ruleset.evaluate
        self.horizon = ruleset.searching.horizon_at(len(view["seats"]))
        staged = len(view["seats"]) in ruleset.searching.staged and self.evaluate is not None
        self.stage = ruleset.searching.stage if staged else None
        self.root_stage: Any = None
        self.model = ruleset.searching.model
        self.handicap = ruleset.searching.handicap
        self.placed = ruleset.searching.placed
        # The table shows which seats the house's random bot holds: those are expected to play at random.
        self.at_random = {seat["seat"] for seat in view["seats"] if seat.get("bot") == "random"} - {self.me}
        self.expected: dict[tuple[int, Any], Expected] = {}
        self.expected_by_view: dict[bytes, Expected] = {}
        self.steps: dict[tuple[Any, int, Move], Any] = {}
        self.settled: dict[Any, tuple[list[float], list[float]]] = {}
        self.deadline: float = math.inf
        self.preferred: dict[Move, float] | None = None
        self.clock: Callable[[], float] = time.perf_counter

    def run(self, rng: random.Random, budget: Budget) -> None:
        """Iterate until the budget is spent, or would be by one more iteration as long as the mean one so far
        (an iteration of a long game's first decisions may take a tenth of the budget: the search stops short
        rather than overrun by that much); each iteration gets a generator of its own, drawn from `rng`."""
        cap = budget.iterations
        start = budget.clock() if budget.ms is not None else 0.0
        deadline = math.inf if budget.ms is None else start + budget.ms / 1000
        self.deadline, self.clock = deadline, budget.clock
        if self.stage is not None and self.model is not None and not owed(self.view).get("simultaneous"):
            self.preferring(rng)  # what the model would do breaks a tie between moves the search found alike
        done = 0
        while cap is None or done < cap:
            if budget.ms is not None and done > 0:
                now = budget.clock()
                if now + (now - start) / done > deadline:
                    break
            self.iterate(Luck(rng.getrandbits(64)))
            done += 1

    def movers(self, awaited: dict[int, str]) -> tuple[list[int], bool]:
        """Who decides at a node: every seat awaited on a simultaneous decision at once; else one seat (this
        search's own first, then the lowest), as the house would move them."""
        if not awaited:
            raise RuntimeError(f"{self.ruleset.id}: a state that awaits nobody but is not over")
        together = sorted(seat for seat, decision in awaited.items() if decision in self.simultaneous)
        if together:
            return together, True
        return [self.me if self.me in awaited else min(awaited)], False

    def iterate(self, rng: Luck) -> None:
        """One iteration: a state drawn from the view, played down the tree and out, its rewards backed up. At the
        root every mover's every move is played out against the same moves of the others and the same luck
        (`compare`), so the moves are compared on equal terms, each every iteration."""
        legal_moves = self.ruleset.legal_moves
        state = self.determinize(self.view, rng)
        if self.stage is not None:
            self.root_stage = self.stage(state)
        node: Node | None = self.root
        path: list[Step] = []
        steps = 0
        while not self.ended(state, steps):
            steps += 1
            movers, together = self.movers(self.ruleset.awaiting(state))
            chosen: list[tuple[int, Move]] = []
            root: list[tuple[int, Stats, list[Move]]] = []
            for seat in movers:
                legal = legal_moves(state, seat)
                if node is None:
                    chosen.append((seat, rng.choice(legal)))
                    continue
                if seat != self.me and self.model is not None:
                    moves, chances = self.expect(state, seat, rng)
                    chosen.append((seat, rng.choices(moves, chances)[0]))
                    continue
                stats = node.choices.get(seat)
                if stats is None:
                    stats = node.choices[seat] = Stats()
                move, chance = stats.matching(legal, rng) if together else stats.ucb(legal, rng)
                if node is self.root and (seat == self.me or EVERY_ROOT_MOVER):
                    root.append((seat, stats, legal))
                else:
                    path.append((stats, seat, legal, move, chance, together))
                chosen.append((seat, move))
            if root:
                measured = self.compare(state, chosen, root, together, rng)
                if measured is not None and self.stage is not None and not together:
                    # a staged search's open root move is judged by its playouts alone: nothing below it counts
                    self.iterations += 1
                    self.wins += measured
                    return
            state = self.play(state, chosen, rng)
            if node is not None:
                key = tuple(move for _, move in chosen)
                child = node.children.get(key)
                if child is None:
                    node.children[key] = Node()  # grown by one node an iteration; a playout from here
                node = child
        rewards, wins = self.outcome(state, steps, rng)
        self.iterations += 1
        self.wins += wins[self.me]
        for stats, seat, offered, move, chance, together in path:
            stats.update(move, rewards[seat], wins[seat])
            if together:
                stats.regret_update(offered, move, chance, rewards[seat])

    def playout_move(self, state: Any, seat: int, rng: random.Random) -> Move:
        """A move below the tree: the model's, where the game has one, else one at random (as a random bot's)."""
        if self.model is None or seat in self.at_random:
            return rng.choice(self.ruleset.legal_moves(state, seat))
        moves, chances = self.expect(state, seat, rng)
        return rng.choices(moves, chances)[0]

    def expect(self, state: Any, seat: int, rng: random.Random) -> Expected:
        """How the game's `model` expects `seat` to choose in this drawn state: from that seat's own view of it,
        worked out once for each view (the draws that differ only in what the seat cannot see share it); a seat
        of the house's random bot, any legal move alike."""
        assert self.model is not None
        found = self.expected.get((seat, state))
        if found is None and seat in self.at_random:
            legal = self.ruleset.legal_moves(state, seat)
            found = self.expected[(seat, state)] = legal, [1.0] * len(legal)
        if found is None:
            view = self.seat_view(state, seat)
            key = _key(view)
            found = self.expected_by_view.get(key)
            if found is None:
                mixed = self.model(view, random.Random(rng.getrandbits(64)))
                found = [self.ruleset.parse_move(body) for body, _ in mixed], [chance for _, chance in mixed]
                self.expected_by_view[key] = found
            self.expected[(seat, state)] = found
        return found

    def seat_view(self, state: Any, seat: int) -> dict[str, Any]:
        """What `seat` would be shown of this state, in the shape a bot reads (`state` and `you`)."""
        ruleset = self.ruleset
        own = msgspec.to_builtins(ruleset.you(state, seat))
        legal = msgspec.to_builtins(ruleset.legal_moves(state, seat))
        return {
            **self.view,
            "state": msgspec.to_builtins(ruleset.view(state, seat)),
            "you": {"seat": seat, **own, "legal_moves": legal},
        }

    def compare(
        self,
        state: Any,
        chosen: list[tuple[int, Move]],
        root: list[tuple[int, Stats, list[Move]]],
        together: bool,
        rng: random.Random,
    ) -> float | None:
        """Each root mover's every move played out in place of its own in `chosen`, the others' moves and the
        luck the same; regret matching then learns from every move's reward, not only the one drawn. A turn of
        more than `COMPARED` moves has that many of them played out, the next ones in turn each iteration, and
        no more once the budget's clock has run out: one iteration of such a turn never holds a decision up long.
        Returns this search's own seat's win, as the first of its moves played out found it (the model's, in a long
        turn; None if it was not a root mover)."""
        luck = Luck(rng.getrandbits(64))
        measured: float | None = None
        start = luck.getstate()
        for seat, stats, legal in root:
            luck.setstate(start)
            # The others' moves first, once: in a simultaneous decision no seat's move changes another's options.
            before = self.play(state, [(other, move) for other, move in chosen if other != seat], luck)
            same = luck.getstate()
            played, watched = legal, False
            if not together and len(legal) > COMPARED:
                watched = self.deadline < math.inf
                ranked = self.ranked(legal, seat, rng)
                first = self.iterations * COMPARED
                played = [ranked[(first + i) % len(ranked)] for i in range(COMPARED)]
            rewards: list[float] = []
            for move in played:
                if watched and rewards and self.clock() > self.deadline:
                    break
                luck.setstate(same)
                reward, win = self.outcome(self.play(before, [(seat, move)], luck), 1, luck)
                stats.update(move, reward[seat], win[seat])
                if seat == self.me and not rewards:
                    measured = win[seat]
                rewards.append(reward[seat])
            if together and len(rewards) == len(legal):
                stats.regret_full(legal, rewards)
        return measured

    def ranked(self, legal: list[Move], seat: int, rng: random.Random) -> list[Move]:
        """The moves of a long turn in the order they are played out: those the model would make from the view
        first, so that a decision cut short by its budget has weighed them (the model's draws from the search's
        own generator, never from anything a reader of the table could know)."""
        if self.model is None or seat != self.me:
            return legal
        preferred = self.preferring(rng)
        return sorted(legal, key=lambda move: move not in preferred)

    def preferring(self, rng: random.Random) -> dict[Move, float]:
        """The moves the model would make from the view, each with its chance (drawn once, from the search's own
        generator)."""
        assert self.model is not None
        if self.preferred is None:
            mixed = self.model(self.view, random.Random(rng.getrandbits(64)))
            self.preferred = {}
            for body, chance in mixed:
                move = self.ruleset.parse_move(body)
                self.preferred[move] = self.preferred.get(move, 0.0) + chance
        return self.preferred

    def ended(self, state: Any, steps: int) -> bool:
        """Whether to stop: the game is over, or it can be evaluated and the horizon is reached (in a staged search:
        the stage has changed since the view, or `STAGE_CAP` decisions are played)."""
        if self.ruleset.is_over(state):
            return True
        if self.stage is not None:
            return steps >= STAGE_CAP or self.stage(state) != self.root_stage
        return self.evaluate is not None and steps >= self.horizon

    def play(self, state: Any, chosen: list[tuple[int, Move]], rng: Luck) -> Any:
        """The state after the movers' moves, in seat order. A move whose decision drew nothing from the generator
        always leads to the same state: that is kept, and a search meets it again for a look-up."""
        ruleset, steps = self.ruleset, self.steps
        for seat, move in chosen:
            key = (state, seat, move)
            after = steps.get(key)
            if after is None:
                if seat not in ruleset.awaiting(state):  # an earlier move of the round may have ended the wait
                    continue
                rng.drawn = False
                after = state
                for event in ruleset.decide(state, seat, move, rng):
                    after = ruleset.evolve(after, event)
                if not rng.drawn:
                    steps[key] = after
            state = after
        return state

    def outcome(self, state: Any, steps: int, rng: Luck) -> tuple[list[float], list[float]]:
        """Each seat's reward and win (or chance of it) once the state is played out from `steps` decisions in by
        random legal moves: to the end, or to the horizon of a game that can evaluate a state."""
        ruleset = self.ruleset
        while not self.ended(state, steps):
            steps += 1
            movers, _ = self.movers(ruleset.awaiting(state))
            state = self.play(state, [(seat, self.playout_move(state, seat, rng)) for seat in movers], rng)
        known = self.settled.get(state)
        if known is None:
            rng.drawn = False
            known = self.settle(state, rng)
            if not rng.drawn:
                self.settled[state] = known
        return known

    def settle(self, state: Any, rng: Luck) -> tuple[list[float], list[float]]:
        """The rewards of a state the search stops at: the end's, or the evaluation's once no move is forced."""
        ruleset = self.ruleset
        while not ruleset.is_over(state):  # moves nobody has a choice of are played, not guessed at
            movers, _ = self.movers(ruleset.awaiting(state))
            forced = []
            for seat in movers:
                legal = ruleset.legal_moves(state, seat)
                if len(legal) != 1:
                    assert self.evaluate is not None
                    chances = self.evaluated(state)
                    return placed(chances, self.placed), chances
                forced.append((seat, legal[0]))
            state = self.play(state, forced, rng)
        return self.rewards(state)

    def evaluated(self, state: Any) -> list[float]:
        """Each seat's chance of winning by the game's evaluation, a seat of the house's random bot handicapped
        where the game says by how much (`Searching.handicap`)."""
        assert self.evaluate is not None
        chances = list(self.evaluate(state))
        if self.handicap is None or not self.at_random:
            return chances
        return handicapped(chances, self.at_random, self.handicap(state))

    def rewards(self, state: Any) -> tuple[list[float], list[float]]:
        """Each seat's reward at the end (its win, nudged by its lead; or, where its place counts, blended with the
        share of its rivals it ranks above) and its win alone."""
        result = self.ruleset.result(state)
        scores = result.scores
        winners = set(result.winners)
        scale = max(1, max(abs(score) for score in scores))
        wins = [1.0 if seat in winners else 0.0 for seat in range(len(scores))]
        if self.placed:
            # ranked as the ratings rank them: a seat out of the running below every other (and level with its kind)
            places = [len(scores) + 1 if rank is None else rank for rank in result.ranks]
            beaten = [
                sum(1.0 if mine < other else 0.5 if mine == other else 0.0 for other in places) - 0.5 for mine in places
            ]  # (a seat's own place, counted as a tie with itself, taken back)
            return [blend(w, b / (len(scores) - 1), self.placed) for w, b in zip(wins, beaten, strict=True)], wins
        rewards = []
        for seat, score in enumerate(scores):
            best_other = max((s for other, s in enumerate(scores) if other != seat), default=score)
            lead = max(-1.0, min(1.0, (score - best_other) / scale))
            rewards.append((1 - LEAD_WEIGHT) * wins[seat] + LEAD_WEIGHT * (1 + lead) / 2)
        return rewards, wins

    def found(self) -> Found:
        """Each of the view's legal moves with what the search found of it at the root."""
        stats = self.root.choices.get(self.me, Stats())
        by_body = {_body(move): move for move in stats.visits}
        now = self.wins / self.iterations if self.iterations else 0.0
        preferred = self.preferred or {}
        estimates = []
        for body in self.view["you"]["legal_moves"]:
            move = by_body.get(_key(body))
            visits = stats.visits.get(move, 0) if move is not None else 0
            if move is None or visits == 0:
                estimates.append(MoveEstimate(body, 0, now, now))
            else:
                reward, chance = stats.rewards[move] / visits, preferred.get(move, 0.0)
                estimates.append(MoveEstimate(body, visits, stats.wins[move] / visits, reward, chance))
        wait = owed(self.view)
        seats = len(self.view["seats"])
        return Found(estimates, now, self.iterations, seats, bool(wait.get("simultaneous")), wait.get("decision"))


def placed(chances: Sequence[float], weight: float) -> list[float]:
    """Each seat's reward from the chances: its chance blended, at `weight`, with the share of its rivals it may
    expect to beat, each pair judged as Bradley-Terry would (`p / (p + q)`). 0: the chances."""
    if not weight or len(chances) < 2:
        return list(chances)
    rivals = len(chances) - 1
    return [
        blend(p, sum(p / (p + q) if p + q else 0.5 for j, q in enumerate(chances) if j != i) / rivals, weight)
        for i, p in enumerate(chances)
    ]


def blend(win: float, beaten: float, weight: float) -> float:
    """A seat's reward: its win (or chance of it) and the share of its rivals it beats, at `weight`."""
    return (1 - weight) * win + weight * beaten


def handicapped(chances: Sequence[float], seats: Collection[int], logit: float) -> list[float]:
    """The chances with the odds of `seats` divided by e to the `logit` (the chances adding up as before)."""
    cut = math.exp(-logit)
    odds = [chance * cut if seat in seats else chance for seat, chance in enumerate(chances)]
    total = sum(odds)
    return [chance * sum(chances) / total for chance in odds] if total else list(chances)


def owed(view: dict[str, Any]) -> dict[str, Any]:
    """What the view's seat is awaited for (its `awaiting` entry: decision, simultaneous), or {} if nothing."""
    seat = view["you"]["seat"]
    return next((wait for wait in view.get("awaiting", ()) if wait["seat"] == seat), {})


def _key(body: dict[str, Any]) -> bytes:
    return msgspec.json.encode(body, order="sorted")


def _body(move: Move) -> bytes:
    return msgspec.json.encode(msgspec.to_builtins(move), order="sorted")


def search(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random, budget: Budget) -> Found:
    """What a search from this seat's view finds of each of its legal moves, within the budget."""
    searching = Search(ruleset, view)
    searching.run(rng, budget)
    return searching.found()
