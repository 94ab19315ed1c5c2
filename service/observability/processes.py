"""Whether a process lives: what health checks and the metrics of processes that died ask."""

from __future__ import annotations

import os


def alive(pid: int) -> bool:
    """Whether a process of this id exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's: it exists
    return True
