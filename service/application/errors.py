"""The service's own errors. Each carries its HTTP status and a stable `code` for clients."""

from __future__ import annotations


class ProblemError(Exception):
    status = 500
    code = "internal_error"
    title = "Internal error"

    def __init__(self, detail: str, code: str | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}
        if code:
            self.code = code


class GameNotFoundError(ProblemError):
    status, code, title = 404, "game_not_found", "No such game"


class RulesetNotFoundError(ProblemError):
    status, code, title = 404, "ruleset_not_found", "No such ruleset"


class UnknownRulesetError(ProblemError):
    """A ruleset named in a query that is none of ours (a path that names none is 404 `ruleset_not_found`)."""

    status, code, title = 422, "unknown_ruleset", "No such ruleset"


class NotFoundError(ProblemError):
    status, code, title = 404, "not_found", "Not found"


class InvalidTokenError(ProblemError):
    status, code, title = 401, "invalid_token", "Missing or invalid seat token"


class InvalidRequestError(ProblemError):
    status, code, title = 422, "invalid_request", "Invalid request"


class VersionMismatchError(ProblemError):
    status, code, title = 412, "version_mismatch", "The game has moved on"


class ConflictError(ProblemError):
    status, code, title = 409, "conflict", "Not possible now"


class IdempotencyKeyReusedError(InvalidRequestError):
    """An `Idempotency-Key` sent again with another body than the first."""

    code = "idempotency_key_reused"


class GameMovedOnError(ConflictError):
    """A move lost a race, and the game has moved to another wait: decided again, it would land in a round its
    sender has not seen."""

    code = "game_moved_on"


class MalformedJSONError(ProblemError):
    status, code, title = 400, "malformed_json", "The request body is not valid JSON"


class MalformedRequestError(ProblemError):
    status, code, title = 400, "malformed_request", "The request is not HTTP"


class UnsupportedMediaTypeError(ProblemError):
    status, code, title = 415, "unsupported_media_type", "The request body is not JSON"


class RateLimitedError(ProblemError):
    status, code, title = 429, "rate_limited", "Too many requests"


class UnsupportedTransferCodingError(ProblemError):
    status, code, title = 501, "unsupported_transfer_coding", "Not Implemented"


class OverloadedError(ProblemError):
    """The workers are behind: a new game would wait too long for its house (bots, deadlines)."""

    status, code, title = 503, "overloaded", "Too busy to start a game now"
