"""Every error code the service answers, each with its status, its title and when it is given: the registry the
OpenAPI document lists each status's codes from, every problem is titled from (`TITLES`: a code has one title,
whoever raises it), and the guide's tables (docs/api.md) are checked against.

Each code is declared once, where it is raised, and this module only gathers them:

- the application's errors, a class each (service/application/errors.py), answered with the status of their kind
  (`STATUS` below);
- HTTP's own errors, a class each, and what werkzeug and gunicorn refuse themselves (service/http/errors.py);
- the rules' refusals, a table (a games.base.Refusal) for each who refuses: a game's creation and a move's body
  (about the request), and the moves refused now: the table's and its life's (every game's), and each game's own,
  its Ruleset's `refusals`.

To add a code, declare it there: a subclass of one of the application's kinds or of HttpError, a member of a
Refusal table (a new table of the table's goes in RULES below, a game's is its Ruleset's). A code two declare (a
game's `card_not_in_hand` and another's, the result's `game_aborted` and the table's) has one status and one title:
the title of the application's or HTTP's class that declares it, else that of the kind of the rules' error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from games.base import FormatRefusal, IllegalMoveError, MoveFormatError, Refusal, RuleError
from games.lifecycle import LifecycleRefusal
from games.refusals import SetupError, SetupRefusal, TableRefusal
from games.registry import RULESETS
from service.application.errors import (
    ApplicationError,
    ConflictError,
    InvalidRequestError,
    NotAuthorisedError,
    NotFoundError,
    UnavailableError,
    VersionMismatchError,
)
from service.http.errors import (
    EXPECTATION_FAILED,
    HEADER_TOO_LARGE,
    INTERNAL_ERROR,
    METHOD_NOT_ALLOWED,
    PAYLOAD_TOO_LARGE,
    ROUTE_NOT_FOUND,
    URI_TOO_LONG,
    Code,
    HttpError,
)

EVERY_GAME = "every game"

STATUS: dict[type[Exception], int] = {
    NotFoundError: 404,
    NotAuthorisedError: 401,
    InvalidRequestError: 422,
    ConflictError: 409,
    VersionMismatchError: 412,
    UnavailableError: 503,
    IllegalMoveError: 409,
    MoveFormatError: 422,
    SetupError: 422,
}
"""The status of each kind of the application's errors and the rules' refusals: the one place they get one (HTTP's
own errors carry theirs). An UnavailableError also says when to come back (`Retry-After`)."""


def status_of(error: type[ApplicationError | RuleError]) -> int:
    """The status an error of this type is answered with, by its kind."""
    return next(STATUS[kind] for kind in error.__mro__ if kind in STATUS)


T = TypeVar("T")


def _subclasses(base: type[T]) -> Iterator[type[T]]:
    for cls in base.__subclasses__():
        yield cls
        yield from _subclasses(cls)


def code_of(error: type[ApplicationError] | type[HttpError]) -> Code:
    """The code an error of the application's or of HTTP's is answered with."""
    status = error.status if issubclass(error, HttpError) else status_of(error)
    return Code(str(error.code), status, error.title, error.when)


def refused(code: Refusal, error: type[RuleError]) -> Code:
    """A refusal of the rules, as the error that raises it is answered: titled as the application or HTTP titles
    the code, if they declare it too, else as its kind of error."""
    return Code(code.value, status_of(error), _OWN_TITLES.get(code.value, error.title), code.when)


def _refused(refusals: type[Refusal], error: type[RuleError]) -> tuple[Code, ...]:
    return tuple(refused(code, error) for code in refusals)


APPLICATION = tuple(code_of(cls) for cls in _subclasses(ApplicationError) if "code" in vars(cls))
"""The application's errors: each class that declares a code (a kind without one is never raised as such)."""

HTTP = (
    *(code_of(cls) for cls in _subclasses(HttpError)),
    ROUTE_NOT_FOUND,
    METHOD_NOT_ALLOWED,
    PAYLOAD_TOO_LARGE,
    INTERNAL_ERROR,
    URI_TOO_LONG,
    HEADER_TOO_LARGE,
    EXPECTATION_FAILED,
)
"""HTTP's own errors, and what werkzeug and gunicorn refuse themselves."""

_OWN_TITLES = {code.code: code.title for code in (*APPLICATION, *HTTP)}

SERVICE = (
    *APPLICATION,
    *HTTP,
    *_refused(SetupRefusal, SetupError),
    *_refused(FormatRefusal, MoveFormatError),
)
"""The codes of a request's own refusals and of the service's faults: every code but a move's refusal by the rules."""

RULES: dict[str, tuple[Code, ...]] = {
    EVERY_GAME: (*_refused(TableRefusal, IllegalMoveError), *_refused(LifecycleRefusal, IllegalMoveError)),
    **{ruleset.name: _refused(ruleset.refusals, IllegalMoveError) for ruleset in RULESETS.values()},
}
"""The rules' refusals of a move (or a join, a leave...) now, by whose rules: every game's, then each game's own."""

CODES = (*SERVICE, *(code for codes in RULES.values() for code in codes))
"""Every code the service answers."""


def _titles(codes: tuple[Code, ...]) -> dict[str, str]:
    titles: dict[str, str] = {}
    for code in codes:
        if titles.setdefault(code.code, code.title) != code.title:
            raise ValueError(f"{code.code!r} is titled both {titles[code.code]!r} and {code.title!r}")
    return titles


TITLES = _titles(CODES)
"""The one title of each code: every problem the service answers with the code carries it (service/http/problems.py,
service/ops/gunicorn_worker.py)."""


def title_of(code: str, otherwise: str = "") -> str:
    """The title of a code's problem; `otherwise` for a code of none of ours (`http_error`: a status werkzeug
    answers that no code stands for)."""
    return TITLES.get(code, otherwise)
