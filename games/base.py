"""The interface every game implements: pure rules, with no I/O, clock or global random.

A game is a decider. `start` and `decide` turn a state and a command into events (or raise
`IllegalMoveError`); `evolve` folds one event into the state. Randomness comes in as a seeded
`random.Random` argument and leaves as a fact inside an event, so replaying events never re-rolls.

What every game would otherwise write again lives here: `refuse_if` and `legal` make a game's `check` and
`legal_moves` from its one `problem` function, `dispatcher` makes its `evolve` from its table of evolvers,
and `Ruleset.parse_move` reads a move body for every caller.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, ClassVar, Generic, Literal, Self, TypeVar

import msgspec
from msgspec import Meta

from games.mixing import Policy

S = TypeVar("S")
"""A game's own state type."""

SPECTATOR: Literal["spectator"] = "spectator"
EVERYONE: Literal["everyone"] = "everyone"
Viewer = int | Literal["spectator", "everyone"]
"""Who looks: a seat number, a spectator (no seat), or everyone (a finished game, an auditor)."""


class Refusal(StrEnum):
    """A code the rules refuse with, declared once with when it is given. Each table of them is a subclass whose
    members read `NAME = "code", "when"`: a game's own (its Ruleset's `refusals`), the table's (games/table.py,
    games/lifecycle.py), a move body's (`FormatRefusal`). A RuleError takes one, so the rules raise no code that is
    not declared, and the API lists them all (service/http/codes.py)."""

    when: str

    def __new__(cls, code: str, when: str) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.when = when
        return member


class RuleError(Exception):
    """Something the rules refuse. `code` is stable and reaches clients unchanged; `title` names the kind of
    refusal, for people."""

    title: ClassVar[str]

    def __init__(self, code: Refusal, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class IllegalMoveError(RuleError):
    """A move (or join, or timeout) the rules refuse now."""

    title = "Move not allowed"


class FormatRefusal(Refusal):
    """What is wrong with a body that is no move of the game."""

    INVALID_REQUEST = "invalid_request", "a move of a type the game does not take, or a field of the wrong type"
    UNKNOWN_FIELD = "unknown_field", "a move with a field its type does not take"


class MoveFormatError(RuleError):
    """A body that is no move of the game: an unknown type, an unknown field, a field of the wrong type."""

    title = "Not a move of this game"

    def __init__(self, code: FormatRefusal, detail: str) -> None:
        super().__init__(code, detail)


class Event(msgspec.Struct, frozen=True, kw_only=True):
    """A fact. Subclasses set a stable `type` name and a `schema_version`.

    `upcasters[n]` turns a stored payload of schema version n into version n + 1.
    """

    type: ClassVar[str]
    schema_version: ClassVar[int] = 1
    upcasters: ClassVar[Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]]] = {}


E = TypeVar("E", bound=Event)


def upcast(cls: type[E], schema_version: int, payload: dict[str, Any]) -> E:
    """The event of a payload stored at `schema_version`, taken one version at a time to the type's current one
    (the stored payload is never rewritten)."""
    for version in range(schema_version, cls.schema_version):
        payload = cls.upcasters[version](payload)
    return msgspec.convert(payload, cls)


def redacted(event: Event, viewer: Viewer, secrets: Mapping[type[Event], str]) -> dict[str, Any]:
    """An event's payload as a viewer may see it: the field `secrets` names for its type is seen only by
    the event's own seat (none, for an event without a seat) and by EVERYONE."""
    payload: dict[str, Any] = msgspec.to_builtins(event)
    secret = secrets.get(type(event))
    if secret is not None and viewer != EVERYONE and viewer != payload.get("seat"):
        del payload[secret]
    return payload


def renamed(**names: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """An upcaster that renames fields, old name to new: `renamed(target="victim")`."""
    return lambda payload: {names.get(name, name): value for name, value in payload.items()}


class Move(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A command a seat sends, e.g. `{"type": "play", "card": 7}`. Subclasses set `tag`.

    `formerly` names fields the move once took under another name (old to new): a move recorded in a log is read
    with them renamed, since the log is never rewritten; a request must use the new name."""

    formerly: ClassVar[Mapping[str, str]] = {}


# --- what every game's legality and `evolve` are made of --------------------------------------------------------

Problem = tuple[Refusal, str]
"""What the rules find wrong with a move: the (code, detail) of the IllegalMoveError it is refused with."""


def refuse_if(problem: Callable[[S, int, Move], Problem | None]) -> Callable[[S, int, Move], None]:
    """A game's `check`, which `decide` asks first: raise IllegalMoveError with what `problem` finds wrong.

    With `legal`, it keeps a game's legality in one function: `decide` refuses exactly the moves that
    `legal_moves` (the API's list, the bots' choice) leaves out."""

    def check(state: S, seat: int, move: Move) -> None:
        found = problem(state, seat, move)
        if found is not None:
            raise IllegalMoveError(*found)

    return check


def legal(
    candidates: Callable[[S, int], Iterable[Move]], problem: Callable[[S, int, Move], Problem | None]
) -> Callable[[S, int], list[Move]]:
    """A game's `legal_moves`: of the candidates (every move that might be legal for the seat now), those in
    which `problem` finds nothing. A game lists candidates loosely and lets `problem` sort them, so no rule is
    written twice."""

    def legal_moves(state: S, seat: int) -> list[Move]:
        return [move for move in candidates(state, seat) if problem(state, seat, move) is None]

    return legal_moves


def dispatcher(evolvers: Mapping[type[Event], Callable[[S, Any], S]], game: str) -> Callable[[S, Event], S]:
    """A game's `evolve`: the state after one fact, by the function `evolvers` names for the event's type (one
    small function per type, as the eventsourcing library's `singledispatch` mutate). An event of a type it does
    not name is no fact of `game`: ValueError, never a silent no-op.

    Each function takes the event of its own type, which a mapping keyed by type cannot tell a type checker:
    hence `Any` for the event it is handed."""

    def evolve(state: S, event: Event) -> S:
        evolver = evolvers.get(type(event))
        if evolver is None:
            raise ValueError(f"not a {game} event: {event.type}")
        return evolver(state, event)

    return evolve


@dataclass(frozen=True)
class Option:
    """A game option a creator may set in `options`."""

    kind: type
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    names_a_seat: bool = False
    before: Any = None
    """The value a game stored before this option existed was played with (None: the default)."""

    def __post_init__(self) -> None:
        # An unbounded number is a crash waiting to happen (a deadline of 1e41 seconds overflows a clock).
        if self.kind is int and not self.names_a_seat and (self.minimum is None or self.maximum is None):
            raise ValueError("an integer option needs a minimum and a maximum")


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """The final tally, the same shape in every game.

    `ranks[seat]` is 1 for the best; None for a seat out of the running (e.g. dead).
    `tie_break` names the last criterion that narrowed the seats tied on the top score (the victory
    may still be shared by those it could not separate); None when the top score was not tied, or
    when no criterion narrowed it.
    """

    scores: Annotated[tuple[int, ...], Meta(description="each seat's final score, by seat")]
    ranks: Annotated[tuple[int | None, ...], Meta(description="each seat's rank, by seat: 1 is best; null: out of it")]
    winners: Annotated[tuple[int, ...], Meta(description="the seats that won (several share a victory)")]
    tie_break: Annotated[
        str | None, Meta(description="the criterion that narrowed the seats tied on the top score, if one did")
    ]
    tie_breakers: Annotated[tuple[str, ...], Meta(description="the ruleset's tie-break criteria, in the order tried")]
    details: Annotated[dict[str, Any], Meta(description="what else the ruleset tells of its end")] = {}


def rank_seats(
    scores: Sequence[int],
    tie_breakers: Sequence[tuple[str, Sequence[int]]] = (),
    eligible: Sequence[bool] | None = None,
    details: dict[str, Any] | None = None,
) -> Result:
    """Rank seats by score, then by each tie-breaker in order (higher is better).

    Seats equal on every key share a rank; the seats ranked 1 share the victory.
    """
    seats = range(len(scores))
    eligible = eligible if eligible is not None else [True] * len(scores)

    def key(seat: int) -> tuple[int, ...]:
        return (scores[seat], *(values[seat] for _, values in tie_breakers))

    running = sorted((s for s in seats if eligible[s]), key=key, reverse=True)
    ranks: list[int | None] = [None] * len(scores)
    for position, seat in enumerate(running):
        tied_with_previous = position > 0 and key(running[position - 1]) == key(seat)
        ranks[seat] = ranks[running[position - 1]] if tied_with_previous else position + 1
    winners = tuple(sorted(s for s in running if ranks[s] == 1))
    return Result(
        scores=tuple(scores),
        ranks=tuple(ranks),
        winners=winners,
        tie_break=_deciding_tie_breaker(running, scores, tie_breakers),
        tie_breakers=tuple(name for name, _ in tie_breakers),
        details=details or {},
    )


def _deciding_tie_breaker(
    running: Sequence[int], scores: Sequence[int], tie_breakers: Sequence[tuple[str, Sequence[int]]]
) -> str | None:
    """The last tie-breaker that narrowed the seats tied on the top score, if any did."""
    contenders = [s for s in running if scores[s] == scores[running[0]]] if running else []
    deciding = None
    for name, values in tie_breakers:
        if len(contenders) < 2:
            break
        best = max(values[s] for s in contenders)
        narrowed = [s for s in contenders if values[s] == best]
        if len(narrowed) < len(contenders):
            contenders, deciding = narrowed, name
    return deciding


@dataclass(frozen=True)
class Constant:
    """A number of the rules (or a table of them), with what it means."""

    value: Any
    description: str


class CatalogueCard(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One card, loot card or token, as views, events and moves name it. A game's cards are of its own subclass
    (keyword-only too, so its fields follow these), which declares the fields of the game's own: games/schema.py
    documents every game's."""

    id: Annotated[
        int | str,
        Meta(description="the id views, events and moves use: 12 Gangsters' gangsters are integers, others strings"),
    ]
    kind: Annotated[str, Meta(description="what kind of card: see `kinds`")]
    name: Annotated[str, Meta(description="the rulebook's name")]
    value: Annotated[
        int,
        Meta(
            description="what the card is worth by itself, 0 for nothing: a gangster's points; a banknote's or "
            "diamond's dollars; a Mobsters crime's takings, operation's income each Collection, or the dollars a "
            "cost makes its target pay"
        ),
    ]


@dataclass(frozen=True)
class Catalogue:
    """Every card (or token) id a client meets in a game's views and events, with its numbers, and the rules'
    other numbers: what a bot needs to value cards without the rulebook. A pure, JSON-able value that each game
    builds from its own card tables and constants, so it cannot drift from what the rules score.

    Each of `cards` is a `CatalogueCard` of the game's own subclass (see the game's `catalogue.py`). `kinds` says
    what each kind is and does; `constants` names the rules' other numbers."""

    cards: tuple[CatalogueCard, ...] = ()
    kinds: Mapping[str, str] = field(default_factory=dict)
    constants: Mapping[str, Constant] = field(default_factory=dict)


@dataclass(frozen=True)
class Searching:
    """How a searching bot (games/search.py, games/hard.py) plays a game, set by the game where the defaults do not
    suit it.

    - `horizon`: the decisions (a simultaneous one counts once) a search plays from the view before it evaluates
      the state, in a game that can `evaluate` one; `horizons`, by the number of seats, where that differs.
    - `stage`: what part of the game a state is in (a turn, say), where evaluations are comparable only between
      states at the same point of it; with a number of seats in `staged`, a search plays on from the view, every
      seat as the model would, until the stage has changed (or `search.STAGE_CAP` decisions), and evaluates there.
    - `model`: how the search expects every other seat to choose, at every decision of its tree and its playouts
      (and its own seat too, in the playouts), a policy of that seat's own view of each state drawn (the game's
      `smart` bot: a sensible player), so that the search answers likely choices rather than any choice alike
      (None: the others' choices are searched like its own, and playouts move at random).
    - `modelled`: the decisions `hard` leaves to the model rather than the search: those where the model was
      measured the stronger (the search still weighs them when another decision looks ahead through them).
    - `prices`: by hidden decision, what a choice foreseen for sure costs, in fair shares of a win (a chance of
      winning times the seats: chances shrink as seats are added, and a price means as much at any number of
      them; `games.mixing.strategy`); a decision not named pays `price`. Each is set so that a predictor running the
      bot's code guesses that kind of choice, over a game's decisions, under 1.5 times as often as a blind guess
      (tests/games/test_unreadable_bots.py), and no more spread than that asks: the estimates of some decisions
      differ by a hundredth where others differ by a tenth.
    - `handicap(state)`: where the evaluation judges every seat a sensible player, how much less likely to win a seat
      of the house's random bot is than it judges, in the logit of its chance (its odds are divided by e to that
      power). None: it is judged like any seat.
    - `placed`: the weight in a seat's reward of the share of its rivals it beats (the rest is its win): where a
      game ranks every seat, a seat far behind sees every move at about no chance of winning, and the rivals it may
      still pass tell its moves apart (a hidden choice is then mixed over that reward, not the chance alone). At a
      game's end a rival is beaten when it ranks below (half when level; a seat out of the running ranks below every
      other); where a search evaluates, each pair of seats is judged by their chances, as Bradley-Terry would
      (`p / (p + q)`). 0: the win alone, nudged by the lead at the end.
    """

    horizon: int = 1
    horizons: Mapping[int, int] = field(default_factory=dict)
    stage: Callable[[Any], Any] | None = None
    staged: frozenset[int] = frozenset()
    model: Policy | None = None
    modelled: frozenset[str] = frozenset()
    price: float = 0.6
    prices: Mapping[str, float] = field(default_factory=dict)
    handicap: Callable[[Any], float] | None = None
    placed: float = 0.0

    def horizon_at(self, seats: int) -> int:
        return self.horizons.get(seats, self.horizon)

    def price_of(self, decision: str | None) -> float:
        return self.prices.get(decision, self.price) if decision is not None else self.price


@dataclass(frozen=True)
class Ruleset(Generic[S]):
    """Everything about one game: what the registry lists and what the service calls.

    - `initial_state(seats, options)`: the state before the game starts.
    - `start(state, rng)`: the opening facts (shuffles, the first Boss...).
    - `decide(state, seat, move, rng)`: the events a seat's move produces, or IllegalMoveError.
    - `evolve(state, event)`: the state after one event.
    - `view(state, viewer)`: what a viewer may see of the state, as a `state_view`; EVERYONE also sees every
      seat's own in its `seats`.
    - `you(state, seat)`: what only the seat (and EVERYONE) may see of its own, as a `you_view`: the table
      shows it to the seat under `you`.
    - `event_view(event, viewer)`: the payload a viewer may see of an event (JSON-able).
    - `awaiting(state)`: the seats the game waits on, with the decision each owes.
    - `legal_moves(state, seat)`: every move the seat may make now.
    - `is_over(state)`, `result(state)`: the end and the final tally.
    - `decisions`: every decision `awaiting` may name (the OpenAPI document lists them).
    - `simultaneous`: the decisions that every seat awaited makes at once, each without seeing the others', revealed
      together: another seat's move changes nothing of a seat's options in one (so a move needs no `If-Match`).
    - `refusals`: the codes of the game's own refusals (`legal_moves` leaves out the moves it would refuse), each
      with when it is given; it refuses with the table's too (games/refusals.py `TableRefusal`).
    - `state_view`, `you_view`: the msgspec Structs `view` and `you` build, so they are what the views show.
      games/schema.py turns them into JSON Schema; the conformance tests check every view against it.
    - `secret_fields`: the payload field of each event type that only the event's seat (and EVERYONE)
      sees, as `event_view` redacts it with `redacted`; it is optional in the event's schema.
    - `bots`: the game's own bots by kind (e.g. "smart"), each a function of a seat's view (what the table
      shows that seat, with its `legal_moves`, as plain JSON values: `games.table.plain_view`) and a seeded
      generator, answering a move body; a hidden choice is drawn from a mixed strategy (`games.mixing`). The
      generic "random" bot serves every game.
    - `time_limit(state)`: seconds the current wait may last by the game's own rules (an aiming
      window), or None to use the table's `move_deadline_s` option, if any.
    - `timeout(state, rng)`: what being late means now, as events; None means "nothing special": a
      random bot then decides for each awaited seat.
    - `catalogue`: every card id of the game with its numbers, and the rules' other numbers (empty by default).
    - `renews_wait(before, after)`: whether `after` (the state one event later) owes a new decision that
      `awaiting` cannot tell from the one `before` owed: the same seat owing the same kind of decision
      again, e.g. a lone seat's next pick. By default never: see `games.table.waits_anew`.
    - `determinize(view, rng)`: a state the seat's view (`games.table.plain_view`) could have been shown from,
      its hidden parts (others' hands and unrevealed choices, the deck's order) drawn with `rng` among those the
      view leaves possible; what a searching bot plays out, since a bot never sees the true state. None: the game
      has no searching bot.
    - `evaluate(state)`: each seat's chance of winning from a state that is not over, estimated cheaply (a number
      from 0 to 1 per seat): where a searching bot stops looking ahead. None: a search plays every game to its end.
    - `searching`: how a searching bot plays this game (`Searching`): how far it looks before it evaluates, and
      what it pays for each hidden choice foreseen.
    - `passes`: the decisions a seat may ask the house to pass for it (`auto_pass`), each with the move that passes
      it: one move whatever the seat holds, so that passing shows nothing of a hand.

    A wait is what a deadline counts from. The table starts a new one when the game awaits a (seat,
    decision) it did not await before, so a simultaneous round stays one wait while its seats decide
    one by one; `renews_wait` tells it of the new decisions that set cannot show.
    """

    id: str
    name: str
    min_seats: int
    max_seats: int
    state_type: type[S]
    moves: tuple[type[Move], ...]
    events: tuple[type[Event], ...]
    initial_state: Callable[[int, Mapping[str, Any]], S]
    start: Callable[[S, random.Random], list[Event]]
    decide: Callable[[S, int, Move, random.Random], list[Event]]
    evolve: Callable[[S, Event], S]
    view: Callable[[S, Viewer], msgspec.Struct]
    you: Callable[[S, int], msgspec.Struct]
    event_view: Callable[[Event, Viewer], dict[str, Any]]
    awaiting: Callable[[S], dict[int, str]]
    legal_moves: Callable[[S, int], list[Move]]
    is_over: Callable[[S], bool]
    result: Callable[[S], Result]
    decisions: tuple[str, ...]
    simultaneous: frozenset[str]
    refusals: type[Refusal]
    state_view: type[msgspec.Struct]
    you_view: type[msgspec.Struct]
    secret_fields: Mapping[type[Event], str] = field(default_factory=dict)
    options: Mapping[str, Option] = field(default_factory=dict)
    description: str = ""
    bots: Mapping[str, Callable[[dict[str, Any], random.Random], dict[str, Any]]] = field(default_factory=dict)
    time_limit: Callable[[S], int | None] = lambda state: None
    timeout: Callable[[S, random.Random], list[Event] | None] = lambda state, rng: None
    renews_wait: Callable[[S, S], bool] = lambda before, after: False
    catalogue: Catalogue = field(default_factory=Catalogue)
    determinize: Callable[[dict[str, Any], random.Random], S] | None = None
    evaluate: Callable[[S], Sequence[float]] | None = None
    searching: Searching = field(default_factory=Searching)
    passes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def move_type(self, name: str) -> type[Move] | None:
        """The move class whose `type` tag is `name`."""
        return next((m for m in self.moves if m.__struct_config__.tag == name), None)

    def parse_move(self, body: Mapping[str, Any], strict: bool = True) -> Move:
        """The move a body names; MoveFormatError if it names none. `strict` refuses fields the move does
        not take, so nothing unasked-for reaches the permanent log (a log written before that was enforced
        is still read with `strict=False`)."""
        move_type = self.move_type(str(body.get("type")))
        if move_type is None:
            names = ", ".join(str(m.__struct_config__.tag) for m in self.moves)
            raise MoveFormatError(
                FormatRefusal.INVALID_REQUEST, f"unknown move type {body.get('type')!r}; {self.id} takes: {names}"
            )
        unknown = sorted(set(body) - {"type", *move_type.__struct_fields__})
        if strict and unknown:
            takes = ", ".join(move_type.__struct_fields__) or "no other field"
            now = move_type.formerly.get(unknown[0])
            detail = f"{body['type']!r} takes no field {unknown[0]!r}" + (f" (now {now!r})" if now else "")
            raise MoveFormatError(FormatRefusal.UNKNOWN_FIELD, f"{detail}; it takes: {takes}")
        if not strict:
            body = renamed(**move_type.formerly)(dict(body))
        try:
            return msgspec.convert(body, move_type)
        except msgspec.ValidationError as error:
            raise MoveFormatError(FormatRefusal.INVALID_REQUEST, f"invalid move: {error}") from None
