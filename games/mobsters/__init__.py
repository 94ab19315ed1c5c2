"""Mobsters (2-6 players): each seat is a Mob Boss; the richest when the last card is drawn wins.

The deck: one copy of each of the 161 cards the rulebook lists (26 mobsters, 5 armed robberies, 12 major crimes,
26 crime operations, 29 law enforcement, 21 escape law, 4 destroy operation, 17 costs of doing business, 21 hits).
The bank is unlimited; money may go below zero. Discards are never reshuffled.

Setup: the deck is shuffled; each seat gets $1,000 and is dealt 7 cards (seat 0 the top 7, then seat 1...). The
first player is `options.first_player`, else drawn at random; play goes clockwise (increasing seat numbers).
A seat dealt no mobster may discard its hand face up and draw 7 more, again while the new hand has no mobster.

The setup decision is secret, so that nothing public tells who was dealt a mobster. Every seat decides, in any
order: `keep_hand` (any hand) or `redeal` (only a hand with no mobster, so it is offered in that seat's
`legal_moves` alone); `awaiting` names every seat, as `setup`, until it has decided. A decision is made face down
(`setup_decided`, whose `redeal` only the seat sees). When the last awaited seat has decided, the decisions
become public (`setup_revealed`: who kept, who redeals), and each redeal is carried out in seat order: the old
hand goes face up on the discard pile and 7 cards are drawn (their faces seen by the seat alone). So what becomes
public, and when: at the reveal, which seats redealt, and therefore that each of them held no mobster, and the
cards they discarded; never whether a seat that kept could have redealt. The seats that redealt then decide
again, all of them, whatever their new hands hold (one with a mobster may only keep), until a reveal has no
redeal; then the first turn starts. A redeal that empties the deck ends the game before the first turn, every
seat at $1,000; the redeals after it in seat order are not carried out.

`options.open_setup` is the setup of games created before the decision was secret, which replay and audit
under it: only the seats dealt no mobster are awaited, and each `redeal` or `keep_hand` (`hand_kept`) is public
at once, so the table learns who holds no mobster.

Actions: each mobster in play has one action in its controller's turn, named by the `mobster` field of the move
that spends it. A mobster put into play this turn has spent its action. A mobster under one or more Law
Enforcement cards has no action and collects no income. Optional attendance rule (`options.attendance`): at the
start of the Draw phase every mobster of the active seat rolls a die; 4-6 loses its action this turn.

A turn, each phase ended by `end_phase`: (1) Draw: draw 2 cards; then each mobster may buy an extra card for
$1,000 (`draw_extra`); after `end_phase`, a seat holding more than 10 cards discards down to 10 (`discard`) before
the Hit phase. The game ends the moment the last card is drawn, whatever is happening. (2) Hit: a mobster
discards a Hit card on a mobster of another seat (`hit`) and rolls: 1-3 it got away, 4-6 it is killed, discarded
with its Law cards; its controller at once gives each of its operations to one of its other mobsters or discards
it (`reassign`), and with no mobster left all of them are discarded. Or a mobster discards a Destroy Operation card
to discard an operation of another seat (`destroy`). (3) Crime: a mobster discards a Major Crime or Armed Robbery
card and collects its amount from the bank (`commit_crime`), or, if it has no operation attached, rolls on the
Petty Crime table (`petty_crime`: 1 $200, 2 $50, 3 $50, 4 $100, 5 $100, 6 $200). (4) Collection: every mobster of
the active seat with no Law card collects its operations' income; a mobster may double one of its operations'
income, its bonus included (`double_income`); any number of Costs of Doing Business may be played on opponents,
who pay the amount to the bank (`charge`). (5) Recruit: any mobsters from hand come into play (`recruit`); a
mobster may attach to itself an operation from hand or from another of its controller's mobsters (`attach`),
with no limit to the operations it holds. (6) Law: any number of Law Enforcement cards may be placed on opponents'
mobsters (`arrest`), any number of Escape Law cards discarded, each removing one Law card from one of the seat's
mobsters (`escape`); a mobster may pay $3,000 to remove a Law card from another of its controller's mobsters
(`bribe`).

Bonuses go to the mobster that holds the operation or commits the crime: Lucky +$100 on gambling (Gambling House,
Gambling Boat, Casino, Slot Machines, Bookkeeping); Knuckles +$100 on loansharking (Loansharking, Usury); Malone
+$100 on prostitution (Brothel, Prostitution Ring); Tony +$100 on racketeering (Protection Racket, Union Racket);
Numbers +$100 on the Numbers Game; Tiny +$100 on Extortion; Bugsy +$100 on bootlegging (Speakeasy Dive, Bar and
Nightclub, Brewery, Smuggling Bootleg); Uncle Lou +$100 on fencing (Fencing, Pawn Shop); Jimmy +$500 on fixer
crimes (Fixed Race, Fixed Match, Election Fraud); Fingers +$1,000 on Safecracking; The Worm +$500 on scams (Real
Estate Scam, Investment Scam, Pyramid Scheme); Rocco +$200 on every armed robbery.

End: the richest seat wins; tied seats share the victory (no tie-breaker). Every shuffle, die roll and random
first player is recorded in an event. Hands are private (others see how many cards); the deck's order is hidden
from every seat; a drawn card is seen by its drawer only; every card played is face up for all, the discard
pile included, and so is what each mobster did with its action this turn (its `deed`, a missed hit's victim and
roll included).

Where the rules are silent: `end_phase` is needed even when nothing else can be done (skipping a phase by itself
would tell the table what a hand lacks). A seat may ask the house to pass phases for it (`auto_pass`, a public
choice recorded in the log): the house then ends each of them with `end_phase` as soon as it begins, whatever the
hand holds, so that the shortcut shows the table nothing a click would not. Income is collected as the Collection
phase starts; an operation attached later in the turn pays from the next one. Buying an extra card and a bribe need
the money in hand; only Costs of Doing Business push a seat into debt. A mobster freed of its last Law card has its
action back for the rest of the turn if it had not spent it. A mobster under Law may still be hit, arrested again,
lose an operation to a Destroy card, take a dead mobster's operation, or give up one of its operations to another of
its mobsters. Reassigning is nobody's action; the active seat waits while the dead mobster's controller decides, one
operation at a time. The hand limit applies in the Draw phase only (no other phase adds cards); one `discard` may
name several cards, and the legal moves offer them one at a time until 10 remain. Attendance rolls are made by every
mobster of the active seat, in the order they came into play, those under Law included. A seat's deadline, if the
table sets `move_deadline_s`, is met by the random bot (at the setup: `keep_hand`, or a coin's toss between it and
`redeal` for a hand with no mobster).
"""

from games.base import Option, Ruleset, Searching
from games.mobsters import rules, views
from games.mobsters.bots import smart_bot, smart_policy
from games.mobsters.catalogue import CATALOGUE
from games.mobsters.determinize import determinize
from games.mobsters.evaluate import evaluate, handicap, stage
from games.mobsters.events import EVENTS
from games.mobsters.evolve import evolve
from games.mobsters.legality import MobstersRefusal, legal_moves
from games.mobsters.moves import MOVES
from games.mobsters.state import State, initial_state

RULESET = Ruleset(
    id="mobsters",
    name="Mobsters",
    description=__doc__ or "",
    min_seats=2,
    max_seats=6,
    state_type=State,
    moves=MOVES,
    events=EVENTS,
    initial_state=initial_state,
    start=rules.start,
    decide=rules.decide,
    evolve=evolve,
    view=views.view,
    you=views.you,
    event_view=views.event_view,
    awaiting=rules.awaiting,
    legal_moves=legal_moves,
    is_over=rules.is_over,
    result=rules.result,
    decisions=rules.DECISIONS,
    simultaneous=frozenset({"setup"}),
    refusals=MobstersRefusal,
    state_view=views.StateView,
    you_view=views.You,
    secret_fields=views.SECRET_FIELDS,
    bots={"smart": smart_bot},
    catalogue=CATALOGUE,
    determinize=determinize,
    evaluate=evaluate,
    # A turn is several phases of open moves: between two seats, one decision on is too near to tell a good plan
    # from a bad one; with more seats, three is too far for the few draws a decision affords (benchmarks/hard_bot.py:
    # three seats, 45 games, 0.87 of a fair share at one, 0.27 at three; with the model, four seats, 40 games, 0.40
    # at three). The others are expected to play as the smart bot would. Between two seats the search plays on to the
    # turn's end instead (`stage`), every seat as the smart bot would, so that every move it weighs is judged at the
    # same point of the game (benchmarks/hard_bot.py, seed 11, 100 games: 1.22 of a fair share, against 1.10 at three
    # decisions; 1.30 with moves found alike left to the smart bot's choice, games/hard.py).
    searching=Searching(horizons={2: 3}, model=smart_policy, stage=stage, staged=frozenset({2}), handicap=handicap),
    # `end_phase` passes a phase whatever the hand holds (the ruling above), so the house may pass it for a seat
    passes={phase: {"type": "end_phase"} for phase in ("draw", "hit", "crime", "collection", "recruit", "law")},
    options={
        "first_player": Option(int, None, "the seat that plays first (drawn at random if unset)", names_a_seat=True),
        "attendance": Option(bool, False, "the optional attendance rule: each mobster rolls 4-6 to lose its action"),
        "open_setup": Option(
            bool,
            False,
            "the setup of games created before it was secret: only the seats dealt no mobster decide, in public",
            before=True,
        ),
    },
)
