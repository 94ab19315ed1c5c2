"""Hidden information cannot be inferred from what a viewer is shown, only not displayed.

Games of every ruleset are played over HTTP, bots and a deadline included, while a seat and a spectator
record everything they are shown. Then each viewer attacks: it recomputes the hash of every event it saw
only in part from the true hidden content (the best any enumeration of cards, bullets or choices could
guess), and it replays every choice the house made for a seat with generators seeded from public facts.
Both attacks must fail."""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from events.envelope import Envelope, content_hash
from events.repository import fold
from games import table as tables
from games.bots import random_bot
from games.registry import RULESETS
from service.application.house import House
from tests.client import ApiClient, Table

GAMES = {
    "twelve-gangsters": [{"name": "Ann"}, {"bot": "random"}, {"bot": "smart"}, {"bot": "random"}],
    "cash-n-guns": [{"name": "Ann"}, {"bot": "random"}, {"bot": "smart"}, {"bot": "random"}, {"bot": "random"}],
    "mobsters": [{"name": "Ann"}, {"bot": "random"}, {"bot": "smart"}],
}
HUMAN = 0
VIEWERS = (None, HUMAN)


def all_events(api: ApiClient, table: Table, viewer: int | None, after: int = 0) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while page := api.events(table, viewer, after=after, limit=1000):
        events += page
        after = page[-1]["version"]
    return events


class Recorder:
    """Everything a viewer was shown of a game's events while it was under way, by version."""

    def __init__(self, api: ApiClient, table: Table) -> None:
        self.api, self.table = api, table
        self.seen: dict[int | None, dict[int, dict[str, Any]]] = {viewer: {} for viewer in VIEWERS}

    def look(self) -> None:
        if self.api.game(self.table)["status"] == "finished":
            return
        for viewer, seen in self.seen.items():
            for item in all_events(self.api, self.table, viewer, after=max(seen, default=0)):
                seen.setdefault(item["version"], item)

    def answer(self, body: dict[str, Any]) -> None:
        if body["game"]["status"] != "finished":
            for item in body["events"]:
                self.seen[HUMAN].setdefault(item["version"], item)


def play_to_the_end(api: ApiClient, house: House, drain: Callable[[], None], ruleset: str) -> tuple[Table, Recorder]:
    """A game with one human against bots: it plays at random, and it is late on two of every three decisions
    that leave a choice (but aiming, where lateness is the game's own rule: aiming at nobody)."""
    options = {"aim_window_s": 3600} if ruleset == "cash-n-guns" else {}
    table = api.create(ruleset, seats=GAMES[ruleset], options={**options, "move_deadline_s": 3600})
    recorder = Recorder(api, table)
    rng = random.Random(f"attacker:{ruleset}")
    choices = 0
    for _ in range(5000):
        drain()
        recorder.look()
        game = api.game(table, HUMAN)
        if game["status"] == "finished":
            return table, recorder
        legal = game["you"]["legal_moves"]
        if not legal:
            continue
        decision = next(a["decision"] for a in game["awaiting"] if a["seat"] == HUMAN)
        choices += len(legal) > 1 and decision != "aim"
        if len(legal) > 1 and decision != "aim" and choices % 3:  # late: the deadline's random bot decides
            house.clock = lambda: time.time() + 2 * 3600  # the hour is up
            house.expire(table.id, game["waiting_since"])
            continue
        response = api.send(table, HUMAN, rng.choice(game["you"]["legal_moves"]))
        assert response.status_code == 200, response.json
        recorder.answer(response.json)
    raise AssertionError("the game did not finish")


PLAYED: dict[str, dict[str, Any]] = {}
"""Each ruleset's games are played once and attacked by every test: what was shown is plain data by then."""


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest, api: ApiClient, house: House, drain: Callable[[], None]) -> dict[str, Any]:
    if request.param not in PLAYED:
        plays: list[dict[str, Any]] = []
        # A seat may die early in Ca$h 'n Guns, a game of 12 Gangsters is short: play on until the house has
        # chosen enough for seats to tell an attack from luck.
        while len(plays) < 5 and not all(luck(plays, kind)[1] <= LUCK for kind in ("bot", "deadline")):
            table, recorder = play_to_the_end(api, house, drain, request.param)
            truth = [msgspec.convert(item, Envelope) for item in all_events(api, table, None)]  # public now
            plays.append({"ruleset": request.param, "table": table, "seen": recorder.seen, "truth": truth})
        PLAYED[request.param] = {**plays[0], "plays": plays}
    return PLAYED[request.param]


def test_no_hash_a_viewer_was_shown_confirms_even_the_right_guess_at_hidden_content(game: dict[str, Any]) -> None:
    truth = {envelope.version: envelope for envelope in game["truth"]}
    attacked = 0
    for viewer, seen in game["seen"].items():
        for version, item in seen.items():
            whole = msgspec.to_builtins(truth[version])
            hidden = item["payload"] != whole["payload"] or (whole["command"] is not None and "command" not in item)
            if item.get("nonce"):
                assert not hidden, f"{viewer} was given the nonce of version {version}, which it saw only in part"
                assert item["nonce"] == whole["nonce"]
            if not hidden:
                continue
            # The guess is the true hidden content, and every field the viewer saw; only the nonce is unknown.
            guess = Envelope(**{**whole, "nonce": ""})
            assert content_hash(guess) != item["hash"], f"{viewer} confirms hidden content of version {version}"
            attacked += 1
    assert attacked > 0, "the game hid nothing from anyone"


def test_a_viewer_given_a_nonce_can_check_that_events_hash_with_what_it_was_shown(game: dict[str, Any]) -> None:
    checked = 0
    for viewer, seen in game["seen"].items():
        for version, item in seen.items():
            if item.get("nonce"):
                shown = msgspec.convert(item, Envelope)  # a field it was not shown stays empty
                assert content_hash(shown) == item["hash"], f"{viewer} was given a nonce useless at version {version}"
                checked += 1
    assert checked > 0, "no viewer could check any hash during play"


PUBLIC_SEEDS: dict[str, Callable[[str, int, int, dict[str, Any]], str]] = {
    "bot: game, version, seat": lambda game_id, version, seat, view: f"bot:{game_id}:{version}:{seat}",
    "deadline: game, wait, seat": lambda game_id, version, seat, view: (
        f"deadline:{game_id}:{view['waiting_since']}:{seat}"
    ),
    "game, version, seat": lambda game_id, version, seat, view: f"{game_id}:{version}:{seat}",
    "commitment, version, seat": lambda game_id, version, seat, view: f"{view['seed_commitment']}:{version}:{seat}",
}


def house_choices(game: dict[str, Any]) -> list[tuple[str, int, int, dict[str, Any], dict[str, Any]]]:
    """Each choice the house made for a seat: who (`bot` or `deadline`), the version it was made at, the seat,
    the seat's view then (more than any attacker has), and the move."""
    ruleset = RULESETS[game["ruleset"]]
    choices = []
    for envelope in game["truth"]:
        command = envelope.command or {}
        if command.get("name") == "move" and command.get("by") in ("bot", "deadline"):
            past = fold(ruleset, None, game["truth"][: envelope.version - 1])
            view = tables.plain_view(ruleset, past, command["seat"])
            choices.append((command["by"], envelope.version - 1, command["seat"], view, command["move"]))
    return choices


def bot_of(game: dict[str, Any], by: str, seat: int) -> Callable[[dict[str, Any], random.Random], dict[str, Any]]:
    kind = game["table"].body["seats"][seat].get("bot")
    return random_bot if by == "deadline" else RULESETS[game["ruleset"]].bots.get(kind, random_bot)


LUCK = -6.0
"""An attack must be one that luck alone passes at most once in a million (log₁₀ of the chance)."""


Choice = tuple[str, int, int, dict[str, Any], dict[str, Any], Callable[..., Any]]


def luck(plays: list[dict[str, Any]], kind: str) -> tuple[list[Choice], float]:
    """The choices of one kind (`bot` or `deadline`) that were left to chance in some games, each as the game,
    version, seat, view, move and the bot that chose it, and log₁₀ of the chance that a generator seeded from
    nothing to do with them would make every one of them again, estimated by trying many seeds. An attack
    that replays them all is a leak only if that chance is negligible."""
    uncertain, chance = [], 0.0
    for game in plays:
        for by, version, seat, view, move in house_choices(game):
            if by != kind:
                continue
            bot = bot_of(game, by, seat)
            made = [msgspec.to_builtins(bot(view, random.Random(i))) == move for i in range(TRIES)]
            if all(made):
                continue  # a choice that does not depend on chance: nothing to give away
            uncertain.append((game["table"].id, version, seat, view, move, bot))
            chance += math.log10((sum(made) + 1) / (TRIES + 1))
    return uncertain, chance


TRIES = 64


def test_no_choice_made_for_a_seat_can_be_replayed_from_public_facts(game: dict[str, Any]) -> None:
    for kind in ("bot", "deadline"):
        uncertain, chance = luck(game["plays"], kind)
        assert chance <= LUCK, f"too few {kind} choices left to chance to tell an attack from luck"
        for name, seed_of in PUBLIC_SEEDS.items():
            hits = 0
            for game_id, version, seat, view, move, bot in uncertain:
                replayed = bot(view, random.Random(seed_of(game_id, version, seat, view)))
                hits += msgspec.to_builtins(replayed) == move
            assert hits < len(uncertain), f"seeding with {name} replays every {kind} choice"


def test_a_drawn_seed_cannot_be_found_from_its_commitment(game: dict[str, Any]) -> None:
    created = game["table"].body
    assert created["randomness"] == "secret"
    commitment = created["seed_commitment"]
    assert all(hashlib.sha256(f"{seed}:".encode()).hexdigest() != commitment for seed in range(100_000))
    revealed = game["truth"][0].payload
    assert len(revealed["salt"]) >= 32  # 128 bits: the commitment hides even a guessable seed


def test_a_game_whose_creator_gave_the_seed_says_its_randomness_is_public(api: ApiClient) -> None:
    table = api.create(players=3, seed=20240601)
    assert table.body["randomness"] == "public"
    assert api.game(table)["randomness"] == "public"
    assert api.game(api.create(players=3))["randomness"] == "secret"
