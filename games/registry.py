"""The games the service offers. A new game adds its package and one line here."""

from typing import Any

from games.base import Ruleset
from games.cash_n_guns import RULESET as CASH_N_GUNS
from games.mobsters import RULESET as MOBSTERS
from games.twelve_gangsters import RULESET as TWELVE_GANGSTERS

RULESETS: dict[str, Ruleset[Any]] = {r.id: r for r in (TWELVE_GANGSTERS, CASH_N_GUNS, MOBSTERS)}
