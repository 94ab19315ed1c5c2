"""The games the service offers. A new game adds its package and one line here."""

from games.base import Ruleset
from games.twelve_gangsters import RULESET as TWELVE_GANGSTERS

RULESETS: dict[str, Ruleset] = {r.id: r for r in (TWELVE_GANGSTERS,)}
