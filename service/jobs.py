"""RQ jobs: JSON-able arguments, one use case each. The worker process sets up the house once."""

from __future__ import annotations

from service.bootstrap import bootstrap
from service.config import Config
from service.house import House

_house: House | None = None


def use(house: House) -> None:
    """Make the jobs of this process act through `house`."""
    global _house
    _house = house


def house() -> House:
    if _house is None:
        config = Config()
        use(House(bootstrap(config), config.stall_s))
    assert _house is not None
    return _house


def bot_move(game_id: str, version: int, seat: int) -> str:
    return house().play_bot(game_id, version, seat)


def deadline(game_id: str, wait_since: int) -> str:
    return house().expire(game_id, wait_since)


def tally(game_id: str) -> str:
    return house().tally(game_id)


def sweep() -> int:
    return house().sweep()
