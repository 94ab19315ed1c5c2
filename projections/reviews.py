"""A finished game's review: each decision of each seat judged from what the seat knew then
(service/application/review.py). A game document in the game's own slot, but not written with a commit: a worker's
job computes it once the game is tallied (it may take tens of seconds) and keeps it; a read that finds none (after a
drop or a rebuild, or a job lost) queues the job again. Kept with the format it shows, so a review of another
format is computed again rather than served."""

from __future__ import annotations

import msgspec

from events.keys import PREFIX

FORMAT = 1
"""The review's format: raised when what a review holds, or how it is judged, changes; a review kept in another
format is computed again."""


class Shown(msgspec.Struct):
    format: int = 0


class Reviews:
    """Where each game's review is kept, and whether one kept is of this format."""

    PATTERN = f"{PREFIX}:game:{{*}}:review"

    def key(self, game_id: str) -> str:
        return f"{PREFIX}:game:{{{game_id}}}:review"

    def current(self, document: bytes | None) -> bytes | None:
        """The review kept, if it is of this format."""
        if document is None or msgspec.json.decode(document, type=Shown).format != FORMAT:
            return None
        return document


REVIEWS = Reviews()
