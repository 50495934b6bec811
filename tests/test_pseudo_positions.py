"""Whole games of every game in the pseudo-locale (issue 33), position by position: every
event narrated, the table's embed and every seat's private view, the table's picture and
every hand's: not one English word left (only names and the games' notation), and every
picture's words inside it and apart. The end-to-end tests show what Discord is sent;
this reads every kind of position a game reaches, pictures included."""

from __future__ import annotations

import random
from collections.abc import Iterator

import discord
import pytest

from bot.discord_parts.replies import fit
from bot.games import presenter_for
from bot.i18n import narrate, pseudo, speaking
from bot.matches.live import LiveMatch
from rules.registry import games
from storage.models import MatchRow, SeatRow
from tests.pseudo import english_left, pictures_checked

NAMES = ("Jo", "Zé", "Lu", "Bí")
SETUPS = {"flank": ({}, 2), "eclipse": ({"counterattack": 1}, 3), "nails": ({}, 4),
          "duel": ({}, 2)}
LOOK_EVERY = 7
"""Look at the position every this many choices (and at the start and the end)."""


@pytest.fixture(autouse=True)
def speaking_pseudo() -> Iterator[None]:
    pseudo.enable()
    try:
        with speaking("qps"):
            yield
    finally:
        pseudo.enable(False)


def live(game: str, seed: int) -> LiveMatch:
    info = games()[game]
    options, seats = SETUPS[game]
    row = MatchRow(id=seed, game=game, options=info.options.parse(options).stored(), seed=seed,
                   guild_id=1, channel_id=seed, host_id=1, max_seats=seats, status="active",
                   seats=[SeatRow(seat=i, user_id=i + 1, name=NAMES[i], is_bot=False)
                          for i in range(seats)])
    return LiveMatch(row=row, info=info, state=info.new(options, seats, seed))


def embed_texts(embed: discord.Embed | None) -> Iterator[str]:
    if embed is None:
        return
    yield from (text for text in (embed.title, embed.description,
                                  embed.footer.text if embed.footer else None) if text)
    for field in embed.fields:
        yield str(field.name)
        yield str(field.value)


def look(match: LiveMatch, narration: list[str], allowed: tuple[str, ...]) -> list[str]:
    """Every English word the position shows anywhere, where."""
    presenter = presenter_for(match.info.name)
    left = []
    parts = fit(presenter.table(match, narration[-6:]))
    shown = [*embed_texts(parts.get("embed")), parts.get("content") or ""]
    with pictures_checked() as drawn:
        presenter.table_png(match.state.observe(None), match.names)
        for seat in match.seats:
            view = match.private_view(seat.seat)
            private = fit(presenter.private(match, view))
            shown += [*embed_texts(private.get("embed")), private.get("content") or ""]
            shown += presenter.option_labels(match, view)
            presenter.hand_png(view)
    shown += [placed.text for placed in drawn]
    for text in shown:
        if words := english_left(text, allowed):
            left.append(f"{text!r}: {words}")
    return left


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_a_whole_game_shows_no_english_in_any_position(game: str) -> None:
    match = live(game, 7)
    rng = random.Random(7)
    title = match.info.title  # a name, in no language
    allowed = (*NAMES, title, title.upper())
    narration: list[str] = []
    left = look(match, narration, allowed)
    choices = 0
    while not match.state.over and choices < 400:
        decision = match.state.pending()[0]
        for event in match.state.apply(decision.seat,
                                       match.info.bot(match.state, decision.seat, rng)):
            text = narrate(event, match.names)
            left += [f"{event.kind}: {text!r}"] if english_left(text, allowed) else []
            if event.public:
                narration.append(text)
        choices += 1
        if choices % LOOK_EVERY == 0:
            left += look(match, narration, allowed)
    match.finished = match.state.over
    left += look(match, narration, allowed)
    assert sorted(set(left)) == []
