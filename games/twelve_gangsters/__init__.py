"""12 Gangsters (3-6 players).

Every seat, the Boss included, plays one gangster (value 1-12) face down; all are revealed together.
Let B be the Boss's value: a seat below B succeeds, above B is stopped, equal to B succeeds and stops
the Boss's gangster (several seats may equal B; all succeed). The Boss succeeds whenever no seat equals
B. The Boss token passes clockwise after each round. With five players gangsters 11 and 12 are out and
there are 10 rounds, otherwise 12. Score = sum of a seat's successful gangsters; ties are broken by the
number of successful heists, then shared. The first Boss is `options.first_boss`, or drawn at random.
(The rulebook's example printed "= 36 M$" for face-up 2, 5, 4, 6, 10, 11: that is 38, as scored here.)
"""

from games.base import Option, Ruleset, Searching
from games.twelve_gangsters import rules, views
from games.twelve_gangsters.bots import smart_bot, smart_policy
from games.twelve_gangsters.catalogue import CATALOGUE
from games.twelve_gangsters.determinize import determinize
from games.twelve_gangsters.evaluate import PLACED, evaluate, handicap
from games.twelve_gangsters.events import EVENTS
from games.twelve_gangsters.evolve import evolve
from games.twelve_gangsters.legality import TwelveGangstersRefusal, legal_moves
from games.twelve_gangsters.moves import MOVES
from games.twelve_gangsters.state import MAX_SEATS, MIN_SEATS, State, initial_state

RULESET = Ruleset(
    id="twelve-gangsters",
    name="12 Gangsters",
    description=__doc__ or "",
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
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
    simultaneous=frozenset({"play"}),
    refusals=TwelveGangstersRefusal,
    state_view=views.StateView,
    you_view=views.You,
    secret_fields=views.SECRET_FIELDS,
    bots={"smart": smart_bot},
    catalogue=CATALOGUE,
    determinize=determinize,
    evaluate=evaluate,
    # The model sharpens the search's estimates: at three seats, at 0.45 a predictor running this code guessed its
    # gangster 1.53 times as often as a blind guess (bound 1.5), at this price 1.34 (README: the hard bot).
    searching=Searching(model=smart_policy, price=0.75, handicap=handicap, placed=PLACED),
    options={
        "first_boss": Option(
            int,
            None,
            "the seat that holds the Boss token first (drawn at random if unset)",
            names_a_seat=True,
        ),
    },
)
