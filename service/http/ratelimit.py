"""Requests are limited per caller, in budgets that honest play stays well within.

Each budget is a fixed window of requests (the `limits` library's notation, `3000 per minute`), counted in Redis
(so every worker of every process shares it) by one script a budget, all of a request's in one round trip, and in
memory only: a count is not written to the append-only file, so it costs no fsync, and a restart or a failover
forgets the windows under way. The budgets:
- `token`: each bearer token (a seat's or a player's) over the requests that send it: a bot at full speed in the
  fastest game stays far below it (docs/api.md says the numbers);
- `address`: each client address over all its requests that send a token, whatever the token: made-up tokens,
  or many real ones, cannot add up past it;
- `anonymous`: each client address over its requests without a token (reads, spectators' feeds);
- `open`: each client address over the ways to a seat without a token (create a game, join one, register a
  player), counted on their own so a burst of them crowds out neither seated play nor reads.

A process does not ask Redis on every request (`Ledger`): once it has counted a budget's key there, it lets through
up to one `SHARE`th of what that window had left, for up to `SYNC_S`, counting them in its own memory, and adds
them to the shared count with the next request that asks. Near the end of a budget every request asks, so a small
budget is exact; a large one may let through a little more than its amount when many processes serve one caller at
once (each its share of what was left: with `SHARE` processes, at most the remainder once more), which an honest
caller, far inside its budgets, never notices.

A token this process has just handed out (a seat's, at a game's creation or a join: `minted`) is known to have
spent nothing, so its first requests need not ask Redis either: its budget's count starts in this process at zero.
Nobody can have sent a token before it existed, so that is exact, not a guess.

A 304 (not modified) costs nothing: its count is given back. Every answer carries the IETF RateLimit fields of the
budget nearest its end (`RateLimit-Limit`, `-Remaining`, `-Reset`, `-Policy`); a 429 also `Retry-After`, rounded
up. Seat tokens never reach the keys: a token's budget is keyed by a hash of it. If the counters' Redis cannot be
reached, requests pass (the route answers 503 itself if it needs Redis).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import redis
from flask import Flask, Response, g, request
from limits import parse
from redis.cluster import RedisCluster

from events.pipelines import Pipelines
from service.http.errors import RateLimitedError

log = logging.getLogger(__name__)

PREFIX = "syndicate:rate"
TIMEOUT_S = 1
"""How long a count may take before the request passes uncounted: a Redis gone silent delays every request by
this much, on top of its own wait if it needs Redis."""
EXEMPT = frozenset(
    {
        "health.Health",
        "health.Live",
        "health.Ready",
        "health.Metrics",
        "static",
        "docs_assets.static",
        "web.static",
        "web.play",  # the page itself: a page refused as JSON helps nobody; the API it calls is counted
    }
)
OPEN = frozenset(
    {("games.GameCollection", "POST"), ("games.JoinResource", "POST"), ("players.PlayerCollection", "POST")}
)
"""The ways to a seat without a token: create a game, join one, register a player."""

# KEYS[1]: the counter. ARGV: what to add (negative: give back), the window in ms. Answers the count and the
# milliseconds left in the window. A window starts with its first request; nothing is given back to a window gone.
# The counter is kept in memory only: its writes go neither to the append-only file nor to replicas (REPL_NONE),
# so a count is no write Redis must fsync before it answers, as a move is. A restart or a failover forgets the
# windows under way (each budget starts afresh: at most one window's worth more is let through).
_COUNT = """
redis.set_repl(redis.REPL_NONE)
local cost = tonumber(ARGV[1])
if cost < 0 and redis.call('EXISTS', KEYS[1]) == 0 then return {0, 0} end
local n = redis.call('INCRBY', KEYS[1], cost)
if n == cost then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {n, redis.call('PTTL', KEYS[1])}
"""


@dataclass(frozen=True)
class Budget:
    """A number of requests per window, and whose they are (said in a refusal)."""

    name: str
    amount: int
    window_s: int
    whose: str

    @classmethod
    def of(cls, name: str, rule: str, whose: str) -> Budget:
        item = parse(rule)
        return cls(name, item.amount, item.get_expiry(), whose)


SYNC_S = 1.0
"""How long a process counts a budget's key in its own memory before it asks Redis again."""
SHARE = 16
"""What part of a window's remainder, as Redis last answered it, a process may let through before it asks again."""
KEPT = 10_000
"""Keys a process keeps counts of: past it, those whose window ended are dropped (then, if need be, the older half)."""


@dataclass
class Tally:
    """A budget's key as this process knows it: the shared count Redis last answered, the requests let through since
    (not yet added to it), and when that answer came and its window ends (monotonic seconds)."""

    known: int
    pending: int
    synced: float
    ends: float

    def admits(self, budget: Budget, now: float) -> bool:
        """Whether one more request may be let through without asking Redis."""
        fresh = now - self.synced < SYNC_S and now < self.ends
        return fresh and self.pending + 1 <= (budget.amount - self.known) // SHARE

    def count(self, budget: Budget, now: float) -> Count:
        return Count(budget, self.known + self.pending, max(1, math.ceil(self.ends - now)))


@dataclass
class Ledger:
    """The counts of one process between its round trips to Redis (see the module's docstring)."""

    tallies: dict[str, Tally] = field(default_factory=dict)

    def local(self, budgets: list[tuple[Budget, str]], now: float) -> list[Count] | None:
        """Every budget's count with this request let through, if all admit it without asking Redis; else None."""
        tallies = [self.tallies.get(counter(budget, key)) for budget, key in budgets]
        if not all(t is not None and t.admits(b, now) for t, (b, _) in zip(tallies, budgets, strict=True)):
            return None
        counts = []
        for tally, (budget, _) in zip(tallies, budgets, strict=True):
            assert tally is not None
            tally.pending += 1
            counts.append(tally.count(budget, now))
        return counts

    def take(self, name: str, now: float) -> int:
        """What this process let through at `name` since it last asked (in a window not yet ended), now handed over
        to be added to the shared count."""
        tally = self.tallies.get(name)
        if tally is None:
            return 0
        pending, tally.pending = tally.pending, 0
        return pending if now < tally.ends else 0  # those of a window gone count in none

    def answered(self, name: str, spent: int, left_ms: int, window_s: int, now: float) -> None:
        """Redis's answer for `name`: the shared count, and the milliseconds left in its window."""
        ends = now + (left_ms / 1000 if left_ms > 0 else window_s)
        tally = self.tallies.get(name)
        if tally is None:
            if len(self.tallies) >= KEPT:
                self.forget(now)
            self.tallies[name] = Tally(spent, 0, now, ends)
        else:  # what was let through while Redis answered stays pending
            tally.known, tally.synced, tally.ends = spent, now, ends

    def minted(self, name: str, budget: Budget, now: float) -> None:
        """A token handed out just now: its budget's key has counted nothing anywhere, and its window starts now."""
        self.answered(name, 0, 0, budget.window_s, now)

    def give_back(self, budgets: list[tuple[Budget, str]], now: float) -> list[Count]:
        """A request's count given back (a 304), to be added to Redis with the next count that asks; the budgets'
        counts after it."""
        counts = []
        for budget, key in budgets:
            tally = self.tallies.get(counter(budget, key))
            if tally is not None:
                tally.pending -= 1
                counts.append(tally.count(budget, now))
        return counts

    def forget(self, now: float) -> None:
        """Room for more: the tallies of windows gone, and if that is not enough, the older half (so that many callers
        at once cost a pass over the tallies only every KEPT // 2 new keys, not every one). A tally forgotten is asked
        of Redis again; what it had let through since it last asked goes uncounted."""
        self.tallies = {k: t for k, t in self.tallies.items() if now < t.ends}
        if len(self.tallies) >= KEPT:
            self.tallies = dict(list(self.tallies.items())[len(self.tallies) // 2 :])


def counter(budget: Budget, key: str) -> str:
    """The Redis key of a budget's counter (hash-tagged by its key: a cluster spreads them over its masters)."""
    return f"{PREFIX}:{budget.name}:{{{key}}}"


@dataclass(frozen=True)
class Count:
    """A budget as one request left it: spent so far, and seconds until its window resets (rounded up)."""

    budget: Budget
    spent: int
    reset_in: int

    @property
    def remaining(self) -> int:
        return max(0, self.budget.amount - self.spent)

    @property
    def over(self) -> bool:
        return self.spent > self.budget.amount


def caller_key() -> str:
    """Whose requests these are: the client's address (behind SYNDICATE_TRUSTED_PROXIES proxies, as the outermost
    trusted one saw it: service/http/app.py)."""
    return request.remote_addr or "anonymous"


def token_key(token: str) -> str:
    """A token's budget's name: a hash of it, never the token."""
    return hashlib.sha256(b"rate-limit:" + token.encode()).hexdigest()[:32]


def sent_token() -> str | None:
    """The bearer token the request sends, if any (malformed or not: service/http/auth.py judges it)."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def minted(tokens: Iterable[str]) -> None:
    """Tell the rate limit the tokens this request hands out: once it is answered, each one's budget is counted in
    this process from zero (`Ledger.minted`)."""
    g.minted = [*g.get("minted", ()), *tokens]


def read_ahead(key: str) -> bytes | None:
    """What the request's first round trip read at `key`; None if it was not read ahead (or holds nothing)."""
    found: tuple[str, bytes | None] | None = g.get("read_ahead")
    return found[1] if found is not None and found[0] == key else None


def client_for(storage_url: str) -> Any:
    """A client for the counters' Redis: the games' (a cluster spreads the counters over its masters)."""
    options: dict[str, Any] = {"socket_timeout": TIMEOUT_S, "socket_connect_timeout": TIMEOUT_S}
    if storage_url.startswith("redis+cluster://"):
        return RedisCluster.from_url("redis://" + storage_url.removeprefix("redis+cluster://"), **options)
    return redis.Redis.from_url(storage_url, **options)


class RateLimit:
    """`read_ahead`: for a request's bearer token, the key of what the request will read first, if anything (the
    state of the player a player token names): read in the same round trip as the counts, and kept for the request
    (`read_ahead()`), so a player's move pays no round trip more than a seat's."""

    def __init__(
        self,
        storage_url: str,
        token: str,
        address: str,
        anonymous_: str,
        open_: str,
        read_ahead: Callable[[str], str | None] = lambda token: None,
    ) -> None:
        self.token = Budget.of("token", token, "with this token")
        self.address = Budget.of("address", address, "with tokens from this address")
        self.anonymous = anonymous(anonymous_)
        self.open = Budget.of("open", open_, "creating, joining or registering without a token from this address")
        self.redis = client_for(storage_url)
        self._count = self.redis.register_script(_COUNT)
        self.ledger = Ledger()
        self.ahead = read_ahead

    def install(self, app: Flask) -> None:
        app.before_request(self.check)
        app.after_request(self.tell)

    def budgets(self, token: str | None) -> list[tuple[Budget, str]]:
        """The budgets this request counts against, each with its key (`token`: the bearer token it sends)."""
        address = caller_key()
        if token is not None:
            return [(self.token, token_key(token)), (self.address, address)]
        if (request.endpoint, request.method) in OPEN:
            return [(self.open, address)]
        return [(self.anonymous, address)]

    def count(self, budgets: list[tuple[Budget, str]], read: str | None = None) -> list[Count]:
        """Add one to each budget's count: in this process's ledger while every budget admits it there, else
        in Redis, in one round trip (per Redis node, on a cluster) that also adds what the ledger let through; and
        read the key `read` for the request, in that round trip if there is one."""
        now = time.monotonic()
        if (counts := self.ledger.local(budgets, now)) is not None:
            if read is not None:
                g.read_ahead = (read, self.redis.get(read))
            return counts
        batch = Pipelines(self.redis)
        names = [counter(budget, key) for budget, key in budgets]
        for (budget, _), name in zip(budgets, names, strict=True):
            batch.script(self._count, [name], [1 + self.ledger.take(name, now), budget.window_s * 1000])
        if read is not None:
            batch.on(read).get(read)
        replies = batch.execute()
        if read is not None:
            g.read_ahead = (read, replies.pop())
        now = time.monotonic()
        counts = []
        for (budget, _), name, (spent, left_ms) in zip(budgets, names, replies, strict=True):
            self.ledger.answered(name, int(spent), int(left_ms), budget.window_s, now)
            reset_in = max(1, math.ceil(int(left_ms) / 1000)) if left_ms > 0 else budget.window_s
            counts.append(Count(budget, int(spent), reset_in))
        return counts

    def check(self) -> None:
        """Count the request against each of its budgets; RateLimitedError (429) once over one, with when to come
        back."""
        if request.endpoint in EXEMPT or request.method == "OPTIONS":
            return
        token = sent_token()
        budgets = self.budgets(token)
        try:
            counts = self.count(budgets, self.ahead(token) if token is not None else None)
        except redis.RedisError as error:  # fail open: an outage is answered by the routes that need Redis
            log.warning("rate limit not counted: %s", error)
            return
        g.rate_limit = (budgets, counts)
        spent = next((c for c in counts if c.over), None)
        if spent is not None:
            detail, headers = refusal(spent)
            raise RateLimitedError(detail, headers=headers)

    def tell(self, response: Response) -> Response:
        """Start the counts of the tokens an answer hands out, give a 304's count back, and tell the budget nearest its
        end on every answer."""
        handed = g.pop("minted", ())
        if handed and response.status_code < 300:
            now = time.monotonic()
            for token in handed:
                self.ledger.minted(counter(self.token, token_key(token)), self.token, now)
        found = g.pop("rate_limit", None)
        if found is None:
            return response
        budgets, counts = found
        if response.status_code == 304:
            counts = self.ledger.give_back(budgets, time.monotonic()) or counts
        if "RateLimit-Limit" not in response.headers:  # (a 429 carries its own)
            response.headers.extend(fields(nearest(counts)))
        return response


def anonymous(rule: str) -> Budget:
    """The budget of an address's requests without a token."""
    return Budget.of("anonymous", rule, "without a token from this address")


def spent(budget: Budget, reset_in: int) -> Count:
    """A budget just overspent, its window resetting in `reset_in` seconds (what a 429 tells)."""
    return Count(budget, budget.amount + 1, reset_in)


def nearest(counts: list[Count]) -> Count:
    """The budget that runs out first: the fewest requests left."""
    return min(counts, key=lambda c: (c.remaining, -c.reset_in))


def fields(count: Count) -> dict[str, str]:
    """The IETF RateLimit header fields of a budget as a request left it."""
    budget = count.budget
    return {
        "RateLimit-Limit": str(budget.amount),
        "RateLimit-Remaining": str(count.remaining),
        "RateLimit-Reset": str(count.reset_in),
        "RateLimit-Policy": f"{budget.amount};w={budget.window_s}",
    }


def refusal(count: Count) -> tuple[str, dict[str, str]]:
    """What a 429 says: its detail, and its headers (when to come back, which budget it hit)."""
    budget = count.budget
    detail = f"over {budget.amount} requests per {budget.window_s} s {budget.whose}; try again in {count.reset_in} s"
    return detail, {"Retry-After": str(count.reset_in), **fields(count)}
