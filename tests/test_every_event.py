"""Random games of every game, with every event kind they emit rendered in words and
every position drawn by the game's presenter: no event may lack words, no table or
private view may fail to draw, whatever the names."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.discord_parts.replies import fit
from bot.games import presenter_for
from bot.i18n import narrate
from bot.matches.live import LiveMatch
from rules.core import Event
from rules.registry import games
from storage.models import MatchRow, SeatRow

NAMES = ("{boss}", "Ada", "{0}", "{s1}", "Émile 🂠", "x" * 32)
GAMES = ("flank", "eclipse", "nails", "duel")
SETUPS = {"flank": [({}, 2)], "eclipse": [({}, 2), ({}, 4), ({"counterattack": 1}, 3)],
          "nails": [({}, 2), ({"deck": "space"}, 2), ({"teams": False}, 4)],
          "duel": [({}, 2), ({"life": 30}, 4)]}
DRAW_EVERY = 20
"""Draw the table every this many choices (and at the start and the end): every
tenth choice once, for twice the time the suite could spare."""


def live(game: str, options: dict, seats: int, seed: int) -> LiveMatch:
    info = games()[game]
    row = MatchRow(id=seed, game=game, options=info.options.parse(options).stored(), seed=seed,
                   guild_id=1, channel_id=seed, host_id=1, max_seats=seats, status="active",
                   seats=[SeatRow(seat=i, user_id=i + 1, name=NAMES[i % len(NAMES)],
                                  is_bot=i % 2 == 1) for i in range(seats)])
    return LiveMatch(row=row, info=info, state=info.new(options, seats, seed))


def words(event: Event, names: tuple[str, ...]) -> str:
    text = narrate(event, names, "en")
    assert text.strip(), f"{event.kind} has no words"
    assert "{s" not in text.replace("{s1}", ""), f"{event.kind}: {text}"
    assert "None" not in text, f"{event.kind}: {text}"
    return text


def draw(match: LiveMatch, narration: list[str]) -> None:
    presenter = presenter_for(match.info.name)
    parts = fit(presenter.table(match, narration[-6:]))
    assert parts["embed"] is not None
    for seat in match.seats:
        if match.info.has_secrets and not seat.is_bot:
            view = match.private_view(seat.seat)
            private = fit(presenter.private(match, view))
            assert private["embed"].description


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_event_has_words_and_every_position_draws(game):
    kinds: Counter[str] = Counter()
    for options, seats in SETUPS[game]:
        for seed in range(3):
            match = live(game, options, seats, seed)
            rng = random.Random(seed)
            narration: list[str] = []
            draw(match, narration)
            choices = 0
            while not match.state.over and choices < 800:
                decision = match.state.pending()[0]
                events = match.state.apply(decision.seat,
                                           match.info.bot(match.state, decision.seat, rng))
                choices += 1
                for event in events:
                    kinds[event.kind] += 1
                    text = words(event, match.names)
                    if event.public:
                        narration.append(text)
                if choices % DRAW_EVERY == 0:
                    draw(match, narration)
            match.finished = match.state.over
            draw(match, narration)
            if match.finished:
                assert presenter_for(game).result_text(match)
    assert len(kinds) >= 2, kinds
