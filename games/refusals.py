"""What the table refuses, whatever the game: its own refusal codes, and why a game cannot be created.

A module of its own, below the games: each game's legality refuses with the table's codes too, and the table
module reads the registry of games (to upcast an old creation), so the codes cannot live there without a cycle."""

from games.base import Refusal, RuleError


class TableRefusal(Refusal):
    """What the table refuses, whatever the game (a game's own rules refuse with these too)."""

    GAME_NOT_STARTED = "game_not_started", "a seat is still open"
    GAME_ALREADY_STARTED = "game_already_started", "the game has started: no seat to join or leave, nothing to abort"
    GAME_FINISHED = "game_already_finished", "the game is over"
    GAME_NOT_FINISHED = "game_not_finished", "the game is still under way: it has no rematch yet"
    GAME_ABORTED = "game_already_aborted", "the game was aborted"
    NO_SUCH_SEAT = "no_such_seat", "a seat number the table does not have, or one nobody holds"
    ALREADY_SEATED = "already_seated", "the player holds a seat of this game already"
    SEAT_RESERVED = "seat_reserved", "the open seats are kept for the players a rematch invited"
    SEAT_RESIGNED = "seat_resigned", "a move of a seat that resigned"
    WAIT_OVER = "wait_over", "a deadline for a wait that has ended (the house's own commands)"


class SetupRefusal(Refusal):
    """Why a game cannot be created as asked."""

    INVALID_SEAT_COUNT = "invalid_seat_count", "more or fewer seats than the game takes"
    UNKNOWN_BOT = "unknown_bot", "a bot kind the game does not have"
    INVALID_OPTION = "invalid_option", "an option the game does not take, or a value it does not take"
    INVALID_SEATS = "invalid_seats", 'a seat `{"player": "me"}` more than once'


class SetupError(RuleError):
    """A game that cannot be created as asked (seat count, options)."""

    title = "Game cannot be created"

    def __init__(self, code: SetupRefusal, detail: str) -> None:
        super().__init__(code, detail)
