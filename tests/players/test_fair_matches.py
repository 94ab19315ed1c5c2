"""Nobody plays under randomness or options another player chose without saying so.

The attack: an anonymous client creates a two-seat Mobsters game with a seed of its own and one open seat. A
player who joined it would be dealt cards the attacker computes from that seed with our own rules. So a quick
match never offers such a game (nor one with options the caller did not ask for, nor one whose seats one party
may hold several of), a join takes it only with `accept_public_randomness`, the lobby and the view say so, and it
is not rated. A rematch seats nobody but its asker: every other player is invited, its seat kept for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from events.envelope import Envelope
from events.repository import event_of
from games import table as tables
from games.registry import RULESETS
from service.application.seating import QUICK_MATCH_OPTIONS
from tests.client import ApiClient, Table, assert_problem
from tests.players.helpers import bearer, create, player_id
from tests.players.test_player_feed import read

MOBSTERS = RULESETS["mobsters"]
SEED = 1234


def rigged(api: ApiClient, **body: Any) -> Table:
    """The attacker's game: two seats of Mobsters, its own seed, one seat open."""
    created = api.http.post(
        "/v1/games", json={"ruleset": "mobsters", "seats": [{"name": "Mallory"}, {"open": True}], **body}
    )
    assert created.status_code == 201, created.json
    return Table(created.json["game_id"], {t["seat"]: t["token"] for t in created.json["tokens"]}, created.json)


def predicted_hand(api: ApiClient, table: Table, seed: int, seat: int) -> list[str]:
    """The seat's first hand, computed from the seed and the public log alone, with the rules' own `start`."""
    public = [msgspec.convert(e, Envelope) for e in api.events(table)]
    created = msgspec.convert({**public[0].payload, "seed": seed, "salt": ""}, tables.GameCreated)  # all it knows
    state = tables.evolve(MOBSTERS, None, created)
    for envelope in public[1:]:
        state = tables.evolve(MOBSTERS, state, event_of(envelope), envelope.at)
        if envelope.type == "game_started":
            break
    deal = MOBSTERS.start(state.rules, tables.rng_at(state))
    return sorted(next(e.cards for e in deal if getattr(e, "seat", None) == seat and e.type == "mobsters.cards_drawn"))


def hand(api: ApiClient, game_id: str, headers: dict[str, str]) -> list[str]:
    return sorted(api.http.get(f"/v1/games/{game_id}", headers=headers).json["you"]["hand"])


def play_out(api: ApiClient, table: Table, players: tuple[str, ...], drain: Callable[[], None]) -> None:
    """The players move first legal moves, the house the rest, to the end."""
    while api.game(table)["status"] != "finished":
        for token in players:
            legal = api.http.get(f"/v1/games/{table.id}", headers=bearer(token)).json["you"]["legal_moves"]
            if legal:
                api.http.post(f"/v1/games/{table.id}/moves", json=legal[0], headers=bearer(token))
        drain()


def test_a_quick_match_never_seats_a_player_in_a_game_whose_creator_chose_the_seed(api: ApiClient) -> None:
    trap = rigged(api, seed=SEED)
    victim = api.register("Victim")
    matched = api.http.post("/v1/quick-match", json={"ruleset": "mobsters", "seats": 2}, headers=bearer(victim))
    assert matched.status_code == 201 and matched.json["created"]
    game = matched.json["game"]
    assert game["game_id"] != trap.id and game["randomness"] == "secret"
    assert game["options"] == tables.resolve_options(MOBSTERS, QUICK_MATCH_OPTIONS, 2)  # what it joined
    assert api.game(trap)["seats"][1]["open"]


def test_joining_a_game_of_public_randomness_needs_the_joiners_word_and_the_attack_then_works(
    api: ApiClient,
) -> None:
    trap = rigged(api, seed=SEED)
    listed = next(g for g in api.http.get("/v1/games?status=waiting").json if g["game_id"] == trap.id)
    assert listed["randomness"] == "public" and api.game(trap)["randomness"] == "public"
    before = api.version(trap)
    refused = assert_problem(api.join(trap, "Victim"), 409, "public_randomness_not_accepted")
    assert "seed" in refused["detail"] and api.version(trap) == before  # it changed nothing
    victim = api.register("Victim")
    assert_problem(
        api.http.post(f"/v1/games/{trap.id}/join", json={}, headers=bearer(victim)),
        409,
        "public_randomness_not_accepted",
    )
    joined = api.http.post(f"/v1/games/{trap.id}/join", json={"accept_public_randomness": True}, headers=bearer(victim))
    assert joined.status_code == 201, joined.json
    # What the joiner accepted: the creator knows its cards.
    assert predicted_hand(api, trap, SEED, 1) == hand(api, trap.id, bearer(victim))


def test_the_same_attack_on_a_game_the_service_seeded_computes_nothing(api: ApiClient) -> None:
    fair = rigged(api)
    assert api.game(fair)["randomness"] == "secret"
    joined = api.join(fair, "Victim")
    assert joined.status_code == 201
    guesses = {tuple(predicted_hand(api, fair, guess, 1)) for guess in range(20)}
    assert tuple(hand(api, fair.id, {"Authorization": f"Bearer {joined.json['token']}"})) not in guesses


def test_a_quick_match_joins_only_games_with_the_options_asked_for(api: ApiClient) -> None:
    mallory, victim = api.register("Mallory"), api.register("Victim")
    options = {"move_deadline_s": 1, "bots_after_s": 30}
    quick = create(api, mallory, [{"player": "me"}, {"open": True}], "mobsters", options=options)
    body = {"ruleset": "mobsters", "seats": 2}
    default = api.http.post("/v1/quick-match", json=body, headers=bearer(victim)).json
    assert default["created"] and default["game"]["game_id"] != quick.id
    assert default["game"]["options"]["move_deadline_s"] == QUICK_MATCH_OPTIONS["move_deadline_s"]
    other = api.register("Other")
    asked = api.http.post(
        "/v1/quick-match", json={**body, "options": {"move_deadline_s": 1}}, headers=bearer(other)
    ).json
    assert not asked["created"] and asked["game"]["game_id"] == quick.id
    assert asked["game"]["options"]["move_deadline_s"] == 1 and asked["game"]["status"] == "in_progress"
    assert_problem(
        api.http.post("/v1/quick-match", json={**body, "options": {"nope": 1}}, headers=bearer(other)),
        422,
        "invalid_option",
    )


def test_a_quick_match_skips_a_game_whose_seats_one_party_may_hold_several_of(api: ApiClient) -> None:
    # Mallory holds the tokens of two anonymous seats: two hands against the third seat's one.
    held = api.create("twelve-gangsters", seats=[{"name": "M1"}, {"name": "M2"}, {"open": True}])
    victim = api.register("Victim")
    matched = api.http.post(
        "/v1/quick-match", json={"ruleset": "twelve-gangsters", "seats": 3}, headers=bearer(victim)
    ).json
    assert matched["created"] and matched["game"]["game_id"] != held.id


def test_a_game_of_public_randomness_is_not_rated(api: ApiClient, drain: Callable[[], None]) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    table = create(api, ann, [{"player": "me"}, {"open": True}, {"bot": "random"}], seed=SEED)
    joined = api.http.post(f"/v1/games/{table.id}/join", json={"accept_public_randomness": True}, headers=bearer(bob))
    assert joined.status_code == 201
    play_out(api, table, (ann, bob), drain)
    assert api.result(table).json["tallied"]
    board = api.http.get("/v1/leaderboard?ruleset=twelve-gangsters").json["players"]
    assert board == [] and api.http.get(f"/v1/players/{player_id(api, ann)}").json["ratings"] == {}


def test_a_rematch_invites_the_other_players_and_seats_only_its_asker(
    api: ApiClient, drain: Callable[[], None]
) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    table = create(api, ann, [{"player": "me"}, {"open": True}, {"bot": "random"}], options={"move_deadline_s": 60})
    assert api.http.post(f"/v1/games/{table.id}/join", json={}, headers=bearer(bob)).status_code == 201
    play_out(api, table, (ann, bob), drain)
    notices = api.http.get("/v1/players/me/events/stream", headers=bearer(bob), buffered=False)  # from now on
    new = api.http.post(f"/v1/games/{table.id}/rematch", headers=bearer(ann)).json
    bob_id = player_id(api, bob)
    assert new["status"] == "waiting" and new["seats"][1] == {"seat": 1, "open": True, "invited": bob_id}
    assert new["seats"][0]["player"] == player_id(api, ann) and new["seats"][2]["bot"] == "random"
    rematch = Table(new["game_id"])
    listed = next(g for g in api.http.get("/v1/games?status=waiting").json if g["game_id"] == rematch.id)
    assert listed["open_seats"] == 0  # nobody else may take it
    assert_problem(api.join(rematch, "Stranger"), 409, "seat_reserved")
    stranger = api.register("Stranger")
    assert_problem(
        api.http.post(f"/v1/games/{rematch.id}/join", json={}, headers=bearer(stranger)), 409, "seat_reserved"
    )
    taken = api.http.post(f"/v1/games/{rematch.id}/join", json={}, headers=bearer(bob))
    assert taken.status_code == 201 and taken.json["seat"] == 1 and taken.json["game"]["status"] == "in_progress"
    [invitation] = read(notices, 1)
    data = msgspec.json.decode(invitation["data"])
    assert invitation["event"] == "invited"
    assert data["game_id"] == rematch.id and data["seat"] == 1 and data["rematch_of"] == table.id
