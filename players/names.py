"""What makes two player names one, and what makes them look alike: the keys a name is claimed under."""

from __future__ import annotations

import unicodedata

import icu


def name_key(name: str) -> str:
    """What makes two names one: Unicode's compatibility normalisation with its case folded (NFKC_Casefold), so
    neither case nor a precomposed, decomposed, fullwidth or ligatured spelling tells them apart."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


SPOOF_CHECKER = icu.SpoofChecker()
"""ICU's UTS #39 confusable detection, from Unicode's confusables data (its skeletons are thread safe)."""


def skeleton_key(name: str) -> str:
    """What makes two names look alike: Unicode's confusable skeleton (UTS #39: a Cyrillic or a Greek capital A
    is a Latin `A`, `0` is `O`, `I` and `1` are `l`, `rn` is `m`) of the name as written, then `name_key`, so
    that case does not tell them apart either. Casefolded first, `I` would be `i` and `BiII` pass for `Bill`."""
    return name_key(str(SPOOF_CHECKER.getSkeleton(0, name)))
