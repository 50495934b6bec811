"""Names everywhere, never seat numbers: random games of every game, played by computer
players to their end or to a resignation, shown through the presenter with names. No
result, narration line, prompt or option in words says "player 2" or "seat 3" (issue 28:
"Croupier Bot wins; player 2 is the last one standing")."""

from __future__ import annotations

import random
import re

import pytest

from bot.games import presenter_for
from bot.i18n import narrate, say
from bot.matches.live import LiveMatch
from rules.core import Outcome
from rules.phrases import Phrase, Seat
from rules.registry import games
from storage.models import MatchRow, SeatRow

NAMES = ("Ada", "Bo", "Cy", "Di", "Eve", "Flo")
NUMBERED = re.compile(r"\b(?:player|seat|p)\s*#?\d+\b", re.IGNORECASE)
SETUPS = {"flank": [({}, 2)],
          "eclipse": [({"hand_cap": 40}, 2), ({"hand_cap": 40}, 4)],
          "nails": [({}, 2), ({"deck": "workshop4"}, 3), ({}, 4)],
          "duel": [({}, 2), ({"life": 5}, 3)]}
MAX_CHOICES = 400


def live(game: str, options: dict, seats: int, seed: int) -> LiveMatch:
    info = games()[game]
    row = MatchRow(id=seed + 1, game=game, options=info.options.parse(options).stored(), seed=seed,
                   guild_id=1, channel_id=seed, host_id=1, max_seats=seats, status="active",
                   seats=[SeatRow(seat=i, user_id=i + 1, name=NAMES[i], is_bot=False)
                          for i in range(seats)])
    return LiveMatch(row=row, info=info, state=info.new(options, seats, seed))


def numbered(text: str) -> list[str]:
    return NUMBERED.findall(text)


def shown_words(match: LiveMatch) -> list[str]:
    """What the players read now: each pending decision's prompt and options in words."""
    state, info = match.state, match.info
    said = []
    for decision in state.pending():
        said.append(say(decision.prompt, "en", match.names))
        if info.option_text is not None:
            observation = state.observe(decision.seat)
            said += [say(info.option_text(observation, decision, option, match.names), "en")
                     for option in decision.options[:40]]
    return said


def play(game: str, options: dict, seats: int, seed: int, resign_at: int | None) -> list[str]:
    match = live(game, options, seats, seed)
    info, state = match.info, match.state
    rng = random.Random(seed)
    said: list[str] = []
    choices = 0
    while not state.over and choices < MAX_CHOICES:
        said += shown_words(match)
        if choices == resign_at:
            events = state.resign(rng.randrange(seats))
        else:
            decision = state.pending()[0]
            events = state.apply(decision.seat, info.bot(state, decision.seat, rng))
        choices += 1
        said += [narrate(event, match.names, "en") for event in events]
    if not state.over:
        events = state.resign(0)
        said += [narrate(event, match.names, "en") for event in events]
    match.finished = True
    presenter = presenter_for(game)
    said.append(presenter.result_text(match))
    said.append(presenter.table(match, said[-6:])["embed"].fields[-1].value)
    if info.text is not None:
        said += [say(info.text(state.observe(seat), match.names), "en")
                 for seat in (None, *range(seats))]
    return said


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_no_result_or_narration_names_a_seat_by_number(game):
    for options, seats in SETUPS[game]:
        for seed in range(3):
            resign_at = None if seed == 0 else random.Random(seed).randrange(1, 60)
            for text in play(game, options, seats, seed, resign_at):
                assert not numbered(text), (game, seats, seed, text)


def test_outcome_reasons_name_seats_as_placeholders():
    """A reason names seats as seats (a phrase's ``Seat``), filled with names when shown
    (and stored so)."""
    outcome = Outcome.forfeited(3, 1)
    assert outcome.reason == Phrase("core.reason.forfeited", who=Seat(1))
    assert say(outcome.said(["Ada", "Bo", "Cy"]), "en", ["Ada", "Bo", "Cy"]) == "Bo forfeited"
    assert say(outcome.reason, "en", ["{s0}", "{s1}", "x"]) == "{s1} forfeited"  # names are data
