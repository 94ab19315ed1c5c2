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


def stream_ticket(game_id: str, digest: str) -> str:
    """A live feed ticket, by the sha256 of its secret: the seat it opens the feed for, until it expires."""
    return f"{PREFIX}:game:{{{game_id}}}:ticket:{digest}"


# -- read models: dropped and rebuilt from the streams at will ------------------------------------


def views(game_id: str) -> str:
    """Each viewer's view of the game: a hash of `version`, `spectator` and one field per seat."""
    return f"{PREFIX}:game:{{{game_id}}}:views"


def result(game_id: str) -> str:
    """The final tally of a finished game (JSON)."""
    return f"{PREFIX}:game:{{{game_id}}}:result"


def lobby_game(game_id: str) -> str:
    """One game's lobby entry (JSON). The lobby's keys share the hash tag `{lobby}`."""
    return f"{PREFIX}:{{lobby}}:game:{game_id}"


def lobby_index(status: str, ruleset: str) -> str:
    """Game ids by creation time, for one status and ruleset; `*` stands for any."""
    return f"{PREFIX}:{{lobby}}:index:{status}:{ruleset}"


def active_games() -> str:
    """Games the house may have to act on (in progress, or finished and not yet tallied), by creation time."""
    return f"{PREFIX}:{{lobby}}:active"


def leaderboard_counted(ruleset: str) -> str:
    """The finished games a ruleset's leaderboard has counted. A ruleset's leaderboard keys share the hash tag
    `{leaderboard:<ruleset>}`: each leaderboard is one slot, and the three rulesets' are three."""
    return f"{PREFIX}:{{leaderboard:{ruleset}}}:counted"


def leaderboard_stats(ruleset: str) -> str:
    """Per player name: a hash field `<name>:games`, `<name>:wins`, `<name>:points`."""
    return f"{PREFIX}:{{leaderboard:{ruleset}}}:stats"


READ_MODEL_PATTERNS = (
    f"{PREFIX}:game:{{*}}:views",
    f"{PREFIX}:game:{{*}}:result",
    f"{PREFIX}:{{lobby}}:*",
    f"{PREFIX}:{{leaderboard:*}}:*",
)
"""Every read model key, as SCAN patterns: what a rebuild drops."""

GAME_STREAMS = f"{PREFIX}:game:{{*}}:events"
"""Every game's event stream, as a SCAN pattern."""


def game_id_of_stream(key: str) -> str:
    return key.split("{", 1)[1].split("}", 1)[0]
