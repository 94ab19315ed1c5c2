"""A player's live feed as Server-Sent Events: the notices of projections/notices.py, as they land.

Each notice is one message: `id` its id in the player's feed (a client resumes with `Last-Event-ID`), `event`
its type, `data` the notice; the first also carries `retry:`. A feed opened without an id starts with what
lands from then on. A comment (`: keep-alive`) is sent every KEEPALIVE_S seconds of silence; the feed ends when
the server stops (its client reconnects with `Last-Event-ID`), and within live.CHECK_S seconds of the revocation
of the token that opened it (or minted its ticket).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import msgspec

from projections.notices import Notices
from service.application.feeds import always
from service.http import live


class Kind(msgspec.Struct):
    type: str


class PlayerFeed:
    """`allowed()`: whether the token that opened the feed still lives; `serving()`: whether the server still serves."""

    def __init__(
        self,
        notices: Notices,
        player_id: str,
        after: str,
        allowed: Callable[[], bool] = always,
        serving: Callable[[], bool] = always,
    ) -> None:
        self.notices, self.player_id, self.after = notices, player_id, after
        self.allowed, self.serving = allowed, serving
        self.blocks = live.Messages()

    def messages(self) -> Iterator[str]:
        return live.counted(self.follow())

    def follow(self) -> Iterator[str]:
        for landed in live.waiting(
            lambda block_s: self.notices.feed(self.player_id, self.after, block_s),
            lambda: self.allowed() and self.serving(),
            live.CHECK_S,
        ):
            if landed is None:
                yield live.KEEP_ALIVE
                continue
            for entry_id, data in landed:
                kind = msgspec.json.decode(data, type=Kind).type
                self.after = entry_id
                yield self.blocks.block(entry_id, kind, data.decode())
