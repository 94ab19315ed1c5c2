"""The 161 Mobsters cards, one copy of each card the rulebook lists, with their amounts and bonuses.

A card's id is its kind and its rulebook name in lower-case words joined by dashes, e.g. `mobster:the-worm`,
`operation:casino`, `hit:hit-and-run`: stable, unique, readable in a log. Names keep the rulebook's spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """The nine card types, named as the id prefixes."""

    MOBSTER = "mobster"
    ARMED_ROBBERY = "robbery"
    MAJOR_CRIME = "crime"
    OPERATION = "operation"
    LAW = "law"
    ESCAPE = "escape"
    DESTROY = "destroy"
    COST = "cost"
    HIT = "hit"


@dataclass(frozen=True)
class Card:
    """One card. `amount`: stolen, income or loss in dollars. `family`: the kind of operation or crime a
    bonus applies to; for a mobster, the family it earns `bonus` dollars more on."""

    id: str
    kind: Kind
    name: str
    amount: int = 0
    family: str | None = None
    bonus: int = 0


GAMBLING, LOANSHARKING, PROSTITUTION, RACKETEERING = "gambling", "loansharking", "prostitution", "racketeering"
NUMBERS, EXTORTION, BOOTLEGGING, FENCING = "numbers_game", "extortion", "bootlegging", "fencing"
FIXER, SAFECRACKER, SCAM, ARMED_ROBBERY = "fixer_crime", "safecracker_crime", "scam", "armed_robbery"

MOBSTERS: tuple[tuple[str, str | None, int], ...] = (
    ("Lucky", GAMBLING, 100),
    ("Lefty", None, 0),
    ("The Mouk", None, 0),
    ("The Plumber", None, 0),
    ("Knuckles", LOANSHARKING, 100),
    ("Malone", PROSTITUTION, 100),
    ("Tommy", None, 0),
    ("Tony", RACKETEERING, 100),
    ("The Gimp", None, 0),
    ("The Weasel", None, 0),
    ("Jimmy", FIXER, 500),
    ("Mario", None, 0),
    ("Fats", None, 0),
    ("Numbers", NUMBERS, 100),
    ("Fingers", SAFECRACKER, 1000),
    ("Rocco", ARMED_ROBBERY, 200),
    ("Tiny", EXTORTION, 100),
    ("Manney", None, 0),
    ("Mickey", None, 0),
    ("Mad Dog", None, 0),
    ("The Worm", SCAM, 500),
    ("Mugsy", None, 0),
    ("Bugsy", BOOTLEGGING, 100),
    ("Baby-Face", None, 0),
    ("Uncle Lou", FENCING, 100),
    ("Pinky", None, 0),
)
"""Name, the family of operations or crimes the mobster earns more on, and how much more."""

ARMED_ROBBERIES: tuple[tuple[str, int], ...] = (
    ("Small Bank", 1000),
    ("Medium Bank", 3000),
    ("Large Bank", 5000),
    ("Jewelry Store", 2000),
    ("Armored Car Heist", 2000),
)

MAJOR_CRIMES: tuple[tuple[str, int, str | None], ...] = (
    ("Kidnapping", 5000, None),
    ("Murder for Hire", 1000, None),
    ("Forgery", 2000, None),
    ("Safecracking", 3000, SAFECRACKER),
    ("Nice Stolen Goods", 1000, None),
    ("Museum Break-in", 3000, None),
    ("Fixed Race", 1000, FIXER),
    ("Fixed Match", 1000, FIXER),
    ("Election Fraud", 2000, FIXER),
    ("Real Estate Scam", 2000, SCAM),
    ("Investment Scam", 2000, SCAM),
    ("Pyramid Scheme", 1000, SCAM),
)

OPERATIONS: tuple[tuple[str, int, str | None], ...] = (
    ("Fencing", 100, FENCING),
    ("Pawn Shop", 100, FENCING),
    ("Extortion", 100, EXTORTION),
    ("Protection Racket", 200, RACKETEERING),
    ("Union Racket", 300, RACKETEERING),
    ("Speakeasy Dive", 100, BOOTLEGGING),
    ("Speakeasy Bar", 200, BOOTLEGGING),
    ("Speakeasy Nightclub", 400, BOOTLEGGING),
    ("Gambling House", 100, GAMBLING),
    ("Gambling Boat", 200, GAMBLING),
    ("Casino", 400, GAMBLING),
    ("Numbers Game", 200, NUMBERS),
    ("Bookkeeping", 200, GAMBLING),
    ("Slot Machines", 100, GAMBLING),
    ("Loansharking", 200, LOANSHARKING),
    ("Usury", 200, LOANSHARKING),
    ("Chop Shop", 200, None),
    ("Counterfeiting", 400, None),
    ("Money Laundering", 200, None),
    ("Legitimate Front", 100, None),
    ("Brothel", 200, PROSTITUTION),
    ("Prostitution Ring", 200, PROSTITUTION),
    ("Sweat Shop", 200, None),
    ("Brewery", 200, BOOTLEGGING),
    ("Smuggling Bootleg", 200, BOOTLEGGING),
    ("Mail Fraud", 100, None),
)
"""Name, income per Collection phase, and the family a mobster's bonus may apply to."""

LAW_ENFORCEMENT: tuple[str, ...] = (
    "Prohibition Officer", "FBI Officer", "Private Investigator", "Beat Cop", "Wire Tap", "Snitch", "Informant",
    "Police Sergeant", "Arrested", "Federal Investigation", "Sting", "Hard Evidence", "Outraged Public Opinion",
    "Newspaper Headlines", "Church Campaign", "Snooping Reporter", "Witness", "Murder of a Law Officer",
    "Murder of Innocents", "Prosecution", "Conviction: Tax Evasion", "Conviction: Conspiracy",
    "Possession of Illegal Weapon", "Somebody Squealed", "Life Sentence", "Fingerprints", "Untouchables",
    "Search Warrant", "Botched Job",
)  # fmt: skip

ESCAPE_LAW: tuple[str, ...] = (
    "Corruption", "Cronyism", "Blackmail", "Jury Tampering", "Kill the Witness", "Insulated", "Pay off Judge",
    "Buy Police Chief", "Bribe City Councilman", "Intimidation", "Blood Relationship", "Loyalty", "Pay off Mayor",
    "Defense Lawyer", "Pay off District Attorney", "Skip Bail", "Plea Bargaining", "Alibi", "Parole", "Fugitive",
    "Beat the Rap",
)  # fmt: skip

DESTROY_OPERATION: tuple[str, ...] = ("Arson", "Dynamite", "Nitroglycerine", "Shoot up the Place")

COSTS_OF_DOING_BUSINESS: tuple[tuple[str, int], ...] = (
    ("Civil Suit", 1000),
    ("Bribes", 1000),
    ("Overhead", 500),
    ("Political Payoffs", 2000),
    ("Hospital Bill", 500),
    ("Fancy Cars", 1000),
    ("Gambling", 2000),
    ("Uncollected Debts", 1000),
    ("Booze & Parties", 500),
    ("Expensive Mansion", 2000),
    ("Needy Relatives", 1000),
    ("Stocks take a dive", 2000),
    ("High Class Call Girls", 500),
    ("Fine Dining", 500),
    ("Christmas Bonus", 500),
    ("Embezzelment", 2000),
    ("Lawyers Fees", 1000),
)

HITS: tuple[str, ...] = (
    "Concrete Shoes", "Forced to dig own grave", "Car Bomb", "Thrown out of Window", "Sniper", "Drinks Lye",
    "Electrocuted in Bathtub", "Killed in Bed", "Set on Fire", "Rat Poison", "Buried Alive", "Ice Pick",
    "Found floating in River", "Noose", "Baseball bat", "Gunned down in Public", "Slit Throat", "Broke every bone",
    "Shot Point Blank on Park Bench", "Hit & Run", "Hand Grenade",
)  # fmt: skip

PETTY_CRIMES: dict[int, tuple[str, int]] = {
    1: ("Minor Extortion", 200),
    2: ("Mugging", 50),
    3: ("Burglary", 50),
    4: ("Con-Job", 100),
    5: ("Auto-theft", 100),
    6: ("Minor Hold-up", 200),
}
"""The Petty Crime table: a die roll, the crime and its earnings."""


def card_id(kind: Kind, name: str) -> str:
    """`kind:words-of-the-name`, with `&` read as "and"."""
    words = re.findall(r"[a-z0-9]+", name.lower().replace("&", " and "))
    return f"{kind}:{'-'.join(words)}"


def _card(kind: Kind, name: str, amount: int = 0, family: str | None = None, bonus: int = 0) -> Card:
    return Card(card_id(kind, name), kind, name, amount, family, bonus)


def _all_cards() -> tuple[Card, ...]:
    """Every card in rulebook order: mobsters, robberies, major crimes, operations, law, escape, destroy,
    costs, hits."""
    return (
        *(_card(Kind.MOBSTER, name, 0, family, bonus) for name, family, bonus in MOBSTERS),
        *(_card(Kind.ARMED_ROBBERY, name, amount, ARMED_ROBBERY) for name, amount in ARMED_ROBBERIES),
        *(_card(Kind.MAJOR_CRIME, name, amount, family) for name, amount, family in MAJOR_CRIMES),
        *(_card(Kind.OPERATION, name, amount, family) for name, amount, family in OPERATIONS),
        *(_card(Kind.LAW, name) for name in LAW_ENFORCEMENT),
        *(_card(Kind.ESCAPE, name) for name in ESCAPE_LAW),
        *(_card(Kind.DESTROY, name) for name in DESTROY_OPERATION),
        *(_card(Kind.COST, name, amount) for name, amount in COSTS_OF_DOING_BUSINESS),
        *(_card(Kind.HIT, name) for name in HITS),
    )


CARDS: dict[str, Card] = {card.id: card for card in _all_cards()}
DECK: tuple[str, ...] = tuple(CARDS)
"""Every card id once, in rulebook order (the order before the shuffle)."""


def kind(card: str) -> Kind | None:
    """The card's type; None for an id that is no card."""
    found = CARDS.get(card)
    return found.kind if found else None


def bonus(mobster: str, target: str) -> int:
    """What the mobster earns more on this operation or crime: its bonus when the families match."""
    own, other = CARDS[mobster], CARDS[target]
    return own.bonus if own.family is not None and own.family == other.family else 0


def earnings(mobster: str, target: str) -> int:
    """An operation's income or a crime's takings when this mobster holds or commits it, bonus included."""
    return CARDS[target].amount + bonus(mobster, target)
