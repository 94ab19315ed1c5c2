"""A game of each ruleset, played in memory by the service's own use cases, for the examples of the OpenAPI
document and of the guide: a seat's view before a move, the move and its answer, the first events of the log, the
result; one event of every type (from those games, others played like them, a rematch, a seat left, a resignation,
a game called off); and the detail of each refusal of the rules or the use cases met on the way, each tried as a
client would send it amiss (the rules' are moves met in the game, and others like them, tried where they are not
legal).

Each game is played by the random bot for every seat (steered a little in Mobsters: see `choose`), with its seed, on
the whole service graph in memory (`Services.in_memory`) with entropy a seed reproduces and a clock that ticks a
second a call, so `make spec` writes the same examples every time. The seeds are chosen so that the games meet every
event type; a change to the rules that loses one makes `examples` fail (and the tests), and other seeds are then
picked (SETTINGS, MORE_SEEDS).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import msgspec

from events.repository import NoSuchGameError
from games import table as tables
from games.base import Move, RuleError
from games.bots import random_bot
from games.registry import RULESETS
from games.table import TABLE_EVENTS
from players.state import Player
from service.application import accounts, offered, play, queries, seating
from service.application.callers import Caller
from service.application.errors import ApplicationError
from service.application.house import tally_game
from service.application.ports import SeededEntropy
from service.application.services import Services
from service.http.problems import game_not_found

START = datetime(2026, 12, 1, 7, 42, 20, 123000, tzinfo=UTC)


class Ticking:
    """A clock a second later at each call, from START."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return tables.utc_iso(START + timedelta(seconds=self.calls))


NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@dataclass(frozen=True)
class Setting:
    """How a ruleset's example game is played: its seats, options and seed, the move shown (the first of its type
    by seat 0), and how many events of the log's first page are shown."""

    game_id: str
    seats: int
    options: dict[str, Any]
    seed: int
    shown: str
    page: int = 8


SETTINGS = {
    "twelve-gangsters": Setting("1c5e9a2b7d3f4a60", 3, {"first_boss": 0}, 20261201, "play"),
    "cash-n-guns": Setting("2d6f0b3c8e4a5b71", 4, {"first_godfather": 0}, 20261202, "aim"),
    "mobsters": Setting("3e7a1c4d9f5b6c82", 3, {"first_player": 0, "attendance": True}, 20261211, "commit_crime"),
}
"""The example game of each ruleset."""

MORE_SEEDS = {"mobsters": (20261220, 20261214), "cash-n-guns": (20261209,)}
"""Games played like a ruleset's example game with other seeds, for the events it does not meet (a Boss that loses
its last mobster; a bribe) and the refusals (an aim at the dead)."""


@dataclass
class Played:
    """What a ruleset's example game shows: its creation, a seat's view before a move, the move and its answer, the
    first events of its log, its result, and one event of each type it met."""

    created: Any = None
    view: Any = None
    move: dict[str, Any] = field(default_factory=dict)
    moved: Any = None
    page: Any = None
    result: Any = None
    events: dict[str, Any] = field(default_factory=dict)


def decoded(document: bytes) -> Any:
    return msgspec.json.decode(document)


class Refusals:
    """The first detail met of each code refused."""

    def __init__(self) -> None:
        self.details: dict[str, str] = {}

    def met(self, code: str, detail: str) -> None:
        self.details.setdefault(code, detail)

    def of(self, act: Callable[[], object]) -> None:
        """Do what must be refused, and keep its refusal."""
        try:
            act()
        except (ApplicationError, RuleError) as error:
            self.met(str(error.code), error.detail)
        except NoSuchGameError as error:
            found = game_not_found(error)
            self.met(found.code, found.detail)
        else:
            raise AssertionError("an example refusal was not refused")


def first_events(services: Services, game_id: str) -> dict[str, Any]:
    """One event of each type of a finished (or aborted) game's log, as anyone sees it then."""
    game = services.repository.get(game_id)
    found: dict[str, Any] = {}
    for item in queries.event_page(services, game, None, 0, game.version)["events"]:
        found.setdefault(item["type"], item)
    return found


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A seat's move in an example game: the random bot's, but that in Mobsters seat 1 keeps one mobster in play and
    the others hit it, so that the game shows a Boss who loses its last mobster (and its operations with it)."""
    moves = view["you"]["legal_moves"]
    if view["ruleset"] == "mobsters" and view["state"]["seats"][1]["mobsters"]:
        if view["you"]["seat"] == 1:
            moves = [m for m in moves if m["type"] != "recruit"] or moves
        else:
            theirs = {m["card"] for m in view["state"]["seats"][1]["mobsters"]}
            moves = [m for m in moves if m["type"] == "hit" and m["victim"] in theirs] or moves
    return random_bot({**view, "you": {**view["you"], "legal_moves": moves}}, rng)


def words_in(value: Any) -> set[str]:
    """Every string of a view: the ids of the cards, loot and mobsters it shows."""
    if isinstance(value, dict):
        return {word for item in value.values() for word in words_in(item)}
    if isinstance(value, list):
        return {word for item in value for word in words_in(item)}
    return {value} if isinstance(value, str) else set()


def variants(move: Move, pool: list[Move], words: list[str], rng: random.Random) -> list[Move]:
    """The move with one field changed: to the value of that field in another move met, to an id the table shows,
    or, for a list of cards, to none, to a card twice, or to many."""
    found = []
    for name in move.__struct_fields__:
        value = getattr(move, name)
        changed: list[Any] = [getattr(m, name) for m in rng.sample(pool, min(3, len(pool))) if hasattr(m, name)]
        changed = [v for v in changed if type(v) is type(value)]
        if isinstance(value, tuple | list):
            shown = rng.sample(words, min(12, len(words)))
            changed += [type(value)(), type(value)([*value[:1], *value[:1]]), type(value)(shown)]
            changed += [type(value)([word]) for word in shown[:4]]
        elif isinstance(value, str):
            changed += rng.sample(words, min(6, len(words)))
        elif isinstance(value, int) and not isinstance(value, bool):
            changed += [-1, 0, 1, 2, 3]
        found += [msgspec.structs.replace(move, **{name: v}) for v in changed]
    return found


def fuzz(
    ruleset: Any, view: dict[str, Any], state: Any, seats: int, pool: list[Move], rng: random.Random, met: Refusals
) -> None:
    """Moves met in the game, and others like them, tried by seats that may not make them now: each refusal the
    rules answer, until every one of the ruleset's own is met."""
    if all(str(code) in met.details for code in ruleset.refusals):
        return
    problem = sys.modules[ruleset.refusals.__module__].problem
    words = sorted(words_in(view["state"]) | words_in(view["you"]))
    for seat in range(seats):
        for move in rng.sample(pool, min(6, len(pool))):
            for tried in [move, *variants(move, pool, words, rng)]:
                found = problem(state, seat, tried)
                if found is not None:
                    met.met(str(found[0]), found[1])


def play_out(
    ruleset_id: str, refusals: Refusals, setting: Setting | None = None
) -> tuple[Services, Played, dict[int, str]]:
    """The ruleset's example game (or one played like it), played to its tally, with the refusals met on the way;
    and its seat tokens."""
    setting = setting or SETTINGS[ruleset_id]
    ruleset = RULESETS[ruleset_id]
    services = Services.in_memory(clock=Ticking(), entropy=SeededEntropy(setting.seed))
    shown = Played()
    gid = setting.game_id
    seats = [tables.Seat(name=name) for name in NAMES[: setting.seats]]
    seats[1] = tables.Seat()
    created = play.new_game(services, ruleset_id, seats, setting.options, setting.seed, game_id=gid)
    tokens = dict(created.handed)
    handed = [{"seat": seat, "token": token} for seat, token in sorted(tokens.items())]
    shown.created = {**decoded(created.view(None)), "tokens": handed}
    refusals.of(lambda: play.make_move(services, gid, Caller(token=tokens[0]), {"type": setting.shown}))
    refusals.of(lambda: play.join_game(services, gid, NAMES[1]))
    joined, _ = play.join_game(services, gid, NAMES[1], accepts_public_randomness=True)
    tokens |= joined.handed
    refusals.of(lambda: play.join_game(services, gid, NAMES[1], accepts_public_randomness=True))
    rng = random.Random(setting.seed)
    pool: list[Move] = []
    early: list[tuple[dict[str, Any], Any]] = []  # the setup's states, tried again once every kind of move is met
    while (game := services.repository.get(gid)).table.status is not tables.Status.FINISHED:
        table = game.table
        seat = min(ruleset.awaiting(table.rules))
        view = tables.plain_view(ruleset, table, seat)
        body = choose(view, random.Random(f"{setting.seed}:{table.version}"))
        move = ruleset.parse_move(body)
        if len(pool) < 400 and move not in pool:
            pool.append(move)
        if len(early) < 20:
            early.append((view, table.rules))
        if not shown.move and seat == 0 and body["type"] == setting.shown:
            shown.view = decoded(queries.view(services, gid, tokens[0]))
            shown.move = body
            shown.moved = move_shown(services, gid, tokens[0], body, table.version, refusals)
            continue
        fuzz(ruleset, view, table.rules, setting.seats, pool, rng, refusals)
        play.make_move(services, gid, Caller(token=tokens[seat]), body)
    for view, state in early:
        fuzz(ruleset, view, state, setting.seats, pool, rng, refusals)
    refusals.of(lambda: play.make_move(services, gid, Caller(token=tokens[0]), shown.move))
    tally_game(services, gid)
    game = services.repository.get(gid)
    shown.page = queries.event_page(services, game, None, 0, setting.page)
    shown.result = decoded(queries.result(services, gid))
    shown.events = first_events(services, gid)
    return services, shown, tokens


def move_shown(services: Services, gid: str, token: str, body: dict[str, Any], version: int, refusals: Refusals) -> Any:
    """The move shown, and its answer; refused first as it would be sent amiss."""
    refusals.of(lambda: play.make_move(services, gid, Caller(token=token), body, if_match=version - 1))
    refusals.of(lambda: play.make_move(services, gid, Caller(token="nope"), body))
    refusals.of(lambda: play.make_move(services, gid, Caller(token=token), {"type": "dance"}))
    refusals.of(lambda: play.make_move(services, gid, Caller(token=token), {**body, "x": 1}))
    moved = play.make_move(services, gid, Caller(token=token), body, idempotency_key="k1")
    refusals.of(lambda: play.make_move(services, gid, Caller(token=token), {"type": "x"}, None, "k1"))
    return decoded(moved.document)


def table_life(refusals: Refusals) -> dict[str, Any]:
    """The events and refusals of a table's life beyond a game played out: a rematch, a seat left, a resignation, a
    game called off, one started with bots, players; and the refusals of the use cases met on the way."""
    ruleset_id = "twelve-gangsters"
    services, _, tokens = play_out(ruleset_id, refusals)
    gid = SETTINGS[ruleset_id].game_id
    found: dict[str, Any] = {}
    seating.rematch_game(services, gid, tokens[0])
    refusals.of(lambda: seating.rematch_game(services, gid, tokens[1]))
    found |= first_events(services, gid)
    # Cat opens a game; Dan joins and leaves; Pat, a player, joins; Cat calls it off.
    pat, _, pat_token = accounts.register_player(services, "Pat")
    cat = play.new_game(services, ruleset_id, [tables.Seat(name="Cat"), tables.Seat(), tables.Seat()], {}, 7)
    waiting = cat.game.game_id
    cat_token = cat.handed[0]
    refusals.of(lambda: seating.rematch_game(services, waiting, cat_token))
    refusals.of(lambda: play.make_move(services, waiting, Caller(token=cat_token), {"type": "play", "card": 7}))
    dan, _ = play.join_game(services, waiting, "Dan", accepts_public_randomness=True)
    refusals.of(lambda: seating.abort_game(services, waiting, dan.handed[1]))
    seating.leave_game(services, waiting, dan.handed[1])
    play.join_game(services, waiting, None, pat, accepts_public_randomness=True)
    refusals.of(lambda: play.join_game(services, waiting, None, pat, accepts_public_randomness=True))
    refusals.of(lambda: queries.result(services, waiting))
    seating.abort_game(services, waiting, cat_token)
    refusals.of(lambda: queries.result(services, waiting))
    found |= {t: e for t, e in first_events(services, waiting).items() if t not in found}
    # Eve, Fay and Gus play; Gus resigns, and again; his seat's moves are the house's from then on.
    eve = play.new_game(services, ruleset_id, [tables.Seat(name=n) for n in ("Eve", "Fay", "Gus")], {}, 8)
    gus = eve.handed[2]
    started = eve.game.game_id
    seating.resign_game(services, started, gus)
    refusals.of(lambda: seating.resign_game(services, started, gus))
    refusals.of(lambda: play.make_move(services, started, Caller(token=gus), {"type": "play", "card": 7}))
    found |= {t: e for t, e in first_events(services, started).items() if t not in found}
    found |= {t: e for t, e in open_setup(services).items() if t not in found}
    # Hal opens a game with bots after a wait; Ivy joins and may not start it; Hal starts it with the bots.
    hal = play.new_game(services, ruleset_id, [tables.Seat(name="Hal"), tables.Seat(), tables.Seat()], {}, 9)
    ivy, _ = play.join_game(services, hal.game.game_id, "Ivy", accepts_public_randomness=True)
    refusals.of(lambda: seating.start_with_bots(services, hal.game.game_id, ivy.handed[1]))
    seating.start_with_bots(services, hal.game.game_id, hal.handed[0])
    found |= {t: e for t, e in first_events(services, hal.game.game_id).items() if t not in found}
    # Kim asks the house to pass some of her Mobsters phases for her; not her setup, which nothing passes.
    kim = play.new_game(services, "mobsters", [tables.Seat(name="Kim"), tables.Seat(name="Lee")], {}, 10)
    seating.set_auto_pass(services, kim.game.game_id, kim.handed[0], ["hit", "crime"])
    refusals.of(lambda: seating.set_auto_pass(services, kim.game.game_id, kim.handed[0], ["setup"]))
    found |= {t: e for t, e in first_events(services, kim.game.game_id).items() if t not in found}
    invited(services, refusals)
    # Setups refused, players refused.
    refusals.of(lambda: play.new_game(services, "chess", [tables.Seat(name="Ann")], {}, None))
    refusals.of(lambda: play.new_game(services, ruleset_id, [tables.Seat(name="Ann")], {}, None))
    refusals.of(lambda: play.new_game(services, ruleset_id, [tables.Seat(bot="genius")] * 3, {}, None))
    refusals.of(lambda: play.new_game(services, ruleset_id, [tables.Seat(name="Ann")] * 3, {"jokers": 2}, None))
    me = [{"player": "me"}, {"player": "me"}, {"bot": "random"}]
    player: Player = accounts.authenticate(services, pat_token)
    refusals.of(lambda: play.create_game(services, ruleset_id, me, {}, None, player))
    refusals.of(lambda: offered.catalogue("chess"))
    refusals.of(lambda: accounts.register_player(services, "pat"))
    refusals.of(lambda: accounts.register_player(services, "\u0420at"))
    refusals.of(lambda: accounts.revoke_token(services, player, "0000000000000000"))
    refusals.of(lambda: accounts.player_by_id(services, "0000000000000000"))
    refusals.of(lambda: queries.view(services, "0123456789abcdef", None))
    game = services.repository.get(gid)
    refusals.of(lambda: queries.state_at(services, game, game.version + 1, None))
    refusals.of(lambda: tables.timeout(RULESETS[ruleset_id], game.table, game.table.wait_since))
    for _ in range(40):
        try:
            accounts.issue_token(services, accounts.authenticate(services, pat_token))
        except ApplicationError as error:
            refusals.met(str(error.code), error.detail)
            break
    return found


def invited(services: Services, refusals: Refusals) -> None:
    """A game whose open seat is kept for a player (as a rematch keeps one for each player it invites): somebody
    else asks for it."""
    joe, _, _ = accounts.register_player(services, "Joe")
    seats = [tables.Seat(name="Kim"), tables.Seat(invited=joe.player_id), tables.Seat(bot="random")]
    game_id = play.new_game(services, "twelve-gangsters", seats, {}, None).game.game_id
    refusals.of(lambda: play.join_game(services, game_id, "Zed"))


def open_setup(services: Services) -> dict[str, Any]:
    """The events of a Mobsters game with the setup of the games stored before it was secret: a seat dealt no
    mobster keeps its hand, in public."""
    ruleset = RULESETS["mobsters"]
    for seed in range(100):
        seats = [tables.Seat(name=n) for n in ("Ivy", "Joe")]
        created = play.new_game(services, ruleset.id, seats, {"open_setup": True}, seed)
        game = created.game
        awaited = sorted(ruleset.awaiting(game.table.rules))
        if awaited and game.table.rules is not None and game.table.rules.turn == 0:
            caller = Caller(token=created.handed[awaited[0]])
            play.make_move(services, game.game_id, caller, {"type": "keep_hand"})
            return first_events(services, game.game_id)
    raise ValueError("no seed deals a hand without a mobster")


@dataclass(frozen=True)
class Examples:
    """Everything the example games show: each ruleset's game, one event of every type, and the detail of each
    refusal met."""

    games: dict[str, Played]
    events: dict[str, Any]
    refusals: dict[str, str]


@cache
def examples() -> Examples:
    """The example games, played once per process."""
    refusals = Refusals()
    games = {ruleset_id: play_out(ruleset_id, refusals)[1] for ruleset_id in SETTINGS}
    found: dict[str, Any] = {}
    for played in games.values():
        found |= {t: e for t, e in played.events.items() if t not in found}
    for ruleset_id, seeds in MORE_SEEDS.items():
        for seed in seeds:
            setting = replace(SETTINGS[ruleset_id], seed=seed)
            found |= {t: e for t, e in play_out(ruleset_id, refusals, setting)[1].events.items() if t not in found}
    found |= {t: e for t, e in table_life(refusals).items() if t not in found}
    every = [e.type for e in TABLE_EVENTS] + [e.type for r in RULESETS.values() for e in r.events]
    missing = [event_type for event_type in every if event_type not in found]
    if missing:
        raise ValueError(f"the example games meet no {missing}: play them with other seeds (SETTINGS, MORE_SEEDS)")
    return Examples(games, {event_type: found[event_type] for event_type in every}, dict(refusals.details))
