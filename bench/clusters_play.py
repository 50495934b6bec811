"""The simulated people of the cluster benchmark (:mod:`bench.clusters`), inside one
worker process: building and ageing matches, and playing them saturated, paced or
one click at a time.

The mix is the rules-heavy one of issue 31: Hammer & Nails and Arcane Duel, in turn,
each with its default options and seat count, every seat a person. Match ``n`` lives
in its own guild, :func:`guild_of`, so that processes split the matches as Discord's
shards split guilds (:func:`shard_of`).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from bench.duel import random_choice
from bench.service import Slot
from bench.service import _idle as idle
from bot.matches.live import LiveMatch, Player
from bot.matches.service import MatchService
from rules.core import Decision, GameState
from rules.registry import get_game

SEED = 20_261_128
GAMES: tuple[str, ...] = ("nails", "duel")
"""The rules-heavy mix, each game with its default options and seat count."""
AGE = {"nails": 48, "duel": 80}
"""Before the load, match ``n`` plays a seeded number of choices below this, so that
the load meets each game at every stage and not only openings (Nails' choices grow
dearer as its stack grows over its ~48 choices; a duel lasts 150 to 900 choices, and
its board fills over the first hundred)."""
REPLACED = 1 << 20
"""A match that ends is dealt again as number ``n + REPLACED`` (same game, new seed)."""


def game_of(n: int) -> str:
    """The game of the ``n``-th match of the mix."""
    return GAMES[n % len(GAMES)]


def guild_of(n: int) -> int:
    """The guild of match ``n``: an id whose shard (``(id >> 22) % shards``, as Discord
    routes a guild) is ``n % shards``."""
    return (n << 22) | 1


def shard_of(guild_id: int, shards: int) -> int:
    """The shard that receives ``guild_id``'s events (Discord's formula)."""
    return (guild_id >> 22) % shards


@dataclass
class People:
    """Hands out user and channel ids from ``base`` on: each process its own range."""

    base: int
    next_user: int = 0
    next_channel: int = 0

    def player(self) -> Player:
        """A person not seen before."""
        self.next_user += 1
        user = self.base + self.next_user
        return Player(user, f"p{user}")

    def channel(self) -> int:
        """A channel not used before."""
        self.next_channel += 1
        return self.base + self.next_channel


async def new_match(service: MatchService, people: People, n: int) -> LiveMatch:
    """Match ``n`` of the mix, started, every seat a person, in guild :func:`guild_of`."""
    game = game_of(n)
    info = get_game(game)
    host = people.player()
    channel = people.channel()
    await service.open_lobby(host, guild_id=guild_of(n % REPLACED), channel_id=channel,
                             game=game, seed=SEED + n)
    for _ in range(info.default_seats - 1):
        await service.join(people.player(), channel)
    return await service.start(host, channel)


def choose(state: GameState, decision: Decision, rng: random.Random) -> str:
    """A seeded legal choice for ``decision`` (any kind of pick)."""
    options = decision.options
    if decision.pick == "one":
        # ``random()`` rather than ``choice()``: the people should cost little.
        return options[int(rng.random() * len(options))]
    return random_choice(state, decision, rng)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Pick:
    """A click a person could make now: who, what, and the step its button was made for."""

    user_id: int
    choice: str
    step: int


def pick(match: LiveMatch, rng: random.Random) -> Pick | None:
    """A seeded legal choice for a pending seat a person must fill, or ``None`` if the
    match is over or only forced choices are pending."""
    state = match.state
    if state is None or not match.playing:
        return None
    open_ = [d for d in state.pending() if d.forced is None]
    if not open_:
        return None
    decision = open_[int(rng.random() * len(open_))]
    user_id = match.seats[decision.seat].user_id
    assert user_id is not None
    return Pick(user_id, choose(state, decision, rng), state.step)


@dataclass
class Tally:
    """What the player tasks of one window did."""

    until: float
    """The window's end (:func:`time.monotonic`, one clock for every process of the
    machine): acknowledgements after it are not counted."""
    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    finished: int = 0


async def turn(service: MatchService, people: People, slot: Slot, tag: str,
               tally: Tally) -> bool:
    """One person's choice on the slot's match; ``False`` if there was none to make (a
    forced choice pending, or the match ended and was dealt again)."""
    match = slot.match
    if match.finished or match.row.status != "active":
        tally.finished += 1
        slot.number += REPLACED
        slot.match = await new_match(service, people, slot.number)
        return False
    picked = pick(match, slot.rng)
    if picked is None:
        await idle(service, match)  # the match's driver makes the forced choice
        return False
    slot.made += 1
    started = time.monotonic()
    try:
        # With the step its button was made for, as a click carries it: a process
        # sharing the store then checks the click on its cached match, without a read.
        await service.submit(picked.user_id, match.id, picked.choice,
                             interaction_id=f"{tag}-{slot.number}-{slot.made}",
                             step=picked.step)
    except Exception:
        tally.refused += 1
        return False
    done = time.monotonic()
    if done <= tally.until:
        tally.latencies.append(done - started)
    return True


async def saturate(service: MatchService, people: People, slot: Slot, tag: str,
                   tally: Tally, *, limit: int | None = None) -> None:
    """Choices on the slot's match, each as soon as the last is acknowledged, until
    the tally's end (or ``limit`` choices)."""
    made = 0
    while time.monotonic() < tally.until and (limit is None or made < limit):
        made += await turn(service, people, slot, tag, tally)


async def pace(service: MatchService, people: People, slot: Slot, tag: str, first: float,
               interval: float, tally: Tally) -> None:
    """Choices on the slot's match every ``interval`` seconds from ``first`` (at once
    when late), until the tally's end."""
    due = first
    while due < tally.until:
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if await turn(service, people, slot, tag, tally):
            due += interval
