"""The player store: each registered player's own log and the state it folds to, and the claims on names.

`PlayerStore` is what the use cases and a rebuild ask of it; `RedisPlayerStore` keeps players in Redis and
`MemoryPlayerStore` in dicts, for tests that need no Redis (tests/events/test_player_store.py runs both).

In Redis a player's keys share the hash tag `{<player id>}`: the log, and beside it the state (name, token hashes)
that each commit writes with its events, as a game's snapshot is written with its. Names are claimed in two
hashes of their own (`{players}`), in one script, both or neither: under `name_key`, so two players can never
hold one name however it is spelled, and under `skeleton_key`, so no player's name can look like another's.
Claiming a name and writing the player are two steps, on two slots; a claim whose player was never written is
taken over.

Players registered before skeletons were claimed have theirs claimed once, by the first registration a process
makes while `skeletons_claimed` is not set (`claim_skeletons`), and by every rebuild (`rewrite`).
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import msgspec
import redis

from events import keys
from events.replication import Replication
from players.events import Entry, decode_entry, encode_entry
from players.names import name_key, skeleton_key
from players.state import Player, fold

Reply = Any


class Claim(enum.Enum):
    """How a name's claim went: made, or refused because a player (or a registration still writing one) holds
    the name or a name that looks like it."""

    MADE = "made"
    NAME_HELD = "name held"
    LOOKALIKE_HELD = "lookalike held"


class StalePlayerError(Exception):
    """Another change to the player landed first."""


class PlayerStore(Protocol):
    def claim_name(self, name: str, player_id: str) -> Claim:
        """Claim a name and its skeleton for a player, both or neither: refused if another holds the name, however
        spelled, or one that looks like it. A player's own claims are its own: it may claim them again."""

    def get(self, player_id: str) -> Player | None:
        """The player as its log leaves it; None for no player."""

    def commit(self, before: Player | None, entries: Sequence[Entry]) -> Player:
        """Append entries at the player's version (0 for a new player), with the state they leave; the player after
        them. StalePlayerError if its log moved (then nothing is written)."""

    def log(self, player_id: str) -> list[Entry]:
        """The player's log, oldest first."""

    def rewrite(self, player: Player) -> None:
        """Write a player's state and claims as its log leaves them (a rebuild): its name is its own, and its
        skeleton too unless another player's name looks like it (both registered before skeletons were claimed)."""

    def player_ids(self) -> Iterator[str]:
        """Every player with a log."""


def rewrite_players(store: PlayerStore) -> None:
    """Write every player as its own log leaves it, with its claims: what `syndicate projections rebuild` does
    beside the read models (a player's state and claims are never dropped, so nobody is locked out meanwhile)."""
    for player_id in list(store.player_ids()):
        player = fold(store.log(player_id))
        if player is not None:
            store.rewrite(player)


def _after(before: Player | None, entries: Sequence[Entry]) -> Player:
    after = fold(entries, before)
    assert after is not None, "a new player is committed with its registration"
    return after


_COMMIT = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
for i = 3, #ARGV do redis.call('XADD', KEYS[1], (tonumber(ARGV[1]) + i - 2) .. '-0', 'e', ARGV[i]) end
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""

CLAIM_PENDING_S = 30
"""How long a registration has, from its claim of a name, to write its player before the claim may be taken."""

# Claims a name and its skeleton for the claimant, both or neither: each must be free, the claimant's already,
# or held by a listed holder (a registration that never wrote its player) whose pending marker is gone. Refused:
# {1 for the name or 2 for its skeleton, its holder}.
# KEYS: the names, the skeletons, the claimant's pending marker, the listed holders' markers.
# ARGV: the name's key, its skeleton's, the claimant, seconds its claim stays pending (0: none), the holders.
_CLAIM = """
local takeable = {}
for i = 5, #ARGV do
  if redis.call('EXISTS', KEYS[i - 1]) == 0 then takeable[ARGV[i]] = true end
end
for i = 1, 2 do
  local holder = redis.call('HGET', KEYS[i], ARGV[i])
  if holder and holder ~= ARGV[3] and not takeable[holder] then return {i, holder} end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
if tonumber(ARGV[4]) > 0 then redis.call('SET', KEYS[3], 1, 'EX', ARGV[4]) end
return {}
"""
REFUSED = {1: Claim.NAME_HELD, 2: Claim.LOOKALIKE_HELD}

encode_player = msgspec.json.Encoder().encode
decode_player = msgspec.json.Decoder(Player).decode


class RedisPlayerStore:
    """`replication`: how many replicas must hold a player's change or a name claim before it is answered (a
    token handed out that a failover loses would open nothing; a lost claim would let a second player take the
    name)."""

    def __init__(self, client: redis.Redis, replication: Replication | None = None) -> None:
        self.redis = client
        self.replication = replication or Replication()
        self._commit = client.register_script(_COMMIT)
        self._claim = client.register_script(_CLAIM)
        self._skeletons_claimed = False

    def claim_name(self, name: str, player_id: str) -> Claim:
        """Claim a name and its skeleton for a registration, which has CLAIM_PENDING_S to write its player."""
        if not self._skeletons_claimed and not self.redis.exists(keys.skeletons_claimed()):
            self.claim_skeletons()
        self._skeletons_claimed = True
        return self._claim_name(name, player_id, CLAIM_PENDING_S)

    def _claim_name(self, name: str, player_id: str, pending_s: int) -> Claim:
        fields = [name_key(name), skeleton_key(name)]
        dead: list[str] = []
        refused = Claim.MADE
        for _ in range(len(fields) + 1):  # at most one holder to take over per field
            markers = [keys.name_claim_pending(holder) for holder in (player_id, *dead)]
            script_keys = [keys.player_names(), keys.player_skeletons(), *markers]
            found: Reply = self._replicated(self._claim, script_keys, [*fields, player_id, pending_s, *dead])
            if not found:
                return Claim.MADE
            refused, holder = REFUSED[int(found[0])], found[1].decode()
            if holder in dead or self.get(holder) is not None:
                return refused
            dead.append(holder)  # a registration that never wrote its player: taken over once its time is up
        return refused

    def claim_skeletons(self) -> None:
        """Claim the skeleton of every player (those registered before skeletons were claimed have none): where
        two such players' names look alike, the first found keeps it."""
        for player_id in list(self.player_ids()):
            player = self.get(player_id)
            if player is not None:
                self._claim_name(player.name, player_id, 0)
        self.redis.set(keys.skeletons_claimed(), 1)

    def _replicated(self, script: Any, script_keys: list[str], args: list[Any]) -> Any:
        """Run a script on its keys' master, answered once the replicas asked for hold what it wrote."""
        return self.replication.write(
            self.redis, script_keys[0], lambda target: script(keys=script_keys, args=args, client=target)
        )

    def get(self, player_id: str) -> Player | None:
        raw: Reply = self.redis.get(keys.player_state(player_id))
        return decode_player(raw) if raw else None

    def commit(self, before: Player | None, entries: Sequence[Entry]) -> Player:
        after = _after(before, entries)
        expected = before.version if before else 0
        player_keys = [keys.player_events(after.player_id), keys.player_state(after.player_id)]
        args: list[Any] = [expected, encode_player(after), *map(encode_entry, entries)]
        if not self._replicated(self._commit, player_keys, args):
            raise StalePlayerError(after.player_id)
        return after

    def log(self, player_id: str) -> list[Entry]:
        stream: Reply = self.redis.xrange(keys.player_events(player_id))
        return [decode_entry(fields[b"e"]) for _, fields in stream]

    def rewrite(self, player: Player) -> None:
        self.redis.set(keys.player_state(player.player_id), encode_player(player))
        self.redis.hset(keys.player_names(), name_key(player.name), player.player_id)
        self._claim_name(player.name, player.player_id, 0)

    def player_ids(self) -> Iterator[str]:
        streams: Reply = self.redis.scan_iter(match=keys.PLAYER_STREAMS, count=1000)
        for stream in streams:
            yield keys.game_id_of_stream(stream.decode())


class MemoryPlayerStore:
    """Players in dicts, under one lock: each commit and each claim one step, as one Lua script is. The log is kept
    encoded, so it reads back through the stored format as Redis's does. A claim is never taken over: a
    registration cannot die here apart from the store."""

    def __init__(self) -> None:
        self._logs: dict[str, list[bytes]] = {}
        self._players: dict[str, Player] = {}
        self._names: dict[str, str] = {}
        self._skeletons: dict[str, str] = {}
        self._lock = threading.Lock()

    def claim_name(self, name: str, player_id: str) -> Claim:
        fields = (
            (self._names, name_key(name), Claim.NAME_HELD),
            (self._skeletons, skeleton_key(name), Claim.LOOKALIKE_HELD),
        )
        with self._lock:
            for claims, key, refused in fields:
                if claims.get(key, player_id) != player_id:  # neither free nor the claimant's
                    return refused
            for claims, key, _ in fields:
                claims[key] = player_id
        return Claim.MADE

    def get(self, player_id: str) -> Player | None:
        return self._players.get(player_id)

    def commit(self, before: Player | None, entries: Sequence[Entry]) -> Player:
        after = _after(before, entries)
        with self._lock:
            log = self._logs.setdefault(after.player_id, [])
            if len(log) != (before.version if before else 0):
                raise StalePlayerError(after.player_id)
            log += map(encode_entry, entries)
            self._players[after.player_id] = after
        return after

    def log(self, player_id: str) -> list[Entry]:
        with self._lock:
            stored = list(self._logs.get(player_id, ()))
        return [decode_entry(raw) for raw in stored]

    def rewrite(self, player: Player) -> None:
        with self._lock:
            self._players[player.player_id] = player
            self._names[name_key(player.name)] = player.player_id
            self._skeletons.setdefault(skeleton_key(player.name), player.player_id)

    def player_ids(self) -> Iterator[str]:
        with self._lock:
            found = [player_id for player_id, log in self._logs.items() if log]
        yield from found
