"""Mixed strategies: how a bot draws a choice nobody may see, so that reading its code does not tell what it chose.

Anyone may read a bot's code and run it on what the table shows. A bot that always makes the move its estimates
rank first is then predictable, however secret the generator it is handed: in a simultaneous or hidden choice (a
face-down gangster, a loaded bullet, an aim, a courage, a setup decision) that is an open hand. So every such
choice is drawn, with the generator the bot is handed, from a distribution over the candidates. What reading the
code then gives away is the chance of the likeliest candidate: a predictor who runs the same code on the same
view, with a generator of its own, can do no better than guess it.

What is bounded is that guess's rate over the decisions of a kind (every gangster of a game, every courage), at
most 1.5 times a blind guess's (1 / k of k candidates): an average, not a cap on each decision. `strategy` makes
the distribution from the bot's estimate of each candidate's worth, under a price and a ceiling:

- A price. The distribution maximizes its expected worth less `price` times the chance of its likeliest
  candidate, what a predictor wins. That is the Lagrangian of "the most worth for a given rate of right guesses":
  with one price for every decision of a kind, predictability goes where it buys the most, and the price is set
  so that the rate over a game's decisions lands under the bound (each bot names its prices; the README gives
  what they cost and buy). The optimum is one of a few shapes: the best j candidates alike, or as many as the
  ceiling allows at the ceiling and the next one the rest. A clear best move gets the ceiling, a close call is
  spread over the moves nearly as good. For the price to mean the same at every decision of a kind, the worth is
  a chance of winning, or what stands in for one.
- A ceiling, `most(k)`: no candidate of k gets more than `CEILING` (0.9), nor more than `TIMES` (3) times a blind
  guess. A price alone makes a move certain wherever the others are hopeless, and whoever plays against the bot
  would then know its bullet or its courage for sure: 0.9 leaves one chance in ten on the other side of every
  yes or no. Among many candidates (a first gangster of twelve) 0.9 would still all but name the move, so 3 / k
  bounds it there; at the prices the bots use it hardly ever binds, so it costs them nothing measurable.

A decision whose estimates cannot tell a close call from a clear one (a preference, not a worth) is given no
price: `preferring` puts `LOW_EDGE / k` on each of the preferred candidates, always.

A bot's choices are made by a `Policy`, a function of the seat's view and a generator answering each candidate
move with its probability; `play` draws the move from it with the same generator. The policy on its own is the
distribution the move is drawn from: what a test (or a curious reader) can look at. Every bot kind uses this
module for its hidden choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

CEILING = 0.9
"""No candidate is ever more likely than this: nobody knows a hidden choice for sure."""
TIMES = 3.0
"""No candidate of k is ever more than this many times as likely as a blind guess (1 / k)."""
LOW_EDGE = 1.3
"""A preferred candidate's chance, times k, in a decision mixed without a price (so at that chance whenever it
has a preference): far enough under 1.5 that no measurement over a few hundred decisions crosses it by luck."""


def most(k: int) -> float:
    """The most chance any one of k candidates may get (a lone candidate: all of it)."""
    return 1.0 if k == 1 else min(CEILING, TIMES / k)


Mixed = list[tuple[dict[str, Any], float]]
"""Candidate moves, each with the probability it is played (they add up to 1)."""

Policy = Callable[[dict[str, Any], random.Random], Mixed]
"""A seat's view and a generator (for the estimates' samples) -> the distribution its move is drawn from."""


def strategy(worth: Sequence[float], price: float = 0.0, ceiling: float | None = None) -> list[float]:
    """The probabilities of candidates of this estimated worth: at most `ceiling` each (`most(k)` unless given),
    the best first, and as spread out as pays at `price` (in the worth's units) per unit of the likeliest
    candidate's chance. Equal worth, equal chance."""
    k = len(worth)
    if k == 1:
        return [1.0]
    top = most(k) if ceiling is None else min(1.0, ceiling)
    if top * k < 1:
        raise ValueError(f"no distribution keeps every one of {k} candidates under {top}")
    ranked = sorted(range(k), key=lambda i: -worth[i])
    shapes = [ranked_fill(ranked, c) for c in (top, *(1 / j for j in range(1, k + 1) if 1 / j < top))]
    best = max(shapes, key=lambda p: sum(pi * wi for pi, wi in zip(p, worth, strict=True)) - price * max(p))
    return even_ties(best, worth)


def preferring(worth: Sequence[float]) -> list[float]:
    """The probabilities of candidates ranked by a preference rather than a worth: `LOW_EDGE / k` each, the
    preferred first, the next one what is left (at no price: the ranking is all there is)."""
    return strategy(worth, ceiling=LOW_EDGE / len(worth))


def ranked_fill(ranked: Sequence[int], ceiling: float) -> list[float]:
    """The best candidates (`ranked` lists them best first) at `ceiling` each, the next one what is left."""
    probabilities = [0.0] * len(ranked)
    left = 1.0
    for i in ranked:
        probabilities[i] = max(0.0, min(ceiling, left))
        left -= probabilities[i]
    return probabilities


def even_ties(probabilities: Sequence[float], worth: Sequence[float]) -> list[float]:
    """The same, with candidates of equal worth sharing their probability evenly: a tie is no tell."""
    shares: dict[float, list[float]] = {}
    for p, w in zip(probabilities, worth, strict=True):
        shares.setdefault(w, []).append(p)
    return [sum(shares[w]) / len(shares[w]) for w in worth]


def mixed(moves: Sequence[dict[str, Any]], probabilities: Sequence[float]) -> Mixed:
    """The moves paired with their probabilities, the impossible ones left out and equal moves merged."""
    merged: Mixed = []
    for move, p in zip(moves, probabilities, strict=True):
        same = next((i for i, (m, _) in enumerate(merged) if m == move), None)
        if same is not None:
            merged[same] = (move, merged[same][1] + p)
        elif p > 0:
            merged.append((move, p))
    return merged


def uniform(moves: Sequence[dict[str, Any]]) -> Mixed:
    """Every move alike."""
    return [(move, 1 / len(moves)) for move in moves]


def certain(move: dict[str, Any]) -> Mixed:
    """One move for sure: the only one there is, or a choice the table sees as it is made."""
    return [(move, 1.0)]


def blend(*parts: tuple[Mixed, float]) -> Mixed:
    """One distribution from several, each taken with its weight (the weights add up to 1)."""
    moves = [move for choices, _ in parts for move, _ in choices]
    return mixed(moves, [p * weight for choices, weight in parts for _, p in choices])


def draw(choices: Mixed, rng: random.Random) -> dict[str, Any]:
    """One move, drawn with `rng` by the probabilities."""
    if len(choices) == 1:
        return choices[0][0]
    moves = [move for move, _ in choices]
    return rng.choices(moves, weights=[p for _, p in choices])[0]


def play(policy: Policy, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The move a bot makes: drawn from its policy's distribution for this view, with the same generator."""
    return draw(policy(view, rng), rng)
