"""The application's errors, as types. Each has a stable `code` for clients, a `title` for people and `when`, what it
means (the API's documents list it); its kind, the base class it derives from, says what went wrong: nothing by that
name, a caller not authorised, a request that is invalid, one refused now (a conflict), a version that does not
match, or a service unavailable for some seconds. How each kind is answered (an HTTP status) is the caller's
business: service/http/codes.py, which also titles each code once, whoever declares it. The rules' own refusals are
games/base.py's RuleError."""

from __future__ import annotations

from typing import ClassVar

from games.refusals import TableRefusal


class ApplicationError(Exception):
    code: ClassVar[str]
    title: ClassVar[str]
    when: ClassVar[str]

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


# --- the kinds -------------------------------------------------------------------------------------------------------


class NotFoundError(ApplicationError):
    """Nothing by that name."""

    title = "Not found"


class NotAuthorisedError(ApplicationError):
    """The caller's token (or ticket) is missing or opens nothing here."""

    title = "Not authorised"


class InvalidRequestError(ApplicationError):
    """A request that cannot be taken as it is, now or ever."""

    code, title, when = "invalid_request", "Invalid request", "the body, query or a header does not fit the schema"


class ConflictError(ApplicationError):
    """A request that cannot be taken now: nothing changed."""

    title = "Not possible now"


class VersionMismatchError(ApplicationError):
    """The caller names another version of the game than the one it is at."""

    code, title = "version_mismatch", "The game has moved on"
    when = "the version the caller names is not the game's (or is no version)"


class UnavailableError(ApplicationError):
    """The service cannot take the request for now: the caller may try again in `retry_after_s` seconds."""

    def __init__(self, detail: str, retry_after_s: int) -> None:
        super().__init__(detail)
        self.retry_after_s = retry_after_s


# --- not found -------------------------------------------------------------------------------------------------------


class GameNotFoundError(NotFoundError):
    code, title, when = "game_not_found", "No such game", "no such game"


class VersionNotFoundError(NotFoundError):
    code, title, when = "version_not_found", "No such version", "time travel to a version the game does not have"


class RulesetNotFoundError(NotFoundError):
    code, title, when = "ruleset_not_found", "No such ruleset", "no such ruleset (the card catalogue)"


class PlayerNotFoundError(NotFoundError):
    code, title, when = "player_not_found", "No such player", "no such player"


class TokenNotFoundError(NotFoundError):
    code, title, when = "token_not_found", "No such token", "revoking a token the player does not hold (live)"


# --- not authorised --------------------------------------------------------------------------------------------------


class InvalidTokenError(NotAuthorisedError):
    code, title = "invalid_token", "Missing or invalid token"
    when = "a missing or wrong seat or player token where one is needed, or a malformed one"


class InvalidTicketError(NotAuthorisedError):
    code, title = "invalid_ticket", "Invalid stream ticket"
    when = "a live feed's ticket that is unknown, used or expired"


# --- invalid ---------------------------------------------------------------------------------------------------------


class UnknownRulesetError(InvalidRequestError):
    """A ruleset named in a body or a query that is none of ours (a path that names none: RulesetNotFoundError)."""

    code, title, when = "unknown_ruleset", "No such ruleset", "a ruleset that is none of ours, in a body or a query"


class IdempotencyKeyReusedError(InvalidRequestError):
    code, when = "idempotency_key_reused", "the request's idempotency key was used with another body"


# --- conflicts -------------------------------------------------------------------------------------------------------


class GameMovedOnError(ConflictError):
    """A move lost a race, and the game has moved to another wait: decided again, it would land in a round its
    sender has not seen."""

    code, when = "game_moved_on", "the move lost a race and the game has moved to another wait: look again"


class ConcurrentModificationError(ConflictError):
    code, when = (
        "concurrent_modification",
        "the game (or the player) is too busy, changes kept landing first: try again",
    )


class GameNotFinishedError(ConflictError):
    code, title, when = TableRefusal.GAME_NOT_FINISHED, "Game not finished", "the result of a game still under way"


class GameAbortedError(ConflictError):
    code, title, when = TableRefusal.GAME_ABORTED, "Game aborted", "the result of an aborted game"


class NameTakenError(ConflictError):
    code, when = "name_taken", "registering a name a player holds already, whatever its case or Unicode spelling"


class NameConfusableError(ConflictError):
    code, when = "name_confusable", "registering a name that looks like one a player holds"


class TooManyTokensError(ConflictError):
    code, when = "too_many_tokens", "a player holds as many live tokens as it may: revoke one first"


class TooManyGamesError(ConflictError):
    code, when = "too_many_games", "creating or joining a game while holding as many unfinished games as one may"


class PublicRandomnessNotAcceptedError(ConflictError):
    code = "public_randomness_not_accepted"
    when = 'joining a game whose creator chose the seed, without `"accept_public_randomness": true`'


# --- unavailable -----------------------------------------------------------------------------------------------------


class StoreUnavailableError(UnavailableError):
    code, title, when = "unavailable", "Service unavailable", "the game store is not answering"


class NotReplicatedInTimeError(UnavailableError):
    code, title = "not_replicated", "Not replicated in time"
    when = "the replicas the deployment asks for did not confirm the write in time: it may or may not stand"


class OverloadedError(UnavailableError):
    """The workers are behind: a new game would wait too long for its house (bots, deadlines)."""

    code, title = "overloaded", "Too busy to start a game now"
    when = "creating a game while the house is too far behind with the games under way"
