"""Registered players: each one's own log (registered, token issued, token revoked) and the state it folds to.

A player's keys share the hash tag `{<player id>}`: the log, and beside it the state (name, token hashes) that
each commit writes with its events, as a game's snapshot is written with its. Names are claimed in one hash of
their own (`{players}`), by HSETNX, under `name_key`: two players can never hold one name, however it is
spelled. Claiming a name and writing the player are two steps, on two slots; a claim whose player was never
written is taken over.
"""

from __future__ import annotations

import hmac
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
import redis

from events import keys
from events.replication import Replication

Reply = Any


class PlayerEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One fact of a player's log: `player_registered` {player_id, name}, `player_token_issued` {token_id,
    digest}, `player_token_revoked` {token_id}."""

    version: int
    type: str
    schema_version: int = 1
    payload: dict[str, Any]
    at: str


class TokenRecord(msgspec.Struct, frozen=True):
    digest: str
    issued_at: str


class Player(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    created_at: str
    version: int
    tokens: dict[str, TokenRecord] = {}


def evolve(player: Player | None, event: PlayerEvent) -> Player:
    """The player after one event of its log."""
    p = event.payload
    if event.type == "player_registered":
        return Player(player_id=p["player_id"], name=p["name"], created_at=event.at, version=event.version)
    assert player is not None, "a player's log starts with player_registered"
    tokens = dict(player.tokens)
    if event.type == "player_token_issued":
        tokens[p["token_id"]] = TokenRecord(p["digest"], event.at)
    elif event.type == "player_token_revoked":
        tokens.pop(p["token_id"], None)
    return msgspec.structs.replace(player, tokens=tokens, version=event.version)


def fold(events: Sequence[PlayerEvent]) -> Player | None:
    player = None
    for event in events:
        player = evolve(player, event)
    return player


def token_matches(player: Player, token_id: str, digest: str) -> bool:
    """Whether the token of this id is live and hashes to `digest` (compared in constant time)."""
    record = player.tokens.get(token_id)
    return record is not None and hmac.compare_digest(record.digest, digest)


def name_key(name: str) -> str:
    """What makes two names one: Unicode's compatibility normalisation with its case folded (NFKC_Casefold), so
    neither case nor a precomposed, decomposed, fullwidth or ligatured spelling tells them apart."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


class StalePlayerError(Exception):
    """Another change to the player landed first."""


_COMMIT = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
for i = 3, #ARGV do redis.call('XADD', KEYS[1], (tonumber(ARGV[1]) + i - 2) .. '-0', 'e', ARGV[i]) end
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""

CLAIM_PENDING_S = 30
"""How long a registration has, from its claim of a name, to write its player before the claim may be taken."""

# KEYS: the names, the claimant's pending marker. ARGV: the casefolded name, the claimant, CLAIM_PENDING_S.
_CLAIM = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('SET', KEYS[2], 1, 'EX', ARGV[3])
return 1
"""

# A claim whose registration died before writing its player, once its pending marker has expired.
# KEYS: the names, the owner's pending marker, the claimant's. ARGV: the name, the owner, the claimant, the TTL.
_TAKE_OVER = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SET', KEYS[3], 1, 'EX', ARGV[4])
return 1
"""

encode = msgspec.json.Encoder().encode
decode_event = msgspec.json.Decoder(PlayerEvent).decode
decode_player = msgspec.json.Decoder(Player).decode


class PlayerStore:
    """`replication`: how many replicas must hold a player's change or a name claim before it is answered (a
    token handed out that a failover loses would open nothing; a lost claim would let a second player take the
    name)."""

    def __init__(self, client: redis.Redis, replication: Replication | None = None) -> None:
        self.redis = client
        self.replication = replication or Replication()
        self._commit = client.register_script(_COMMIT)
        self._claim = client.register_script(_CLAIM)
        self._take_over = client.register_script(_TAKE_OVER)

    def claim_name(self, name: str, player_id: str) -> bool:
        """Claim a name (its `name_key`) for a player; False if a player holds it or a registration is writing it."""
        folded, names, mine = name_key(name), keys.player_names(), keys.name_claim_pending(player_id)
        if self._replicated(self._claim, [names, mine], [folded, player_id, CLAIM_PENDING_S]):
            return True
        owner: Reply = self.redis.hget(names, folded)
        if owner is None or self.get(owner.decode()) is not None:
            return False
        # The claim of a registration that never wrote its player: take it over once its time has run out,
        # unless it just changed hands.
        pending = keys.name_claim_pending(owner.decode())
        return bool(
            self._replicated(self._take_over, [names, pending, mine], [folded, owner, player_id, CLAIM_PENDING_S])
        )

    def _replicated(self, script: Any, script_keys: list[str], args: list[Any]) -> Any:
        """Run a script on its keys' master, answered once the replicas asked for hold what it wrote."""
        return self.replication.write(
            self.redis, script_keys[0], lambda target: script(keys=script_keys, args=args, client=target)
        )

    def get(self, player_id: str) -> Player | None:
        raw: Reply = self.redis.get(keys.player_state(player_id))
        return decode_player(raw) if raw else None

    def commit(self, before: Player | None, events: Sequence[PlayerEvent]) -> Player:
        """Append events at the player's version, with the state they leave; StalePlayerError if it moved."""
        after = before
        for event in events:
            after = evolve(after, event)
        assert after is not None
        expected = before.version if before else 0
        player_keys = [keys.player_events(after.player_id), keys.player_state(after.player_id)]
        args: list[Any] = [expected, encode(after), *map(encode, events)]
        if not self._replicated(self._commit, player_keys, args):
            raise StalePlayerError(after.player_id)
        return after

    def log(self, player_id: str) -> list[PlayerEvent]:
        entries: Reply = self.redis.xrange(keys.player_events(player_id))
        return [decode_event(fields[b"e"]) for _, fields in entries]

    def rewrite(self, player: Player) -> None:
        """Write a player's state and name claim as its log leaves them (a rebuild)."""
        self.redis.set(keys.player_state(player.player_id), encode(player))
        self.redis.hset(keys.player_names(), name_key(player.name), player.player_id)

    def player_ids(self) -> Iterator[str]:
        streams: Reply = self.redis.scan_iter(match=keys.PLAYER_STREAMS, count=1000)
        for stream in streams:
            yield keys.game_id_of_stream(stream.decode())
