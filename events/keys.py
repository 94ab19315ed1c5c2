"""Every Redis key of the stores, one builder each: the games' logs and what each commit writes beside them, the
players', the stream tickets, each client's games and the job queue's. A game's keys share the hash tag `{<id>}`,
so a game lives in one Redis Cluster slot and one Lua script may touch all of them. The read models' keys are their
own (projections/)."""

PREFIX = "syndicate"


def events(game_id: str) -> str:
    """The game's event stream: entry id `<version>-0`, one field holding the envelope (events/entries.py)."""
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


GAME_STREAMS = f"{PREFIX}:game:{{*}}:events"
"""Every game's event stream, as a SCAN pattern."""


def game_id_of_stream(key: str) -> str:
    return key.split("{", 1)[1].split("}", 1)[0]


# -- players: each player's keys share the hash tag `{<player id>}`; never in one script with a game's --------


def player_events(player_id: str) -> str:
    """The player's own log: registration, tokens issued and revoked (entry id `<version>-0`)."""
    return f"{PREFIX}:player:{{{player_id}}}:events"


def player_state(player_id: str) -> str:
    """The player as its log leaves it (JSON: name, token hashes, version), written with each of its events."""
    return f"{PREFIX}:player:{{{player_id}}}:state"


def player_names() -> str:
    """Casefolded player name -> player id: the claim that keeps names unique. Its own tag, `{players}`."""
    return f"{PREFIX}:{{players}}:names"


def player_skeletons() -> str:
    """A name's confusable skeleton (UTS #39, casefolded) -> player id: the claim that keeps names from looking
    alike. Beside the names, in `{players}`."""
    return f"{PREFIX}:{{players}}:skeletons"


def skeletons_claimed() -> str:
    """Set once every player registered before skeletons were claimed has had its skeleton claimed."""
    return f"{PREFIX}:{{players}}:skeletons-claimed"


def name_claim_pending(player_id: str) -> str:
    """Set while a registration that claimed a name has not written its player yet (it expires): its claim
    may not be taken over meanwhile. Under the names' tag, `{players}`."""
    return f"{PREFIX}:{{players}}:pending:{player_id}"


def player_ticket(player_id: str, digest: str) -> str:
    """A ticket that opens the player's live feed once, by the sha256 of its secret."""
    return f"{PREFIX}:player:{{{player_id}}}:ticket:{digest}"


PLAYER_STREAMS = f"{PREFIX}:player:{{*}}:events"
"""Every player's log, as a SCAN pattern."""


def holdings(holder: str) -> str:
    """The games a client holds a seat in or created, by when (`address:<ip>` for an anonymous client, `player:<id>`
    for a player): what its limit on unfinished games counts. Each holder its own tag."""
    return f"{PREFIX}:holdings:{{{holder}}}"


# -- the job queue's Redis (a plain Redis of its own on a cluster: RQ does not speak Cluster) ----------------------


def pending_job(kind: str, game_id: str) -> str:
    """The id of the one job of a kind (`bot`, `deadline`, `tally`, `review`: its step pending) a game has waiting in
    the queue."""
    return f"{PREFIX}:pending:{kind}:{game_id}"


def paced_turns() -> str:
    """The turns of all-bot games held back for their pace: job id -> when it may be queued (UNIX time)."""
    return f"{PREFIX}:paced-turns"


def jobs_done(second: int) -> str:
    """How many jobs the workers finished in one second (UNIX time): the queue's pace, for admission control."""
    return f"{PREFIX}:jobs-done:{second}"
