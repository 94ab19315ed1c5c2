"""Games stored before the Mobsters setup was secret (`game_created` v1, no `open_setup` option) still replay
and audit: the upcaster fills in the option with the value they were played with. Stored events are never
rewritten; these logs are written as that code wrote them."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from events.envelope import GENESIS, Envelope, sealed
from events.repository import Game, event_of, fold, seal
from games import table as tables
from games.base import FormatRefusal, MoveFormatError
from games.bots import random_bot
from games.commands import CreateGame, MakeMove, TallyGame
from games.mobsters import RULESET
from games.mobsters.state import Phase
from games.registry import RULESETS
from games.table import Seat
from service.application.audit import audit_log

GAME_ID = "0123456789abcdef"


def played(ruleset_id: str, options: dict[str, Any], seed: int, moves: int, seats: int = 3) -> list[Envelope]:
    """A game of bots, each batch sealed with the command that made it, as the service stores it."""
    ruleset = RULESETS[ruleset_id]
    bots = [Seat(bot="random")] * seats
    created = tables.create(ruleset, GAME_ID, bots, options, seed, "salt", "")
    decision = seal(ruleset, None, created, CreateGame(), None, "")
    envelopes, game = list(decision.envelopes), decision.after
    rng = random.Random(seed)
    for _ in range(moves):
        owed = ruleset.awaiting(game.table.rules)
        if not owed or game.table.status is tables.Status.FINISHED:
            break
        seat = min(owed)
        move = random_bot(tables.plain_view(ruleset, game.table, seat), rng)
        events = tables.play(ruleset, game.table, seat, ruleset.parse_move(move))
        decision = seal(ruleset, game, events, MakeMove(seat=seat, move=move), seat, "")
        envelopes += decision.envelopes
        game = Game(ruleset, decision.after.table, decision.after.head_hash)
    return envelopes


def as_v1(envelopes: list[Envelope], without: str) -> list[Envelope]:
    """The log as it was stored before: `game_created` at schema version 1, without the later option; the hash
    chain sealed over that content."""
    first = envelopes[0]
    payload = {**first.payload, "options": {k: v for k, v in first.payload["options"].items() if k != without}}
    return chained([msgspec.structs.replace(first, schema_version=1, payload=payload), *envelopes[1:]])


def chained(envelopes: list[Envelope]) -> list[Envelope]:
    """The envelopes sealed again, each linked to the one before."""
    out: list[Envelope] = []
    for envelope in envelopes:
        out.append(sealed(msgspec.structs.replace(envelope, prev_hash=out[-1].hash if out else GENESIS)))
    return out


def a_seed_dealing_a_seat_no_mobster() -> int:
    for seed in range(100):
        created = tables.create(RULESET, GAME_ID, [Seat(bot="random")] * 3, {"open_setup": True}, seed, "salt", "")
        state = tables.evolve(RULESET, None, created[0])
        for event in created[1:]:
            state = tables.evolve(RULESET, state, event)
        if state.rules.phase is Phase.SETUP:
            return seed
    raise AssertionError("no seed dealt a seat no mobster")


def test_a_mobsters_game_stored_before_the_secret_setup_replays_and_audits() -> None:
    seed = a_seed_dealing_a_seat_no_mobster()
    log = as_v1(played("mobsters", {"open_setup": True}, seed, moves=60), without="open_setup")
    assert "open_setup" not in log[0].payload["options"] and log[0].schema_version == 1
    assert any(e.type in ("mobsters.hand_kept", "mobsters.cards_discarded") for e in log)

    report = audit_log(GAME_ID, log)
    table = fold(RULESET, None, log)

    assert report.ok, report.problems
    assert table is not None and table.rules.open_setup
    assert table.options["open_setup"] is True
    assert event_of(log[0]).options["open_setup"] is True  # type: ignore[attr-defined]


def test_the_same_log_claiming_the_secret_setup_does_not_audit() -> None:
    log = played("mobsters", {"open_setup": True}, a_seed_dealing_a_seat_no_mobster(), moves=20)
    payload = {**log[0].payload, "options": {**log[0].payload["options"], "open_setup": False}}

    report = audit_log(GAME_ID, chained([msgspec.structs.replace(log[0], payload=payload), *log[1:]]))

    assert not report.ok
    assert report.problems[0]["check"] == "decision"


def test_a_game_of_another_ruleset_stored_at_v1_reads_as_it_was() -> None:
    log = as_v1(played("twelve-gangsters", {}, 3, moves=9), without="")

    assert audit_log(GAME_ID, log).ok
    assert event_of(log[0]).options == log[0].payload["options"]  # type: ignore[attr-defined]


def as_before_victim(envelopes: list[Envelope]) -> list[Envelope]:
    """The log as it was stored when a hit named the mobster it hit `target` (a seat, everywhere else): in the
    move recorded with the batch, and in `hit_attempted` at schema version 1."""

    def old(envelope: Envelope) -> Envelope:
        command = envelope.command
        if command and command.get("move", {}).get("type") == "hit":
            move = {("target" if k == "victim" else k): v for k, v in command["move"].items()}
            envelope = msgspec.structs.replace(envelope, command={**command, "move": move})
        if envelope.type == "mobsters.hit_attempted":
            payload = {("target" if k == "victim" else k): v for k, v in envelope.payload.items()}
            envelope = msgspec.structs.replace(envelope, schema_version=1, payload=payload)
        return envelope

    return chained([old(e) for e in envelopes])


def test_a_mobsters_game_stored_when_a_hit_named_its_target_replays_and_audits() -> None:
    logs = (played("mobsters", {}, seed, moves=300) for seed in range(20))
    new = next(log for log in logs if any(e.type == "mobsters.hit_attempted" for e in log))
    log = as_before_victim(new)
    hits = [e for e in log if e.type == "mobsters.hit_attempted"]
    assert hits and all("target" in e.payload and e.schema_version == 1 for e in hits)
    assert any(e.command and e.command["move"].get("target") for e in log if e.command and "move" in e.command)

    assert audit_log(GAME_ID, log).ok
    assert fold(RULESET, None, log) == fold(RULESET, None, new)
    assert [event_of(e) for e in hits] == [event_of(e) for e in new if e.type == "mobsters.hit_attempted"]


def test_a_hit_sent_with_the_old_name_is_refused_with_the_new_one() -> None:
    body = {"type": "hit", "mobster": "mobster:lucky", "card": "hit:sniper", "target": "mobster:tony"}

    with pytest.raises(MoveFormatError) as refused:
        RULESET.parse_move(body)

    assert refused.value.code == FormatRefusal.UNKNOWN_FIELD
    assert "'target'" in refused.value.detail and "now 'victim'" in refused.value.detail
    now = {"type": "hit", "mobster": "mobster:lucky", "card": "hit:sniper", "victim": "mobster:tony"}
    assert RULESET.parse_move(body, strict=False) == RULESET.parse_move(now)


def tallied(ruleset_id: str, seed: int) -> list[Envelope]:
    """A whole game of bots and its tally, sealed as the service stores them."""
    ruleset = RULESETS[ruleset_id]
    log = played(ruleset_id, {}, seed, moves=1000)
    game = fold(ruleset, None, log)
    assert game is not None and game.status is tables.Status.FINISHED
    head = Game(ruleset, game, log[-1].hash)
    return log + list(seal(ruleset, head, tables.tally(ruleset, game), TallyGame(), None, "").envelopes)


def with_tally_details(log: list[Envelope], details: dict[str, Any]) -> list[Envelope]:
    tally = log[-1]
    result = {**tally.payload["result"], "details": details}
    return chained([*log[:-1], msgspec.structs.replace(tally, payload={**tally.payload, "result": result})])


def test_a_twelve_gangsters_game_tallied_before_its_result_had_details_audits() -> None:
    log = tallied("twelve-gangsters", 5)
    assert log[-1].type == "game_tallied" and log[-1].payload["result"]["details"]["seats"]

    assert audit_log(GAME_ID, with_tally_details(log, {})).ok


def test_a_tally_with_other_details_or_scores_than_the_rules_decide_does_not_audit() -> None:
    log = tallied("twelve-gangsters", 5)
    wrong = {"seats": [{**seat, "succeeded": []} for seat in log[-1].payload["result"]["details"]["seats"]]}
    tally = log[-1]
    scores = [score + 1 for score in tally.payload["result"]["scores"]]
    inflated = {**tally.payload, "result": {**tally.payload["result"], "details": {}, "scores": scores}}

    overstated = chained([*log[:-1], msgspec.structs.replace(tally, payload=inflated)])
    for forged in (with_tally_details(log, wrong), overstated):
        report = audit_log(GAME_ID, forged)
        assert not report.ok
        assert report.problems[0]["check"] == "decision"
