"""Arcane Duel collections as players meet them: starters, packs, collections, decks,
trades and ante (docs: ``../shared/specs/collections.md``), over the bank in
:mod:`storage.collections`.

Every method answers with a plain dataclass for a cog (or the local table) to show,
or raises a :class:`~bot.errors.CroupierError` whose text a player understands: the
storage's refusals name copy ids and user ids, so each is translated here into which
cards, how long to wait, what to do instead. Bad input never reaches storage.

Where the spec is silent:

* Copies picked for a trade or an ante are the giver's *free* copies, unlimited
  before limited and, among limited ones, the highest serial first: the low serials
  collectors prize are the last to go. The result says which copies were chosen.
* A deck may be saved while it is short or under 40 cards (decks are built a few
  cards at a time); its view says what keeps it from play. Only
  :meth:`CollectionService.deck_for_duel` refuses.
* Someone's own collection is always theirs to see; another's only when the server
  makes collections public (read from the server's settings unless ``public`` is
  passed). While collections are private, a refused offer does not say how many
  copies the other person is short of: that would let anyone count their cards.
* ``open_pack`` opens a given pack first (a prize or a rated win, oldest first), then
  the daily pack if the server offers it, else says how packs come here.
* Prize packs are given unopened (:meth:`CollectionService.give_packs`) by people who
  may manage the server or hold its organiser role; at most :data:`MOST_WAITING`
  wait per person.
* A trade action names the server it is made in: a trade of another server is "no
  such trade" there, whoever asks.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.clock import Clock
from bot.errors import CroupierError, NotAllowed
from bot.i18n import Phrase, Text
from bot.i18n import cards as card_words
from bot.i18n.cards import card_phrase
from rules.duel import MAX_DECK, MIN_DECK
from rules.duel.cards import COLOUR_NAMES, card_set
from rules.duel.decklists import (
    card_named,
    check_deck,
    nearest_cards,
    parse_decklist,
    render_decklist,
    shortfall,
)
from rules.duel.decks import STARTERS, starter
from rules.duel.packs import RARITY_RANK, RUN_SIZES, open_pack, pack_pool, rarest_first
from rules.errors import BadOptions, shown
from storage import Store
from storage.collections import (
    AlreadyClaimed,
    AnteClosed,
    BadRequest,
    CardCount,
    CollectionRefusal,
    Copy,
    Locked,
    NoPack,
    NotOwned,
    NotParty,
    PackCredit,
    TooEarly,
    TooMany,
    Trade,
    TradeClosed,
    TradeMessage,
)

DAY = 86_400.0
OFFER_SECONDS = 900.0
"""An offer lapses after 15 minutes (spec default)."""
CONFIRM_SECONDS = 5.0
"""The confirm window opens 5 s after acceptance (spec default)."""
MAX_TRADE_COPIES = 100
"""Most copies one side of a trade may hold: a message must be able to show them."""
MAX_DECKS = 50
"""Most saved decks per person per server."""
PER_PAGE = 20
MOST_GIVEN = 10
"""Most packs one ``/pack give`` gives."""
MOST_WAITING = 100
"""Most unopened packs one person may have waiting on a server."""
LIVE = ("open", "accepted")
_DECK_NAME = re.compile(r"[A-Za-z0-9 _-]{1,32}")
"""ASCII only: a name is typed again in ``/play duel deck:``, and look-alike letters
or other scripts' digits would make two decks that read the same."""
SortBy = Literal["name", "colour", "rarity", "count"]


class CollectionError(CroupierError):
    """A collection request refused; nothing changed."""


class TradeProblem(CollectionError):
    """A trade action refused (closed, not yours, too early, copies gone)."""


class TooSoon(CollectionError):
    """Something that comes back with time (the daily pack); ``seconds_left`` until then."""

    def __init__(self, message: str | Text, seconds_left: float) -> None:
        super().__init__(message)
        self.seconds_left = seconds_left


# -- small helpers -----------------------------------------------------------------------
def wait_text(seconds: float) -> Text:
    """A wait as a player reads it, rounded up to the minute past one minute.

    >>> [wait_text(s).english() for s in (3 * 3600 + 12 * 60, 42.2, 61, 7200)]
    ['3 h 12 min', '43 s', '2 min', '2 h']
    """
    whole = max(1, int(-(-seconds // 1)))
    if whole < 60:
        return Text("collections.wait.seconds", seconds=whole)
    minutes = -(-whole // 60)
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return Text("collections.wait.minutes", minutes=minutes)
    if not minutes:
        return Text("collections.wait.hours", hours=hours)
    return Text("collections.wait.hours_minutes", hours=hours, minutes=minutes)


def listed(parts: Sequence[Phrase | str]) -> Phrase | str:
    """Words one after the other, separated by commas ("2 Kindlewhip, 1 Ashpeak")."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return Text("collections.list", first=parts[0], rest=listed(parts[1:]))


def listed_and(parts: Sequence[Phrase | str]) -> Phrase | str:
    """Words as a list ending in "and" ("a, b and c")."""
    if len(parts) <= 2:
        return listed(parts) if len(parts) < 2 else Text("collections.list.and",
                                                          first=parts[0], last=parts[1])
    return Text("collections.list", first=parts[0], rest=listed_and(parts[1:]))


def counts_text(counts: Mapping[str, int]) -> Phrase | str:
    """``{"Kindlewhip": 2}`` as "2 Kindlewhip", most first then by name, each card named
    in the reader's language.

    >>> from bot.i18n import say
    >>> say(counts_text({"Ashpeak": 1, "Kindlewhip": 2}), "pt_BR")
    '2 Chicote de Brasa, 1 Pico das Cinzas'
    """
    return listed([Text("collections.count_of", number=n, card=card_phrase(card))
                   for card, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))])


def cards_named(cards: Iterable[str]) -> Phrase | str:
    """Card names, in the reader's language, separated by commas."""
    return listed([card_phrase(card) for card in cards])


def file_safe(text: str) -> str:
    """A name for a file or an attachment: ASCII letters, digits and dashes.

    >>> file_safe("My deck_2")
    'my-deck-2'
    """
    kept = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in text.lower())
    return "-".join(part for part in kept.split("-") if part) or "deck"


def deck_name(text: object) -> str:
    """A deck name checked: 1–32 letters, digits, spaces, ``-`` or ``_``; spaces
    collapsed.

    >>> deck_name("  My   deck ")
    'My deck'
    >>> deck_name("**bold**")
    Traceback (most recent call last):
    ...
    bot.duel.collections.CollectionError: A deck name is 1 to 32 letters, digits, spaces, - or _, not '**bold**'.
    """  # noqa: E501 (a doctest's expected line is as long as the message)
    name = " ".join(text.split()) if isinstance(text, str) else ""
    if not _DECK_NAME.fullmatch(name):
        raise CollectionError(Text("collections.error.deck_name", typed=shown(text)))
    return name


LISTS = {"card list": Phrase("collections.what.card_list"),
         "deck list": Phrase("collections.what.deck_list"),
         "give list": Phrase("collections.what.give_list"),
         "get list": Phrase("collections.what.get_list")}
"""The lists of cards a person types, named in refusals."""


def card_list(text: object, what: str = "card list") -> Counter[str]:
    """Cards named in a list such as "2 Kindlewhip, Ashpeak" (commas or lines).

    >>> sorted(card_list("2 kindlewhip, Ashpeak").items())
    [('Ashpeak', 1), ('Kindlewhip', 2)]
    """
    named = LISTS.get(what, what)
    if not isinstance(text, str):
        raise CollectionError(Text("collections.error.list_not_text", what=named))
    if not text.strip():
        return Counter()
    try:
        return parse_decklist(set_names(text.replace(",", "\n")))
    except BadOptions as exc:
        raise CollectionError(Text("collections.error.list_unread", what=named,
                                   why=exc.text)) from None


_ENTRY = re.compile(r"(\s*(?:[0-9]{1,2}\s*[xX×]?\s+)?)(.*?)(\s*)")


def set_names(text: str) -> str:
    """A card list with each card named in a language Croupier speaks (whole, any case)
    written with the set's name for it, which deck lists read: "2 Chicote de Brasa"
    reads as "2 Kindlewhip". Anything else is left for the list's reader to judge.

    >>> set_names("2 Chicote de Brasa, 1 pico das cinzas".replace(", ", chr(10))).split()
    ['2', 'Kindlewhip', '1', 'Ashpeak']
    """
    lines = []
    for line in text.split("\n"):
        found = _ENTRY.fullmatch(line)
        if found is not None and found[2] and len(found[2]) <= 60:
            key = card_words.card_named_exactly(found[2])
            if key is not None:
                line = f"{found[1]}{card_words.card_name(key, 'en')}{found[3]}"
        lines.append(line)
    return "\n".join(lines)


def one_card(text: object) -> str:
    """The card ``text`` names, or a refusal suggesting the nearest names."""
    name = card_named(text) if isinstance(text, str) else None
    if name is None:
        near = nearest_cards(text) if isinstance(text, str) else []
        if near:
            raise CollectionError(Text("collections.error.no_card_near", typed=shown(text),
                                       near=_or([card_phrase(n) for n in near])))
        raise CollectionError(Text("collections.error.no_card", typed=shown(text)))
    return name


def _or(parts: Sequence[Phrase | str]) -> Phrase | str:
    if len(parts) == 1:
        return parts[0]
    return Text("collections.list.or", first=parts[0], rest=_or(parts[1:]))


def giving_order(copy: Copy) -> tuple[bool, int]:
    """Sort key of the copies to part with first: unlimited, then the highest serial."""
    return (copy.serial is not None, -(copy.serial or 0))


def pick_free(copies: Iterable[Copy], wanted: Mapping[str, int]) -> tuple[list[Copy],
                                                                          dict[str, int]]:
    """Free copies for ``wanted`` (by :func:`giving_order`) and what is short."""
    by_card: dict[str, list[Copy]] = {}
    for copy in copies:
        if copy.lock is None:
            by_card.setdefault(copy.card, []).append(copy)
    chosen: list[Copy] = []
    short: dict[str, int] = {}
    for card, count in wanted.items():
        pool = sorted(by_card.get(card, []), key=giving_order)
        chosen += pool[:count]
        if len(pool) < count:
            short[card] = count - len(pool)
    return chosen, short


def size_problem(total: int) -> Text | None:
    """What a deck of ``total`` cards lacks or has too many of, or ``None``.

    >>> size_problem(21).english(), size_problem(40), size_problem(251).english()
    ('it has 21 cards: 19 more are needed (a deck has at least 40)', None, 'it has 251 cards: 1 too many (a deck has at most 250)')
    """  # noqa: E501 (a doctest's expected line is as long as the message)
    if total < MIN_DECK:
        return Text("collections.deck.too_few", count=MIN_DECK - total,
                    has=Text("collections.deck.cards", count=total), least=MIN_DECK)
    if total > MAX_DECK:
        return Text("collections.deck.too_many", count=total - MAX_DECK,
                    has=Text("collections.deck.cards", count=total), most=MAX_DECK)
    return None


def unstakeable(cards: Mapping[str, int], free: Mapping[str, int]) -> Text | None:
    """Why a deck that can be played can't be staked, or ``None``. The ante is a copy
    one owns of whichever card is set aside, and any card of the deck may be: so each
    needs a free copy of one's own. Basic lands are free to *play* with (never short),
    so only they can lack one.

    >>> unstakeable({"Mistshore": 20, "Kindlewhip": 1}, {"Kindlewhip": 1, "Mistshore": 2})
    >>> print(unstakeable({"Dawnfield": 20, "Mistshore": 20}, {}).english())
    short of a copy to stake of: Dawnfield, Mistshore (basic lands are free to play with, but the ante stakes an owned copy of the card set aside, so an ante deck needs a free copy of its own of every card in it, basic lands too; a starter comes with some).
    """  # noqa: E501 (a doctest's expected line is as long as the message)
    missing = sorted(card for card in cards if cards[card] > 0 and free.get(card, 0) < 1)
    if not missing:
        return None
    return Text("collections.deck.unstakeable", cards=cards_named(missing))


def _problem(exc: CollectionRefusal) -> Text:
    """A storage refusal nobody anticipated, in words (no ids)."""
    if isinstance(exc, NotOwned):
        return Text("collections.error.not_owned_now")
    if isinstance(exc, Locked):
        return Text("collections.error.locked_now")
    return Text("collections.error.cannot")


# -- results ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CopyView:
    """One copy as shown: "Kindlewhip #37 of 500"."""

    id: int
    card: str
    rarity: str
    serial: int | None
    run_size: int | None
    locked: bool = False

    @property
    def label(self) -> Phrase | str:
        """The card's name (in the reader's language), with its serial and run if
        limited."""
        if self.serial is None:
            return card_phrase(self.card)
        if self.run_size:
            return Text("collections.copy.serial_of", card=card_phrase(self.card),
                        serial=self.serial, run=self.run_size)
        return Text("collections.copy.serial", card=card_phrase(self.card), serial=self.serial)


@dataclass(frozen=True)
class StarterClaimed:
    """A claimed starter: its copies and the deck saved with them."""

    copies: tuple[CopyView, ...]
    deck_name: str


@dataclass(frozen=True)
class PackOpened:
    """A pack's copies, rarest first."""

    copies: tuple[CopyView, ...]
    next_claim_at: float | None
    """When the next daily pack is due (``None`` for a given pack)."""
    source: Literal["daily", "prize", "win"] = "prize"
    """Where the pack came from: the daily claim, an organiser's prize, a rated win."""
    waiting: int = 0
    """Given packs still unopened after this one."""


@dataclass(frozen=True)
class PackGiver:
    """Who gives packs, with what lets them (the cog reads it from Discord)."""

    user_id: int
    manages_server: bool
    role_ids: frozenset[int] = frozenset()


@dataclass(frozen=True)
class PacksWaiting:
    """``/pack list``: the given packs waiting, and the daily pack."""

    given: tuple[PackCredit, ...]
    daily: bool
    """Whether the server offers a daily pack."""
    daily_due_at: float | None
    """When the next daily pack is due (``None``: now, or never claimed)."""
    win_packs: bool
    """Whether a rated win brings a pack here."""


@dataclass(frozen=True)
class AuditReport:
    """``/audit``: the books of one server."""

    copies: int
    ledger_rows: int
    problems: tuple[str, ...]
    """The ledger replay's findings, as the books write them (ids and card names: a
    moderator's check, not a player's words)."""


@dataclass(frozen=True)
class CollectionRow:
    """One card in a collection: copies owned, how many are free, and editions."""

    card: str
    colour: str | None
    type: str
    rarity: str
    count: int
    free: int
    unlimited: int
    serials: tuple[int, ...]

    @property
    def serials_text(self) -> Phrase | str:
        """The limited copies' serials, short: "#3, #17, #40 +2 more"."""
        shown_serials = ", ".join(f"#{s}" for s in self.serials[:3])
        more = len(self.serials) - 3
        if more > 0:
            return Text("collections.serials.more", count=more, serials=shown_serials)
        return shown_serials


@dataclass(frozen=True)
class CollectionPage:
    """One page of a collection."""

    owner: int
    rows: tuple[CollectionRow, ...]
    page: int
    pages: int
    cards: int
    """Distinct cards matching the filters."""
    copies: int
    """Copies matching the filters."""


@dataclass(frozen=True)
class CardCounts:
    """``/card``: the copies a person has and the server has, and the run left."""

    card: str
    owned: int
    free: int
    in_server: int
    run_size: int | None
    run_left: int | None

    @property
    def locked(self) -> int:
        """Copies held by a trade or an ante."""
        return self.owned - self.free


@dataclass(frozen=True)
class CardSupply:
    """A card's supply in one server, as the public gallery shows it: its limited run
    (printed, left in packs) and the copies that exist (docs/rules/collections.md)."""

    card: str
    printed: int
    """Limited copies packs have printed here (serials 1 to this)."""
    run_size: int | None
    """The limited run's size: its stored size once begun, the size it will have before;
    ``None`` for a card no pack holds (a basic land)."""
    run_left: int | None
    """Limited copies packs may still give (after them, unlimited copies)."""
    in_server: int
    """Copies of it here, from starters and packs, limited and unlimited."""

    @property
    def in_packs(self) -> bool:
        """Whether packs hold the card at all."""
        return self.run_size is not None


@dataclass(frozen=True)
class DeckView:
    """A saved deck, with what (if anything) keeps it from play."""

    name: str
    cards: Mapping[str, int]
    total: int
    problem: Text | None
    """Why ``deck_for_duel`` would refuse it now, or ``None``."""
    ante_problem: Text | None = None
    """Why an ante table would refuse it now though it can be played (its basic
    lands not owned: :func:`unstakeable`), or ``None``."""


@dataclass(frozen=True)
class TradeView:
    """A trade as both sides see it."""

    id: int
    offerer: int
    receiver: int
    status: str
    give: tuple[CopyView, ...]
    get: tuple[CopyView, ...]
    expires_at: float
    confirm_opens_at: float | None
    offerer_confirmed: bool
    receiver_confirmed: bool
    guild: int = 0

    @property
    def live(self) -> bool:
        """Whether the trade can still be acted on (open or accepted)."""
        return self.status in LIVE

    @property
    def face(self) -> str:
        """What its offer message shows, as a key: status and who has confirmed."""
        return f"{self.status}:{int(self.offerer_confirmed)}{int(self.receiver_confirmed)}"

    @property
    def summary(self) -> Text:
        """The state in words."""
        return {"open": Text("collections.trade.summary.open"),
                "accepted": Text("collections.trade.summary.accepted"),
                "done": Text("collections.trade.summary.done"),
                "declined": Text("collections.trade.summary.declined"),
                "cancelled": Text("collections.trade.summary.cancelled"),
                "expired": Text("collections.trade.summary.expired")}[self.status]


@dataclass(frozen=True)
class AnteStaked:
    """The copies set aside for a match, by seat."""

    match: int
    copies: Mapping[int, CopyView]


@dataclass(frozen=True)
class AnteSettled:
    """Who took the ante (``None``: a draw, every copy went back)."""

    match: int
    winner: int | None
    moved: tuple[CopyView, ...]


# -- the service --------------------------------------------------------------------------
class CollectionService:
    """What players do with the cards they own, one server's economy at a time."""

    def __init__(self, store: Store, clock: Clock, *,
                 rng_factory: Callable[[], random.Random] = random.SystemRandom,
                 run_sizes: Mapping[str, int] = RUN_SIZES, daily_seconds: float = DAY,
                 offer_seconds: float = OFFER_SECONDS,
                 confirm_seconds: float = CONFIRM_SECONDS) -> None:
        self.repo = store.collections
        self.settings = store.settings
        self.clock = clock
        self.rng_factory = rng_factory
        self.run_sizes = dict(run_sizes)
        self.daily_seconds = daily_seconds
        self.offer_seconds = offer_seconds
        self.confirm_seconds = confirm_seconds

    # -- views of copies
    async def _view(self, guild: int, copy: Copy) -> CopyView:
        run = await self.repo.print_run(guild, copy.card) if copy.serial is not None else None
        return CopyView(copy.id, copy.card, card_set()[copy.card].rarity, copy.serial,
                        run.size if run else None, copy.lock is not None)

    async def _views(self, guild: int, copies: Iterable[Copy]) -> tuple[CopyView, ...]:
        copies = list(copies)
        # One read for every run these copies need, not one per copy.
        runs = await self.repo.print_runs(guild, {c.card for c in copies if c.serial is not None})
        return tuple(CopyView(c.id, c.card, card_set()[c.card].rarity, c.serial,
                              runs[c.card].size if c.serial is not None and c.card in runs
                              else None, c.lock is not None) for c in copies)

    # -- getting cards
    async def claim_starter(self, guild: int, user: int, deck: str) -> StarterClaimed:
        """Give ``user`` the starter ``deck`` (once per server), saved as a deck too."""
        key = deck.strip().casefold() if isinstance(deck, str) else ""
        if key not in STARTERS:
            raise CollectionError(Text("collections.error.no_starter", typed=shown(deck),
                                       starters=", ".join(STARTERS)))
        try:
            copies = await self.repo.claim_starter(guild, user, key, starter(key),
                                                   self.clock.now())
        except AlreadyClaimed:
            raise CollectionError(Text("collections.error.starter_claimed")) from None
        return StarterClaimed(await self._views(guild, copies), key)

    async def open_daily_pack(self, guild: int, user: int) -> PackOpened:
        """Claim and open the daily pack (one per ``daily_seconds``)."""
        now = self.clock.now()
        copies = await self._open(guild, user, now, self.daily_seconds)
        return PackOpened(copies, now + self.daily_seconds, "daily")

    async def give_pack(self, guild: int, organiser: int, user: int) -> PackOpened:
        """Open a prize pack for ``user`` (the cog checks ``organiser`` may give it)."""
        return PackOpened(await self._open(guild, user, self.clock.now(), None), None)

    async def open_pack(self, guild: int, user: int) -> PackOpened:
        """``/pack open``: the person's oldest given pack (a prize or a rated win), else
        the daily pack if the server offers it, else a refusal saying how packs come."""
        settings = await self.settings.get(guild)
        now = self.clock.now()
        daily = self.daily_seconds if settings.daily_pack else None
        try:
            opened = await self.repo.open_next_pack(guild, user, self._pulls(), self.run_sizes,
                                                    now, daily_every=daily)
        except AlreadyClaimed as exc:
            raise TooSoon(Text("collections.error.no_pack_daily_opened",
                               wait=wait_text(exc.seconds_left)), exc.seconds_left) from None
        except NoPack:
            raise CollectionError(Text("collections.error.no_pack", how=_how_packs_come(
                settings.daily_pack, settings.win_packs))) from None
        copies = await self._ordered(guild, opened.copies)
        if opened.credit is None:
            return PackOpened(copies, now + self.daily_seconds, "daily", opened.waiting)
        return PackOpened(copies, None, opened.credit.why, opened.waiting)

    async def give_packs(self, guild: int, giver: PackGiver, user: int, count: int = 1) -> int:
        """Give ``user`` ``count`` unopened prize packs (1 to :data:`MOST_GIVEN`), if
        ``giver`` may manage the server or holds its organiser role; how many wait now."""
        settings = await self.settings.get(guild)
        role = settings.organiser_role_id
        if not giver.manages_server and (role is None or role not in giver.role_ids):
            raise NotAllowed(Text("collections.error.give_not_allowed"))
        count = _whole(count, "number of packs")
        if not 1 <= count <= MOST_GIVEN:
            raise CollectionError(Text("collections.error.give_count", most=MOST_GIVEN,
                                       given=count))
        try:
            return await self.repo.give_packs(guild, user, count, giver.user_id,
                                              self.clock.now(), MOST_WAITING)
        except TooMany as exc:
            raise CollectionError(Text("collections.error.too_many_waiting", count=exc.waiting,
                                       most=MOST_WAITING)) from None

    async def packs_waiting(self, guild: int, user: int) -> PacksWaiting:
        """``/pack list``: the person's unopened packs and when the daily one is due."""
        settings = await self.settings.get(guild)
        last = await self.repo.last_daily(guild, user)
        due = None if last is None or last + self.daily_seconds <= self.clock.now() \
            else last + self.daily_seconds
        return PacksWaiting(tuple(await self.repo.packs_waiting(guild, user)),
                            settings.daily_pack, due, settings.win_packs)

    def _pulls(self) -> tuple[tuple[str, str], ...]:
        # A fresh Random seeded from the factory: tests inject a seeded factory to
        # replay a pack, and the SystemRandom default cannot be seeded itself.
        return open_pack(random.Random(self.rng_factory().getrandbits(64)))

    async def _ordered(self, guild: int, copies: Iterable[Copy]) -> tuple[CopyView, ...]:
        views = await self._views(guild, copies)
        return tuple(pull[2] for pull in rarest_first([(v.card, v.rarity, v) for v in views]))

    async def _open(self, guild: int, user: int, now: float,
                    daily: float | None) -> tuple[CopyView, ...]:
        try:
            copies = await self.repo.open_pack(guild, user, self._pulls(), self.run_sizes, now,
                                               daily_every=daily)
        except AlreadyClaimed as exc:
            raise TooSoon(Text("collections.error.daily_opened",
                               wait=wait_text(exc.seconds_left)), exc.seconds_left) from None
        return await self._ordered(guild, copies)

    # -- looking
    async def collection(self, guild: int, viewer: int, owner: int, *,
                         public: bool | None = None,
                         colour: str | None = None, type: str | None = None,
                         rarity: str | None = None, edition: str | None = None,
                         name: str | None = None, sort: SortBy = "name", page: int = 1,
                         per_page: int = PER_PAGE) -> CollectionPage:
        """A page of ``owner``'s collection: copies owned, never hands or libraries.
        ``public`` (default: the server's setting) says whether others may look."""
        if public is None and viewer != owner:
            public = (await self.settings.get(guild)).collections_public
        if viewer != owner and not public:
            raise NotAllowed(Text("collections.error.private"))
        keep = _filters(colour, type, rarity, edition, name)
        rows = [row for row in _rows(await self.repo.owned(guild, owner)) if keep(row)]
        rows.sort(key=_SORTS.get(sort) or _bad_sort(sort))
        per_page = max(1, min(_whole(per_page, "per_page"), 50))
        pages = max(1, -(-len(rows) // per_page))
        # A page past the end shows the last: the collection may have shrunk since.
        page = min(max(1, _whole(page, "page")), pages)
        return CollectionPage(owner, tuple(rows[(page - 1) * per_page:page * per_page]), page,
                              pages, len(rows), sum(r.count for r in rows))

    async def card_counts(self, guild: int, user: int, card: str) -> CardCounts:
        """``/card``: copies ``user`` owns (free and locked), in the server, and run left."""
        name = one_card(card)
        mine = (await self.repo.counts(guild, user)).get(name)
        run = await self.repo.print_run(guild, name)
        return CardCounts(name, mine.owned if mine else 0, mine.free if mine else 0,
                          await self.repo.copies_in_server(guild, name),
                          run.size if run else None, run.left if run else None)

    async def supply(self, guild: int,
                     cards: Iterable[str] | None = None) -> dict[str, CardSupply]:
        """Per card of ``cards`` (default: the whole set; any case, answered under the
        set's names): its limited run in ``guild`` (printed and left; a run not begun yet
        is whole, at the size it will start with) and how many copies exist there. A name
        no card has is refused, naming the nearest cards."""
        names = list(card_set() if cards is None
                     else dict.fromkeys(one_card(name) for name in cards))
        if cards is None:
            runs = await self.repo.every_print_run(guild)
            copies = await self.repo.copies_of(guild)
        else:
            runs = await self.repo.print_runs(guild, names)
            copies = await self.repo.copies_of(guild, names)
        pool = {name for rarity in pack_pool().values() for name in rarity}
        found: dict[str, CardSupply] = {}
        for name in names:
            run = runs.get(name)
            size = run.size if run else (self.run_sizes.get(card_set()[name].rarity, 0)
                                         if name in pool else None)
            found[name] = CardSupply(name, run.printed if run else 0, size,
                                     run.left if run else size, copies.get(name, 0))
        return found

    # -- decks
    async def save_deck(self, guild: int, user: int, name: str, text: str, *,
                        replace: bool = True) -> DeckView:
        """Create (or, with ``replace``, replace) deck ``name`` from a deck list. Names
        ignore case: ``burn`` is the deck ``Burn``, renamed as typed when replaced."""
        name = deck_name(name)
        cards = card_list(text, "deck list")
        if not cards:
            raise CollectionError(Text("collections.error.deck_list_empty"))
        existing = {d.name.casefold(): d.name for d in await self.repo.decks(guild, user)}
        same = existing.get(name.casefold())
        if not replace and same is not None:
            raise CollectionError(Text("collections.error.deck_exists", deck=same))
        if same is None and len(existing) >= MAX_DECKS:
            raise CollectionError(Text("collections.error.too_many_decks", most=MAX_DECKS))
        return await self._store_deck(guild, user, name, cards)

    async def add_cards(self, guild: int, user: int, name: str, text: str) -> DeckView:
        """Add the listed cards to a saved deck."""
        name, cards = await self._saved(guild, user, name)
        adding = card_list(text)
        cards.update(adding)
        total = sum(cards.values())
        if total > MAX_DECK:
            raise CollectionError(Text("collections.error.deck_full", most=MAX_DECK, deck=name,
                                       has=total - sum(adding.values()),
                                       adding=sum(adding.values()), total=total))
        return await self._store_deck(guild, user, name, cards)

    async def remove_cards(self, guild: int, user: int, name: str, text: str) -> DeckView:
        """Take the listed cards out of a saved deck; refused, saying how many it holds
        of each card asked for beyond that."""
        name, cards = await self._saved(guild, user, name)
        asked = card_list(text)
        over: list[Phrase | str] = [
            Text("collections.deck.holds", held=cards[card], card=card_phrase(card), asked=n)
            if cards[card] else Text("collections.deck.holds_none", card=card_phrase(card),
                                     asked=n)
            for card, n in sorted(asked.items()) if n > cards[card]]
        if over:
            raise CollectionError(Text("collections.error.deck_holds", deck=name,
                                       holds=listed_and(over)))
        cards.subtract(asked)
        return await self._store_deck(guild, user, name, +cards)

    async def deck(self, guild: int, user: int, name: str) -> DeckView:
        """One saved deck with what keeps it from play."""
        name, cards = await self._saved(guild, user, name)
        return _deck_view(name, cards, await self.repo.counts(guild, user))

    async def decks(self, guild: int, user: int) -> list[DeckView]:
        """Every saved deck of ``user`` here, by name."""
        counts = await self.repo.counts(guild, user)
        return [_deck_view(d.name, Counter(d.cards), counts)
                for d in await self.repo.decks(guild, user)]

    async def deck_names(self, guild: int, user: int) -> list[str]:
        """The names of ``user``'s saved decks here (for completing names as typed)."""
        return [d.name for d in await self.repo.decks(guild, user)]

    async def delete_deck(self, guild: int, user: int, name: str) -> str:
        """Delete a deck (its name in any case); its name as it was saved."""
        name, _ = await self._saved(guild, user, name)
        if not await self.repo.delete_deck(guild, user, name):
            raise await self._no_deck(guild, user, name)
        return name

    async def export_deck(self, guild: int, user: int, name: str) -> str:
        """A deck as a plain list ("4 Kindlewhip"), for sharing and importing."""
        return render_decklist((await self._saved(guild, user, name))[1])

    async def deck_for_duel(self, guild: int, user: int, name: str) -> tuple[str, ...]:
        """The deck's cards for a duel starting now; refused if illegal, or if the
        owner's free copies (not locked by a trade or ante) are short."""
        view = await self.deck(guild, user, name)
        if view.problem:
            raise CollectionError(Text("collections.error.deck_unplayable", deck=view.name,
                                       problem=view.problem))
        return check_deck(view.cards)

    async def saved_name(self, guild: int, user: int, name: str) -> str | None:
        """The name deck ``name`` was saved under (names ignore case), or ``None``
        if ``user`` has no such deck here or ``name`` is not a deck's name at all."""
        try:
            saved = await self.repo.deck(guild, user, deck_name(name))
        except CollectionError:
            return None
        return None if saved is None else saved.name

    async def _saved(self, guild: int, user: int, name: str) -> tuple[str, Counter[str]]:
        """A saved deck's name as saved, and its cards; refused naming the decks there
        are if there is none of that name (in any case)."""
        name = deck_name(name)
        saved = await self.repo.deck(guild, user, name)
        if saved is None:
            raise await self._no_deck(guild, user, name)
        return saved.name, Counter(saved.cards)

    async def _no_deck(self, guild: int, user: int, name: str) -> CollectionError:
        names = [d.name for d in await self.repo.decks(guild, user)]
        if names:
            return CollectionError(Text("collections.error.no_deck_yours", deck=name,
                                        decks=", ".join(names)))
        return CollectionError(Text("collections.error.no_deck", deck=name))

    async def _store_deck(self, guild: int, user: int, name: str,
                          cards: Mapping[str, int]) -> DeckView:
        ordered = tuple(card for card in sorted(cards) for _ in range(cards[card]))
        await self.repo.save_deck(guild, user, name, ordered, self.clock.now())
        return _deck_view(name, Counter(cards), await self.repo.counts(guild, user))

    async def deck_problem(self, guild: int, user: int, cards: Counter[str], *,
                           ante: bool = False) -> Text | None:
        """What keeps ``cards`` from play for ``user`` now (illegal, or short of free
        copies, naming those locked), or ``None``. With ``ante``, also what keeps it
        from being staked (:func:`unstakeable`): the one check of an ante table's
        seat and of its start, so a deck seated is a deck that can start."""
        return _deck_problem(cards, await self.repo.counts(guild, user), ante=ante)

    # -- trades
    async def offer(self, guild: int, offerer: int, receiver: int, give: str,
                    get: str) -> TradeView:
        """Offer the offerer's free copies named in ``give`` for the receiver's in ``get``."""
        if offerer == receiver:
            raise TradeProblem(Text("collections.error.trade_self"))
        giving, getting = card_list(give, "give list"), card_list(get, "get list")
        if not giving and not getting:
            raise TradeProblem(Text("collections.error.trade_empty"))
        if max(sum(giving.values()), sum(getting.values())) > MAX_TRADE_COPIES:
            raise TradeProblem(Text("collections.error.trade_too_big", most=MAX_TRADE_COPIES))
        give_copies = await self._pick(guild, offerer, giving, mine=True)
        public = (await self.settings.get(guild)).collections_public
        get_copies = await self._pick(guild, receiver, getting, mine=False, counted=public)
        try:
            trade = await self.repo.offer_trade(
                guild, offerer, receiver, [c.id for c in give_copies],
                [c.id for c in get_copies], self.clock.now(), self.offer_seconds)
        except CollectionRefusal as exc:
            raise TradeProblem(Text("collections.error.not_offered", why=_problem(exc))) from None
        return await self._trade_view(trade)

    async def _pick(self, guild: int, owner: int, wanted: Mapping[str, int], *,
                    mine: bool, counted: bool = True) -> list[Copy]:
        chosen, short = pick_free(await self.repo.owned(guild, owner), wanted)
        if short and not counted:
            raise TradeProblem(Text("collections.error.they_short_private"))
        if short and mine:
            raise TradeProblem(Text("collections.error.you_short", cards=counts_text(short)))
        if short:
            raise TradeProblem(Text("collections.error.they_short", cards=counts_text(short)))
        return chosen

    async def accept(self, trade_id: int, user: int, *, guild: int | None = None) -> TradeView:
        """The receiver accepts; the confirm window opens shortly after. With ``guild``,
        a trade of another server is refused as unknown (so are the others below)."""
        await self._here(trade_id, guild)
        return await self._act(lambda: self.repo.accept_trade(
            trade_id, user, self.clock.now(), self.confirm_seconds), "accept")

    async def confirm(self, trade_id: int, user: int, *, guild: int | None = None) -> TradeView:
        """A party confirms; the second confirmation swaps the cards."""
        await self._here(trade_id, guild)
        return await self._act(lambda: self.repo.confirm_trade(trade_id, user, self.clock.now()),
                               "confirm")

    async def decline(self, trade_id: int, user: int, *, guild: int | None = None) -> TradeView:
        """The receiver declines; every copy unlocks."""
        await self._here(trade_id, guild)
        return await self._act(lambda: self.repo.decline_trade(trade_id, user, self.clock.now()),
                               "decline")

    async def cancel(self, trade_id: int, user: int, *, guild: int | None = None) -> TradeView:
        """Either party cancels; every copy unlocks."""
        await self._here(trade_id, guild)
        return await self._act(lambda: self.repo.cancel_trade(trade_id, user, self.clock.now()),
                               "cancel")

    async def trade(self, trade_id: int, guild: int) -> TradeView:
        """One trade of this server as both sides see it."""
        return await self._trade_view(await self._here(trade_id, guild))

    async def open_trades(self, guild: int, user: int) -> list[TradeView]:
        """``user``'s open and accepted trades here, oldest first."""
        return [await self._trade_view(t) for t in await self.repo.live_trades(guild, user)]

    async def _here(self, trade_id: int, guild: int | None) -> Trade:
        trade = await self.repo.trade(trade_id)
        if trade is None or (guild is not None and trade.guild_id != guild):
            raise TradeProblem(Text("collections.error.no_trade_here"))
        return trade

    # -- the offer messages
    async def offer_shown(self, view: TradeView, channel: int, message: int) -> None:
        """Remember that ``message`` in ``channel`` is the trade's offer, showing ``view``."""
        await self.repo.show_trade(view.id, channel, message, view.face, not view.live)

    async def offer_message(self, trade_id: int) -> TradeMessage | None:
        """Where the trade's offer message is, and the face it last showed."""
        return await self.repo.trade_message(trade_id)

    async def offers_behind(self, limit: int = 50) -> list[tuple[TradeMessage, TradeView]]:
        """Offer messages that show a trade as it no longer is (expired since, or
        changed while the bot was down), each with the trade as it is now."""
        behind = []
        for message, trade in await self.repo.unsettled_messages(limit):
            view = await self._trade_view(trade)
            if view.face != message.shown:
                behind.append((message, view))
        return behind

    async def expire_due(self) -> list[int]:
        """Close every trade past its expiry (a periodic task); their ids."""
        return await self.repo.expire_trades(self.clock.now())

    async def _act(self, write: Callable[[], Awaitable[Trade]], verb: str) -> TradeView:
        try:
            trade = await write()
        except TooEarly as exc:
            raise TooSoon(Text("collections.error.confirm_window",
                               wait=wait_text(exc.seconds_left)), exc.seconds_left) from None
        except NotParty:
            raise TradeProblem(NOT_PARTY[verb]) from None
        except TradeClosed as exc:
            raise TradeProblem(_closed_text(exc.state, verb)) from None
        except CollectionRefusal as exc:
            raise TradeProblem(Text("collections.error.trade_failed", why=_problem(exc))) from None
        return await self._trade_view(trade)

    async def _trade_view(self, trade: Trade) -> TradeView:
        # The trade's own copies by id (wherever they are now), not both collections.
        copies = {c.id: c for c in await self.repo.copies([*trade.give, *trade.get])}

        async def side(ids: Sequence[int]) -> tuple[CopyView, ...]:
            return await self._views(trade.guild_id, (copies[i] for i in ids if i in copies))
        return TradeView(trade.id, trade.offerer_id, trade.receiver_id, trade.status,
                         await side(trade.give), await side(trade.get), trade.expires_at,
                         trade.confirm_opens_at, trade.offerer_confirmed,
                         trade.receiver_confirmed, trade.guild_id)

    # -- ante
    async def stake_ante(self, guild: int, match: int,
                         players: Mapping[int, tuple[int, str]]) -> AnteStaked:
        """Set aside, for each seat, a free copy its player owns of the card that was
        on top of their library (``seat → (user, card name)``); storage picks the
        copy (unlimited first, then the highest serial) in the write that stakes it."""
        seats = sorted(players)
        stakes = [(players[seat][0], one_card(players[seat][1])) for seat in seats]
        try:
            ids = await self.repo.stake_cards(guild, match, stakes, self.clock.now())
        except AnteClosed:
            raise CollectionError(Text("collections.error.ante_exists")) from None
        except NotOwned:
            raise await self._no_stake(guild, seats, stakes) from None
        except CollectionRefusal as exc:
            raise CollectionError(Text("collections.error.ante_not_staked",
                                       why=_problem(exc))) from None
        copies = {copy.id: copy for copy in await self.repo.copies(ids)}
        return AnteStaked(match, {seat: await self._view(guild, copies[copy_id])
                                  for seat, copy_id in zip(seats, ids, strict=True)})

    async def _no_stake(self, guild: int, seats: Sequence[int],
                        stakes: Sequence[tuple[int, str]]) -> CollectionError:
        """Which seat had no free copy of its card (read after the refusal)."""
        for seat, (user, card) in zip(seats, stakes, strict=True):
            count = (await self.repo.counts(guild, user)).get(card)
            if count is None or count.free < 1:
                return CollectionError(Text("collections.error.ante_no_copy", seat=seat + 1,
                                            card=card_phrase(card)))
        return CollectionError(Text("collections.error.ante_not_free"))

    async def settle_ante(self, guild: int, match: int, winner: int | None) -> AnteSettled:
        """Give every staked copy to ``winner`` (``None``: a draw, all go back)."""
        try:
            moved = await self.repo.settle_ante(match, winner, self.clock.now())
        except AnteClosed:
            raise CollectionError(Text("collections.error.ante_none")) from None
        except BadRequest:
            raise CollectionError(Text("collections.error.ante_winner_staked_nothing")) from None
        copies = [] if winner is None else [c for c in await self.repo.owned(guild, winner)
                                            if c.id in set(moved)]
        return AnteSettled(match, winner, await self._views(guild, copies))

    # -- audit
    async def audit(self, guild: int) -> list[str]:
        """Every problem the ledger replay finds, as lines (none: the books balance)."""
        return [str(problem) for problem in await self.repo.audit(guild)]

    async def audit_report(self, guild: int) -> AuditReport:
        """``/audit``: the copies and ledger rows here, and every problem found."""
        copies, rows = await self.repo.books(guild)
        return AuditReport(copies, rows, tuple(await self.audit(guild)))


def _deck_problem(cards: Counter[str], counts: Mapping[str, CardCount], *,
                  ante: bool) -> Text | None:
    """:meth:`CollectionService.deck_problem` from the owner's ``counts``."""
    size = size_problem(sum(cards.values()))
    if size is None:
        try:
            check_deck(cards)
        except BadOptions as exc:
            return Text("collections.sentence", words=exc.text)
    free = {card: c.free for card, c in counts.items()}
    short = shortfall(cards, free)
    if not short:
        if size is not None:
            return Text("collections.sentence", words=size)
        return unstakeable(cards, free) if ante else None
    locked = {card: min(n, counts[card].owned - counts[card].free)
              for card, n in short.items() if card in counts}
    locked = {card: n for card, n in locked.items() if n > 0}
    shortage = Text("collections.deck.short_locked", cards=counts_text(short),
                    locked=counts_text(locked)) if locked else Text(
        "collections.deck.short", cards=counts_text(short))
    # Every fault at once: a deck is built a few cards at a time.
    if size:
        return Text("collections.deck.size_and_short", size=size, short=shortage)
    return shortage


def _deck_view(name: str, cards: Counter[str], counts: Mapping[str, CardCount]) -> DeckView:
    """A deck as shown, what keeps it from play and from ante worked out from one read
    of its owner's ``counts``."""
    problem = _deck_problem(cards, counts, ante=False)
    staked = None if problem else _deck_problem(cards, counts, ante=True)
    return DeckView(name, dict(sorted(cards.items())), sum(cards.values()), problem, staked)


def _how_packs_come(daily: bool, wins: bool) -> Phrase | str:
    """How packs come on a server, in words."""
    ways: list[Phrase | str] = (
        ([Text("collections.packs.way.daily")] if daily else [])
        + ([Text("collections.packs.way.wins")] if wins else [])
        + [Text("collections.packs.way.prizes")])
    return Text("collections.packs.how", ways=listed_and(ways))


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CollectionError(Text("collections.error.not_whole", what=WHOLE.get(what, what),
                                   typed=shown(value)))
    return value


WHOLE = {"number of packs": Phrase("collections.what.packs"),
         "page": Phrase("collections.what.page"), "per_page": Phrase("collections.what.per_page")}
"""The numbers a person gives, named in a refusal."""
NOT_PARTY = {"accept": Text("collections.error.only_receiver.accept"),
             "decline": Text("collections.error.only_receiver.decline"),
             "confirm": Text("collections.error.only_parties.confirm"),
             "cancel": Text("collections.error.only_parties.cancel")}
"""Who may do what to a trade, said to someone else who tried."""
CLOSED = {
    "accept": {"done": Text("collections.error.closed.accept.done"),
               "declined": Text("collections.error.closed.accept.declined"),
               "cancelled": Text("collections.error.closed.accept.cancelled"),
               "expired": Text("collections.error.closed.accept.expired"),
               "accepted": Text("collections.error.closed.accept.accepted")},
    "confirm": {"done": Text("collections.error.closed.confirm.done"),
                "declined": Text("collections.error.closed.confirm.declined"),
                "cancelled": Text("collections.error.closed.confirm.cancelled"),
                "expired": Text("collections.error.closed.confirm.expired"),
                "accepted": Text("collections.error.closed.confirm.accepted")},
    "decline": {"done": Text("collections.error.closed.decline.done"),
                "declined": Text("collections.error.closed.decline.declined"),
                "cancelled": Text("collections.error.closed.decline.cancelled"),
                "expired": Text("collections.error.closed.decline.expired"),
                "accepted": Text("collections.error.closed.decline.accepted")},
    "cancel": {"done": Text("collections.error.closed.cancel.done"),
               "declined": Text("collections.error.closed.cancel.declined"),
               "cancelled": Text("collections.error.closed.cancel.cancelled"),
               "expired": Text("collections.error.closed.cancel.expired"),
               "accepted": Text("collections.error.closed.cancel.accepted")},
}
"""A closed trade's refusal of each action, by the state it is in."""


def _closed_text(state: str, verb: str) -> Text:
    """Why a trade refused ``verb``, from the store's code for its state."""
    if state == "not_accepted":
        return Text("collections.error.not_accepted_yet")
    if state == "missing":
        return Text("collections.error.no_trade")
    return CLOSED[verb].get(state) or Text("collections.error.closed", state=state)


# -- collection rows, filters and sorts ---------------------------------------------------
def _rows(copies: Iterable[Copy]) -> list[CollectionRow]:
    grouped: dict[str, list[Copy]] = {}
    for copy in copies:
        grouped.setdefault(copy.card, []).append(copy)
    rows = []
    for card, mine in grouped.items():
        data = card_set()[card]
        rows.append(CollectionRow(
            card, data.colour, data.type, data.rarity, len(mine),
            sum(c.lock is None for c in mine), sum(c.serial is None for c in mine),
            tuple(sorted(c.serial for c in mine if c.serial is not None))))
    return rows


_SORTS: dict[str, Callable[[CollectionRow], tuple]] = {
    "name": lambda r: (r.card,),
    "colour": lambda r: (r.colour or "~", r.card),
    "rarity": lambda r: (RARITY_RANK[r.rarity], r.card),
    "count": lambda r: (-r.count, r.card),
}


def _bad_sort(sort: object) -> Callable[[CollectionRow], tuple]:
    raise CollectionError(Text("collections.error.bad_sort", sorts=", ".join(_SORTS),
                               typed=shown(sort)))


def _choice(value: str | None, choices: Mapping[str, str], what: str) -> str | None:
    if value is None or not str(value).strip():
        return None
    key = str(value).strip().casefold()
    if key not in choices:
        raise CollectionError(Text("collections.error.bad_filter", what=what,
                                   choices=", ".join(sorted(set(choices))),
                                   typed=shown(value)))
    return choices[key]


def _filters(colour: str | None, type_: str | None, rarity: str | None,
             edition: str | None, name: str | None) -> Callable[[CollectionRow], bool]:
    colours = {**{n: c for c, n in COLOUR_NAMES.items()}, "colourless": "none"}
    want_colour = _choice(colour, colours, "colour")
    types = {t: t for t in {d.type for d in card_set().values()}}
    want_type = _choice(type_, types, "type")
    want_rarity = _choice(rarity, {r: r for r in RARITY_RANK}, "rarity")
    want_edition = _choice(edition, {"limited": "limited", "unlimited": "unlimited"},
                           "edition")
    if name is not None and len(name) > 40:
        raise CollectionError(Text("collections.error.name_too_long"))
    needle = " ".join((name or "").split()).casefold()
    # A name is looked for in every language Croupier speaks: the words its reader sees.
    named = {card_words.card_name(key, "en") for key in card_words.cards_named(needle)} \
        if needle else set()

    def keep(row: CollectionRow) -> bool:
        return ((want_colour is None or (row.colour or "none") == want_colour)
                and (want_type is None or row.type == want_type)
                and (want_rarity is None or row.rarity == want_rarity)
                and (want_edition is None
                     or (row.unlimited if want_edition == "unlimited" else row.serials))
                and (needle in row.card.casefold() or row.card in named))
    return keep


__all__ = [
    "MOST_GIVEN", "MOST_WAITING", "AnteSettled", "AnteStaked", "AuditReport", "CardCounts",
    "CollectionError", "CollectionPage", "CollectionRow", "CollectionService", "CopyView",
    "DeckView", "PackGiver", "PackOpened", "PacksWaiting", "StarterClaimed", "TooSoon",
    "TradeProblem", "TradeView", "card_list", "cards_named", "counts_text", "deck_name",
    "file_safe", "listed", "listed_and", "one_card",
    "pick_free", "wait_text",
]
