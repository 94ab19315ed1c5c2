"""What every registered game must do, checked through the Ruleset interface alone.

Each case plays a whole game with random legal moves from a seeded `random.Random` (some seats filled by
joining, options naming a seat set at random), then checks the recorded tables and events: JSON round
trips, replay, legal moves against `decide`, what each viewer may see, and the end. A game added to
`games.registry.RULESETS` is tested here without a line of its own. Two tests look past the interface, at the
game's package: it has the modules every game has, and each part of its Ruleset comes from the module named for it.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import pkgutil
import random
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Union

import jsonschema_rs
import msgspec
import pytest

import games
from games.base import EVERYONE, SPECTATOR, Event, IllegalMoveError, Move, Ruleset, Viewer
from games.refusals import SetupError
from games.registry import RULESETS
from games.schema import REF, components, event_names, prefix
from games.table import TABLE_EVENTS, Seat, Status, Table, create, evolve, join, plain_view, play
from games.table import event_view as table_event_view

MAX_MOVES = 10_000
SEEDS = range(2)
SAMPLE = 10  # moves checked against `decide` per seat and state, each way

RULESET_PARAMS = [pytest.param(r, id=r.id) for r in RULESETS.values()]
CASES = [
    pytest.param(r.id, seats, seed, id=f"{r.id}-{seats}seats-seed{seed}")
    for r in RULESETS.values()
    for seats in range(r.min_seats, r.max_seats + 1)
    for seed in SEEDS
]


@dataclass(frozen=True)
class Playthrough:
    """A whole game: `tables[i]` is the table after `events[: i + 1]`; `actions` made it happen.

    `resting` indexes the tables a command left (not those halfway through one command's events).
    """

    ruleset: Ruleset[Any]
    seats: int
    events: tuple[Event, ...]
    tables: tuple[Table[Any], ...]
    resting: tuple[int, ...]
    actions: tuple[tuple[str, Any, Any], ...]
    created_with: tuple[list[Seat], dict[str, Any], int, str]

    def in_progress(self) -> Iterator[Table[Any]]:
        """The tables at rest on which a seat may move."""
        resting = (self.tables[i] for i in self.resting)
        return (t for t in resting if t.status is Status.IN_PROGRESS)


def random_options(ruleset: Ruleset[Any], seats: int, rng: random.Random) -> dict[str, Any]:
    """Half the time, each option that names a seat names a random one."""
    return {
        name: rng.randrange(seats)
        for name, option in ruleset.options.items()
        if option.names_a_seat and rng.random() < 0.5
    }


@functools.cache
def playthrough(ruleset_id: str, seats: int, seed: int) -> Playthrough:
    ruleset = RULESETS[ruleset_id]
    rng = random.Random(f"{ruleset_id}:{seats}:{seed}")
    layout = [Seat(bot="random") if rng.random() < 0.5 else Seat() for _ in range(seats)]
    options = random_options(ruleset, seats, rng)
    game_seed, salt = rng.randrange(2**63), f"salt-{seed}"
    opening = create(ruleset, f"game-{seed}", layout, options, game_seed, salt)
    events, tables = [opening[0]], [evolve(ruleset, None, opening[0])]
    actions: list[tuple[str, Any, Any]] = []
    resting: list[int] = []

    def record(new: list[Event]) -> None:
        for event in new:
            tables.append(evolve(ruleset, tables[-1], event))
        events.extend(new)
        resting.append(len(tables) - 1)

    record(opening[1:])
    for n in range(sum(s.is_open for s in layout)):
        actions.append(("join", f"player-{n}", None))
        record(join(ruleset, tables[-1], f"player-{n}"))
    while tables[-1].status is Status.IN_PROGRESS:
        assert len(actions) < MAX_MOVES, f"no end after {MAX_MOVES} moves"
        state = tables[-1].rules
        movers = [s for s in range(seats) if ruleset.legal_moves(state, s)]
        assert movers, "the game is in progress but no seat has a legal move"
        seat = rng.choice(movers)
        move = rng.choice(ruleset.legal_moves(state, seat))
        actions.append(("play", seat, move))
        record(play(ruleset, tables[-1], seat, move))
    return Playthrough(
        ruleset,
        seats,
        tuple(events),
        tuple(tables),
        tuple(resting),
        tuple(actions),
        (layout, options, game_seed, salt),
    )


def event_class(ruleset: Ruleset[Any], name: str) -> type[Event]:
    return next(cls for cls in (*TABLE_EVENTS, *ruleset.events) if cls.type == name)


def variants(move: Move) -> Iterator[Move]:
    """Moves of the same type with one field nudged to a nearby or absurd value the schema still allows."""
    payload = msgspec.to_builtins(move)
    for field in msgspec.structs.fields(move):
        value = getattr(move, field.name)
        if isinstance(value, bool):
            others: list[Any] = [not value]
        elif isinstance(value, int):
            others = [value - 1, value + 1, -1, 0, 10**6]
        elif isinstance(value, str):
            others = ["", f"{value}?"]
        elif value is None:
            others = [-1, 0, 10**6, ""]
        else:
            others = []
        for other in others:
            try:
                yield msgspec.convert({**payload, field.name: other}, type(move))
            except msgspec.ValidationError:
                continue


def private_free(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "you"}


@functools.cache
def schema(name: str) -> jsonschema_rs.Validator:
    """A validator for one component of the OpenAPI document's schemas (games/schema.py builds them)."""
    return jsonschema_rs.validator_for({"$ref": REF + name, "components": {"schemas": components()}})


def assert_fits(name: str, body: Any, where: str) -> None:
    errors = [f"{e.instance_path}: {e.message}" for e in schema(name).iter_errors(body)]
    assert not errors, f"{where} does not fit the {name} schema: {errors[:3]}"


# --- the ruleset's declared shape -----------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESET_PARAMS)
def test_seat_counts_outside_the_range_are_refused(ruleset: Ruleset[Any]) -> None:
    for seats in (ruleset.min_seats - 1, ruleset.max_seats + 1):
        with pytest.raises(SetupError) as refusal:
            create(ruleset, "g", [Seat(bot="random")] * seats, {}, 1, "salt")
        assert refusal.value.code == "invalid_seat_count"
    for seats in range(ruleset.min_seats, ruleset.max_seats + 1):
        events = create(ruleset, "g", [Seat(bot="random")] * seats, {}, 1, "salt")
        assert [e.type for e in events[:2]] == ["game_created", "game_started"]


@pytest.mark.parametrize("ruleset", RULESET_PARAMS)
def test_unknown_options_and_seats_outside_the_table_are_refused(ruleset: Ruleset[Any]) -> None:
    seats = [Seat(bot="random")] * ruleset.min_seats
    bad_options: list[dict[str, Any]] = [{"no_such_option": 1}]
    bad_options += [
        {name: seat}
        for name, option in ruleset.options.items()
        if option.names_a_seat
        for seat in (-1, ruleset.min_seats)
    ]
    for options in bad_options:
        with pytest.raises(SetupError) as refusal:
            create(ruleset, "g", seats, options, 1, "salt")
        assert refusal.value.code == "invalid_option", options


def test_event_type_names_are_unique_across_every_game() -> None:
    classes = [*TABLE_EVENTS, *(e for r in RULESETS.values() for e in r.events)]
    names = [cls.type for cls in classes]

    assert len(set(names)) == len(names)
    assert all(isinstance(name, str) and name for name in names)


@pytest.mark.parametrize("ruleset", RULESET_PARAMS)
def test_move_type_finds_every_move_by_its_tag(ruleset: Ruleset[Any]) -> None:
    for move_type in ruleset.moves:
        assert ruleset.move_type(move_type.__struct_config__.tag) is move_type
    assert ruleset.move_type("no_such_move") is None


GAME_MODULES = ("state", "events", "moves", "legality", "rules", "evolve", "views", "bots", "catalogue")
"""The modules every game package has, so that a reader who knows one game knows all (docs/ARCHITECTURE.md)."""


def game_package(ruleset: Ruleset[Any]) -> ModuleType:
    """The package under games/ whose RULESET this is."""
    packages = (importlib.import_module(i.name) for i in pkgutil.iter_modules(games.__path__, "games.") if i.ispkg)
    found = next((p for p in packages if getattr(p, "RULESET", None) is ruleset), None)
    assert found is not None, f"no package under games/ has the RULESET of {ruleset.id}"
    return found


@pytest.mark.parametrize("ruleset", RULESET_PARAMS)
def test_every_game_package_has_the_same_modules(ruleset: Ruleset[Any]) -> None:
    package = game_package(ruleset)
    missing = [name for name in GAME_MODULES if importlib.util.find_spec(f"{package.__name__}.{name}") is None]

    assert not missing, f"{package.__name__} has no {', '.join(missing)}"
    assert package.__doc__, "a game package's docstring states its rules and rulings"


@pytest.mark.parametrize("ruleset", RULESET_PARAMS)
def test_each_part_of_a_ruleset_comes_from_its_module(ruleset: Ruleset[Any]) -> None:
    name = game_package(ruleset).__name__
    state, events, moves, legality, rules, evolve, views, bots, catalogue = (
        importlib.import_module(f"{name}.{module}") for module in GAME_MODULES
    )
    defaults = {f.name: f.default for f in dataclasses.fields(Ruleset)}

    assert (ruleset.state_type, ruleset.initial_state) == (state.State, state.initial_state)
    assert ruleset.events == events.EVENTS and {e.__module__ for e in ruleset.events} == {events.__name__}
    assert ruleset.moves == moves.MOVES and {m.__module__ for m in ruleset.moves} == {moves.__name__}
    assert ruleset.legal_moves is legality.legal_moves and callable(legality.problem) and callable(legality.check)
    for hook in ("start", "decide", "awaiting", "is_over", "result"):
        assert getattr(ruleset, hook) is getattr(rules, hook), hook
    for hook in ("time_limit", "timeout", "renews_wait"):  # a game's own, if it has one, lives in rules.py
        assert getattr(ruleset, hook) in (defaults[hook], getattr(rules, hook, None)), hook
    assert ruleset.decisions == rules.DECISIONS
    assert ruleset.evolve is evolve.evolve
    assert (ruleset.view, ruleset.you, ruleset.event_view) == (views.view, views.you, views.event_view)
    assert (ruleset.state_view, ruleset.you_view, ruleset.secret_fields) == (
        views.StateView,
        views.You,
        views.SECRET_FIELDS,
    )
    assert all(bot.__module__ == bots.__name__ for bot in ruleset.bots.values())
    assert ruleset.catalogue is catalogue.CATALOGUE


# --- whole games ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_game_ends_with_a_result_for_every_seat(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    ruleset, final = game.ruleset, game.tables[-1]

    assert final.status is Status.FINISHED
    assert ruleset.is_over(final.rules)
    result = ruleset.result(final.rules)
    assert len(result.scores) == len(result.ranks) == seats
    assert all(rank is None or 1 <= rank <= seats for rank in result.ranks)
    assert result.winners == tuple(s for s in range(seats) if result.ranks[s] == 1)
    assert all(result.scores[w] == max(result.scores[s] for s in result.winners) for w in result.winners)
    assert result.tie_break is None or result.tie_break in result.tie_breakers
    assert ruleset.awaiting(final.rules) == {}
    assert all(ruleset.legal_moves(final.rules, s) == [] for s in range(seats))
    last_move = next(move for kind, _, move in reversed(game.actions) if kind == "play")
    with pytest.raises(IllegalMoveError) as refusal:
        play(ruleset, final, 0, last_move)
    assert refusal.value.code == "game_already_finished"


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_table_round_trips_through_json_at_every_version(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    table_type = Table[game.ruleset.state_type]

    for version, table in enumerate(game.tables, start=1):
        assert table.version == version
        assert msgspec.json.decode(msgspec.json.encode(table), type=table_type) == table


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_every_event_round_trips_and_has_a_registered_type(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    registered = (*TABLE_EVENTS, *game.ruleset.events)

    for event in game.events:
        assert type(event) in registered
        assert msgspec.convert(msgspec.to_builtins(event), type(event)) == event


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_replaying_stored_events_reproduces_every_state(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    ruleset = game.ruleset

    table = None
    for event, expected in zip(game.events, game.tables, strict=True):
        stored = msgspec.json.encode(msgspec.to_builtins(event))
        table = evolve(ruleset, table, msgspec.json.decode(stored, type=event_class(ruleset, event.type)))
        assert table == expected


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_same_seed_and_moves_produce_the_same_events(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    ruleset = game.ruleset
    layout, options, game_seed, salt = game.created_with

    events = create(ruleset, f"game-{seed}", layout, options, game_seed, salt)
    table = None
    for event in events:
        table = evolve(ruleset, table, event)
    for kind, who, move in game.actions:
        new = join(ruleset, table, who) if kind == "join" else play(ruleset, table, who, move)
        for event in new:
            table = evolve(ruleset, table, event)
        events += new

    assert tuple(events) == game.events


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_legal_moves_agree_with_decide(ruleset_id: str, seats: int, seed: int) -> None:
    """Every legal move is accepted; moves legal elsewhere (other seats, other times) or nudged to
    values nobody may play are refused with IllegalMoveError, never another exception."""
    game = playthrough(ruleset_id, seats, seed)
    ruleset = game.ruleset
    played = [move for kind, _, move in game.actions if kind == "play"]
    pool = list(dict.fromkeys([*played, *(v for move in played for v in variants(move))]))
    rng = random.Random(seed)

    for table in game.in_progress():
        for seat in range(seats):
            legal = ruleset.legal_moves(table.rules, seat)
            assert len(set(legal)) == len(legal), "legal moves are listed once each"
            for move in rng.sample(legal, min(SAMPLE, len(legal))):
                assert play(ruleset, table, seat, move), f"{move} is legal but made nothing happen"
            candidates = rng.sample(pool, min(2 * SAMPLE, len(pool)))
            for move in [m for m in candidates if m not in legal][:SAMPLE]:
                try:
                    play(ruleset, table, seat, move)
                except IllegalMoveError:
                    continue
                pytest.fail(f"seat {seat} may not {move} at version {table.version}, yet it was accepted")


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_moves_round_trip_through_json(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    any_move = Union[game.ruleset.moves]  # noqa: UP007 - a Union built from a runtime tuple

    for kind, _, move in game.actions:
        if kind == "play":
            assert msgspec.json.decode(msgspec.json.encode(move), type=any_move) == move


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_awaited_seats_each_have_a_legal_move(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    ruleset = game.ruleset

    for table in game.in_progress():
        awaited = ruleset.awaiting(table.rules)
        assert awaited, "a game in progress waits on someone"
        for seat, decision in awaited.items():
            assert 0 <= seat < seats
            assert isinstance(decision, str) and decision
            assert ruleset.legal_moves(table.rules, seat)


# --- what each viewer sees ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_a_seat_sees_the_public_view_plus_only_its_own_you(ruleset_id: str, seats: int, seed: int) -> None:
    """Everything private to a seat lives under `you`; the rest is the same for every seat and spectators.

    Every seat looks at each table a command left; one seat in turn at the tables halfway through one."""
    game = playthrough(ruleset_id, seats, seed)
    ruleset = game.ruleset

    for index, table in enumerate(game.tables):
        public = plain_view(ruleset, table, SPECTATOR)
        assert "you" not in public
        msgspec.json.encode(public)
        msgspec.json.encode(plain_view(ruleset, table, EVERYONE))
        if table.rules is not None:  # the game builds the Structs that declare its view
            assert type(ruleset.view(table.rules, SPECTATOR)) is ruleset.state_view
        for seat in range(seats) if index in game.resting else [index % seats]:
            if table.rules is not None:
                assert type(ruleset.you(table.rules, seat)) is ruleset.you_view
            body = plain_view(ruleset, table, seat)
            msgspec.json.encode(body)
            assert private_free(body) == public
            assert body["you"]["seat"] == seat


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_every_view_fits_the_declared_schema_exactly(ruleset_id: str, seats: int, seed: int) -> None:
    """What each seat, a spectator and EVERYONE see at every version fits the game's schema: no key it does not
    declare, none it requires missing, every value of its type, `ruleset` naming the game (a view of `Game`,
    the union, fits exactly one of its rulesets' schemas). A view changed without its declaration fails here."""
    game = playthrough(ruleset_id, seats, seed)
    viewers: list[Viewer] = [*range(seats), SPECTATOR, EVERYONE]

    for table in game.tables:
        for viewer in viewers:
            where = f"the view of {viewer} at version {table.version}"
            assert_fits("Game", plain_view(game.ruleset, table, viewer), where)


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_every_event_as_each_viewer_sees_it_fits_its_payload_schema(ruleset_id: str, seats: int, seed: int) -> None:
    """A payload redacted for a viewer fits too: the secret it lacks is optional in its schema."""
    game = playthrough(ruleset_id, seats, seed)
    names = {**event_names(None), **event_names(game.ruleset)}
    viewers: list[Viewer] = [*range(seats), SPECTATOR, EVERYONE]

    for version, event in enumerate(game.events, start=1):
        for viewer in viewers:
            payload = table_event_view(game.ruleset, event, viewer)
            assert_fits(names[event.type], payload, f"{event.type} at version {version}, as {viewer} sees it")


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_every_decision_awaited_is_declared(ruleset_id: str, seats: int, seed: int) -> None:
    """The schema lists a ruleset's `decisions`; a decision `awaiting` names must be among them."""
    game = playthrough(ruleset_id, seats, seed)
    ruleset = game.ruleset

    for table in game.tables:
        if table.rules is not None:
            undeclared = set(ruleset.awaiting(table.rules).values()) - set(ruleset.decisions)
            assert not undeclared, f"{ruleset.id} awaits {undeclared} at version {table.version}: add to DECISIONS"


@pytest.mark.parametrize("ruleset", RULESET_PARAMS)
def test_every_legal_move_fits_the_move_schema(ruleset: Ruleset[Any]) -> None:
    game = playthrough(ruleset.id, ruleset.min_seats, 0)
    p = prefix(ruleset)

    for table in game.in_progress():
        for seat in range(game.seats):
            for move in ruleset.legal_moves(table.rules, seat):
                assert_fits(f"{p}Move", msgspec.to_builtins(move), f"{move}")
                assert_fits("Move", msgspec.to_builtins(move), f"{move}")


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_event_views_are_json_and_complete_for_everyone(ruleset_id: str, seats: int, seed: int) -> None:
    game = playthrough(ruleset_id, seats, seed)
    viewers: list[Viewer] = [*range(seats), SPECTATOR, EVERYONE]

    for event in game.events:
        for viewer in viewers:
            msgspec.json.encode(table_event_view(game.ruleset, event, viewer))
        assert table_event_view(game.ruleset, event, EVERYONE) == msgspec.to_builtins(event)


@pytest.mark.parametrize(("ruleset_id", "seats", "seed"), CASES)
def test_another_seats_choice_shows_alike_in_events_and_views(ruleset_id: str, seats: int, seed: int) -> None:
    """Take two legal moves of one seat. Another viewer who cannot tell them apart by the events it is shown
    must not tell them apart by its view (a leak in the view), and one who can must see it in its view too
    (a leak in the events: they reveal what the view keeps secret). A few seats are tried at each table."""
    game = playthrough(ruleset_id, seats, seed)
    ruleset = game.ruleset
    rng = random.Random(seed)

    for table in game.in_progress():
        for seat in rng.sample(range(seats), min(3, seats)):
            legal = ruleset.legal_moves(table.rules, seat)
            if len(legal) < 2:
                continue
            first, second = rng.sample(legal, 2)
            shown, after = [], []
            for move in (first, second):
                events = play(ruleset, table, seat, move)
                shown.append(events)
                after.append(table)
                for event in events:
                    after[-1] = evolve(ruleset, after[-1], event)
            for viewer in [*(s for s in range(seats) if s != seat), SPECTATOR]:
                events_alike = [[table_event_view(ruleset, e, viewer) for e in events] for events in shown]
                views_alike = plain_view(ruleset, after[0], viewer) == plain_view(ruleset, after[1], viewer)
                assert (events_alike[0] == events_alike[1]) is views_alike, (
                    f"{viewer} sees {first} and {second} of seat {seat} alike in "
                    f"{'events' if not views_alike else 'its view'} only"
                )
