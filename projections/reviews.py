"""A finished game's review: each decision of each seat judged from what the seat knew then
(service/application/review.py). A game document in the game's own slot, but not written with a commit: a read
that finds none queues the job that makes it (the first read, or the first after a drop or a rebuild, or a job
lost), in short steps, and the last step keeps it. Kept with the format it shows, so a review of another format is
computed again rather than served.

Beside it, in the same slot, the review's progress while its steps run (`:review-progress`): the decisions judged
so far, with the format they were judged in; it only grows (a step never writes back less than is kept), expires
once abandoned (PROGRESS_TTL_S), and goes once the review is kept."""

from __future__ import annotations

import msgspec

from events.keys import PREFIX

FORMAT = 1
"""The review's format: raised when what a review holds, or how it is judged, changes; a review kept in another
format is computed again."""


PROGRESS_TTL_S = 3600
"""How long a review's progress outlives its last step: a review nobody finished (its steps lost, the game's
review never asked for again) leaves nothing behind for long."""


class Shown(msgspec.Struct):
    format: int = 0


class Reviews:
    """Where each game's review is kept, and its progress while it is made; whether one kept is of this format."""

    PATTERN = f"{PREFIX}:game:{{*}}:review"
    PROGRESS_PATTERN = f"{PREFIX}:game:{{*}}:review-progress"

    def key(self, game_id: str) -> str:
        return f"{PREFIX}:game:{{{game_id}}}:review"

    def progress_key(self, game_id: str) -> str:
        return f"{PREFIX}:game:{{{game_id}}}:review-progress"

    def current(self, document: bytes | None) -> bytes | None:
        """The review kept, if it is of this format."""
        if document is None or msgspec.json.decode(document, type=Shown).format != FORMAT:
            return None
        return document


REVIEWS = Reviews()
