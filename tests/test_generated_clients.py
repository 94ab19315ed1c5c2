"""Clients generated from the committed OpenAPI document work: a Python client (openapi-python-client) plays a
whole game of every ruleset through its typed models; openapi-typescript types a move as a discriminated union,
and what it writes compiles with `tsc --strict`, as does the client @hey-api/openapi-ts generates; and
`redocly lint` finds nothing wrong with the document (the recommended rules; redocly.yaml turns off one, with
why). The document is generated from once per session, as a client developer would; the Node tools are pinned and
installed with npm once per session, and their tests skipped only where npm is not on PATH."""

from __future__ import annotations

import inspect
import os
import random
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from flask import Flask

from games.registry import RULESETS
from games.schema import prefix
from tests.generated_client import ROOT, SPEC, client_for, sub

OPENAPI_TYPESCRIPT = "openapi-typescript@7.13.0"
TYPESCRIPT = "typescript@5.9.3"
HEY_API = "@hey-api/openapi-ts@0.99.0"
HEY_API_CLIENT = "@hey-api/client-fetch"
"""Its default client plugin, bundled with it (so pinned with it)."""
REDOCLY = "@redocly/cli@2.77.0"
NODE_TOOLS = [OPENAPI_TYPESCRIPT, TYPESCRIPT, HEY_API, REDOCLY]
TSC = ["--strict", "--noEmit", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler"]
TSC_LIBS = ["--lib", "es2022,dom,dom.iterable"]
"""`tsc --strict --noEmit` for code that runs in a browser (a fetch client iterates URLSearchParams)."""
MAX_TURNS = 5000


SEATS = {"twelve-gangsters": 3, "cash-n-guns": 4, "mobsters": 2}


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_a_generated_python_client_plays_a_whole_game_through_its_typed_models(
    ruleset_id: str, client_package: ModuleType, app: Flask, drain: Callable[[], None]
) -> None:
    models = sub(client_package, "models")
    games = sub(client_package, "api.games")
    history = sub(client_package, "api.history")
    p = prefix(RULESETS[ruleset_id])
    game_type = getattr(models, f"{p}Game")
    move_types = tuple(getattr(models, p + m.__name__) for m in RULESETS[ruleset_id].moves)
    rng = random.Random(ruleset_id)

    seats = [models.NamedSeatSpec(name="Tester")]
    seats += [models.BotSeatSpec(bot="random") for _ in range(SEATS[ruleset_id] - 1)]
    body = getattr(models, f"{p}CreateGame")(ruleset=ruleset_id, seats=seats, seed=7)
    created = sub(games, "create_game").sync(client=client_for(client_package, app), body=body)
    assert isinstance(created, getattr(models, f"{p}CreatedGame")), created
    [token] = created.tokens
    player = client_for(client_package, app, token.token)
    game_id = created.game_id

    moves = 0
    for _ in range(MAX_TURNS):
        drain()  # the bots' turns
        game = sub(games, "get_game").sync(game_id, client=player)
        assert isinstance(game, game_type), game
        if str(game.status) == "finished":
            break
        legal = game.you.legal_moves
        if not legal:
            continue
        assert all(isinstance(move, move_types) for move in legal)
        answer = sub(games, "make_move").sync(game_id, client=player, body=rng.choice(legal))
        assert isinstance(answer, models.MoveResult), answer
        assert isinstance(answer.game, game_type)
        moves += 1
    else:
        pytest.fail(f"no end after {MAX_TURNS} looks")

    assert moves > 0
    page = sub(history, "list_events").sync(game_id, client=player, limit=1000)
    assert isinstance(page, models.EventPage)
    assert [e.version for e in page.events] == list(range(1, len(page.events) + 1))
    assert all(type(e).__name__.endswith("Event") for e in page.events)
    then = sub(history, "get_state_at_version").sync(game_id, 3, client=player)
    assert isinstance(then, game_type)
    result = sub(games, "get_result").sync(game_id, client=client_for(client_package, app))
    assert isinstance(result, models.GameResult)
    assert len(result.scores) == SEATS[ruleset_id]


def test_a_generated_python_client_reads_problems_and_the_catalogue(client_package: ModuleType, app: Flask) -> None:
    models = sub(client_package, "models")
    anyone = client_for(client_package, app)
    missing = sub(client_package, "api.games.get_game").sync("0123456789abcdef", client=anyone)
    assert isinstance(missing, models.Problem)
    assert (missing.status, missing.code) == (404, "game_not_found")
    rulesets = sub(client_package, "api.rulesets.list_rulesets").sync(client=anyone)
    assert [r.id for r in rulesets] == list(RULESETS)


def test_a_generated_python_client_needs_a_token_only_where_the_service_does(client_package: ModuleType) -> None:
    """An operation whose token is optional takes a plain `Client`; one that needs a token, an `AuthenticatedClient`."""
    api = sub(client_package, "api")

    authenticated, plain = client_package.AuthenticatedClient, client_package.Client

    def client_type(module: str) -> Any:
        return inspect.signature(sub(api, module).sync).parameters["client"].annotation

    optional = ("games.get_game", "history.list_events", "history.get_state_at_version", "history.stream_events")
    for module in (*optional, "games.create_game", "games.join_game"):
        assert client_type(module) == authenticated | plain, module
    for public in ("rulesets.list_rulesets", "games.get_result", "players.register_player"):
        assert client_type(public) == authenticated | plain, public
    for needed in ("games.make_move", "games.resign_game", "players.get_me"):
        assert client_type(needed) is authenticated, needed


def test_a_generated_python_client_reads_again_only_what_changed_and_joins_as_a_player(
    client_package: ModuleType, app: Flask
) -> None:
    """A conditional read of a game that has not moved is a 304 the client takes (no body to parse); a player's
    join, which hands out no seat token, parses too."""
    models = sub(client_package, "models")
    games = sub(client_package, "api.games")
    anyone = client_for(client_package, app)
    seats = [models.NamedSeatSpec(name="Ann"), models.OpenSeatSpec(open_=True), models.BotSeatSpec(bot="random")]
    options = models.TwelveGangstersOptions(first_boss=0)
    body = models.TwelveGangstersCreateGame(ruleset="twelve-gangsters", seats=seats, options=options, seed=7)
    created = sub(games, "create_game").sync(client=anyone, body=body)
    game_id = created.game_id
    for read in (sub(games, "get_game"), sub(client_package, "api.history.list_events")):
        first = read.sync_detailed(game_id, client=anyone)
        assert first.status_code == 200 and first.parsed is not None
        again = read.sync_detailed(game_id, client=anyone, if_none_match=first.headers["ETag"])
        assert (again.status_code, again.content, again.parsed) == (304, b"", None)
        assert again.headers["ETag"] == first.headers["ETag"]

    registered = sub(client_package, "api.players.register_player").sync(
        client=anyone, body=models.RegisterPlayer(name="Pat")
    )
    player = client_for(client_package, app, registered.token)
    joined = sub(games, "join_game").sync(game_id, client=player, body=models.Join(accept_public_randomness=True))
    assert isinstance(joined, models.Joined), joined
    assert joined.seat == 1 and not joined.token
    assert isinstance(joined.game, models.TwelveGangstersGame)


@pytest.fixture(scope="session")
def node_tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Node tools (openapi-typescript, TypeScript, @hey-api/openapi-ts, Redocly CLI), installed with npm (pinned
    versions) into a directory of this session: its `node_modules/.bin`."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not on PATH: the TypeScript clients are not generated nor the document linted")
    tools = tmp_path_factory.mktemp("node-tools")
    done = subprocess.run(
        [npm, "install", "--prefix", str(tools), "--no-audit", "--no-fund", "--loglevel=error", *NODE_TOOLS],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return tools / "node_modules" / ".bin"


@pytest.fixture(scope="session")
def openapi_typescript(node_tools: Path) -> Path:
    return node_tools / "openapi-typescript"


def tsc(node_tools: Path, *files: Path) -> None:
    """`tsc --strict --noEmit` of these files: fails the test with what it says."""
    done = subprocess.run(
        [str(node_tools / "tsc"), *TSC, *TSC_LIBS, *map(str, files)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_openapi_typescript_types_a_move_as_a_union_of_literal_types(openapi_typescript: Path, tmp_path: Path) -> None:
    output = tmp_path / "syndicate.ts"
    done = subprocess.run(
        [str(openapi_typescript), str(SPEC), "--output", str(output)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    typescript = output.read_text()
    moves = [prefix(r) + m.__name__ for r in RULESETS.values() for m in r.moves]
    union = " | ".join(f'components["schemas"]["{name}"]' for name in moves)
    assert f"Move: {union};" in typescript
    for ruleset in RULESETS.values():
        for move in ruleset.moves:
            declaration = typescript.split(f"        {prefix(ruleset)}{move.__name__}: {{", 1)[1].split("};", 1)[0]
            assert f'type: "{move.__struct_config__.tag}";' in declaration


def test_what_openapi_typescript_writes_compiles_strictly(
    openapi_typescript: Path, node_tools: Path, tmp_path: Path
) -> None:
    output = tmp_path / "syndicate.ts"
    done = subprocess.run(
        [str(openapi_typescript), str(SPEC), "--output", str(output)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    tsc(node_tools, output)
    # The unions the document declares are unions in TypeScript: a seat spec is exactly one of its shapes, and a
    # new game's options are its ruleset's.
    usage = tmp_path / "usage.ts"
    usage.write_text(
        """import type { components } from "./syndicate";
type Schemas = components["schemas"];
export const seats: Schemas["SeatSpec"][] = [{ name: "Ann" }, { open: true }, { bot: "smart" }, { player: "me" }];
export const game: Schemas["CreateGame"] = { ruleset: "twelve-gangsters", seats, seed: 7 };
// openapi-typescript types an option with a default as always there (its defaultNonNullable): null is the default
const mobsters = { attendance: true, first_player: null, move_deadline_s: null, bots_after_s: null, open_setup: null };
export const options: Schemas["CreateGame"] = { ruleset: "mobsters", seats, options: mobsters };
// @ts-expect-error: a seat spec is one of its shapes, never none
export const none: Schemas["SeatSpec"] = {};
// @ts-expect-error: an open seat is open
export const closed: Schemas["SeatSpec"] = { open: false };
// @ts-expect-error: no such bot
export const bot: Schemas["SeatSpec"] = { bot: "clever" };
// @ts-expect-error: Mobsters has no first_boss
export const other: Schemas["CreateGame"] = { ruleset: "mobsters", seats, options: { ...mobsters, first_boss: 0 } };
// @ts-expect-error: the quick match's seat count is seat_count
export const quick: Schemas["QuickMatch"] = { ruleset: "mobsters", seats: 2 };
"""
    )
    tsc(node_tools, usage)


def test_hey_api_generates_a_client_that_compiles_strictly(node_tools: Path, tmp_path: Path) -> None:
    output = tmp_path / "client"
    command = [str(node_tools / "openapi-ts"), "--input", str(SPEC), "--output", str(output)]
    done = subprocess.run(
        [*command, "--client", HEY_API_CLIENT, "--no-log-file"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sdk = (output / "sdk.gen.ts").read_text()
    for operation in ("createGame", "getGame", "makeMove", "listEvents", "streamEvents", "listRulesets"):
        assert f"export const {operation} = " in sdk, operation
    tsc(node_tools, output / "index.ts")


def test_redocly_lints_the_document_clean(node_tools: Path) -> None:
    """The recommended rules, and redocly.yaml, which turns off only what it says why of: no error, no warning."""
    done = subprocess.run(
        [str(node_tools / "redocly"), "lint", "--config", "redocly.yaml", "--format", "stylish", str(SPEC)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"},
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "Woohoo! Your API description is valid." in said, said
    assert not re.search(r"^\s+\d+:\d+\s+(error|warning)\b", said, re.MULTILINE), said
