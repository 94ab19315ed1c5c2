"""Every Redis key the service uses, one builder each. A game's keys share the hash tag `{<id>}`,
so a game lives in one Redis Cluster slot and one Lua script may touch all of them."""

PREFIX = "syndicate"


def events(game_id: str) -> str:
    """The game's event stream: entry id `<version>-0`, one field `e` holding the envelope."""
    return f"{PREFIX}:game:{{{game_id}}}:events"


def snapshot(game_id: str) -> str:
    """The latest table state: a hash of `version`, `head` (hash of the last event) and `state`."""
    return f"{PREFIX}:game:{{{game_id}}}:snapshot"


def tokens(game_id: str) -> str:
    """Seat token hashes: a hash of seat number -> sha256 of the token."""
    return f"{PREFIX}:game:{{{game_id}}}:tokens"


def idempotency(game_id: str, caller: str, key: str) -> str:
    """The first answer to a request made with an `Idempotency-Key`, per game and caller."""
    return f"{PREFIX}:game:{{{game_id}}}:idempotency:{caller}:{key}"
