"""A feed in Redis: a stream of a player's notices that keeps its last entries, each appended once however often it
is sent (its key is remembered). The Lua that appends one is shared by the feeds' own script
(projections/notices.py) and the commit that carries a decision's notices with it (events/store.py, on a plain
Redis, where a game and its players' feeds are on one server)."""

from __future__ import annotations

from dataclasses import dataclass

APPEND_ONCE = """
local function append_once(feed, sent, key, data, length)
  if redis.call('ZSCORE', sent, key) then return 0 end
  local id = redis.call('XADD', feed, 'MAXLEN', '~', length, '*', 'n', data)
  redis.call('ZADD', sent, tonumber(string.match(id, '^(%d+)')), key)
  redis.call('ZREMRANGEBYRANK', sent, 0, -2 * tonumber(length) - 1)
  return 1
end
"""
"""Append `data` to the stream `feed` (about `length` entries kept) unless the sorted set `sent` holds `key`, and
remember it there (the keys of the last 2 x `length` entries are kept: an entry is sent twice within seconds)."""


@dataclass(frozen=True)
class Entry:
    """One entry for a feed: the stream, the set of keys sent, the entry's key and its value, the entries kept."""

    feed: str
    sent: str
    key: str
    data: bytes
    length: int
