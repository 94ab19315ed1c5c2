"""Registered players: each one's own log (registered, token issued, token revoked) and the state it folds to.

A player's keys share the hash tag `{<player id>}`: the log, and beside it the state (name, token hashes) that
each commit writes with its events, as a game's snapshot is written with its. Names are claimed in two hashes
of their own (`{players}`), in one script, both or neither: under `name_key`, so two players can never hold one
name however it is spelled, and under `skeleton_key`, so no player's name can look like another's. Claiming a
name and writing the player are two steps, on two slots; a claim whose player was never written is taken over.

Players registered before skeletons were claimed have theirs claimed once, by the first registration a process
makes while `skeletons_claimed` is not set (`claim_skeletons`), and by every rebuild (`rewrite`).
"""

from __future__ import annotations

import enum
import hmac
import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

import icu
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


SPOOF_CHECKER = icu.SpoofChecker()
"""ICU's UTS #39 confusable detection, from Unicode's confusables data (its skeletons are thread safe)."""


def skeleton_key(name: str) -> str:
    """What makes two names look alike: Unicode's confusable skeleton (UTS #39: a Cyrillic or a Greek capital A
    is a Latin `A`, `0` is `O`, `I` and `1` are `l`, `rn` is `m`) of the name as written, then `name_key`, so
    that case does not tell them apart either. Casefolded first, `I` would be `i` and `BiII` pass for `Bill`."""
    return name_key(str(SPOOF_CHECKER.getSkeleton(0, name)))


class Claim(enum.Enum):
    """How a name's claim went: made, or refused because a player (or a registration still writing one) holds
    the name or a name that looks like it."""

    MADE = "made"
    NAME_HELD = "name held"
    LOOKALIKE_HELD = "lookalike held"


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
        """Write a player's state and claims as its log leaves them (a rebuild): its name is its own, and its
        skeleton too unless another player's name looks like it (both registered before skeletons were claimed)."""
        self.redis.set(keys.player_state(player.player_id), encode(player))
        self.redis.hset(keys.player_names(), name_key(player.name), player.player_id)
        self._claim_name(player.name, player.player_id, 0)

    def player_ids(self) -> Iterator[str]:
        streams: Reply = self.redis.scan_iter(match=keys.PLAYER_STREAMS, count=1000)
        for stream in streams:
            yield keys.game_id_of_stream(stream.decode())
