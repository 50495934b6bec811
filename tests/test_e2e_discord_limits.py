"""End to end: whatever words a game gives its options and prompts, the menus and forms
the bot sends fit Discord's limits (a select option's label 1-100 characters, a
placeholder 150; a modal's title 1-45, a text input's label 1-45), which the fake
Discord enforces as Discord does (tests/test_fakediscord_limits.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest

from rules.core import Decision, Event, GameInfo, GameState, Outcome
from rules.options import GameOptions
from rules.registry import add_game, remove_game
from tests.e2e import make_bot

TARGET = "t" * 60
"""A split target whose key is longer than a text input's label may be."""


class WordyState(GameState):
    """Seat 0 picks one of a, b, c under a 200-character prompt; seat 1 then splits 3
    between two targets, with no prompt at all. The game names its options oddly: some
    blank, some 150 characters long."""

    game = "wordy"

    def __init__(self, seats: int, seed: int) -> None:
        super().__init__(seats, seed)
        self.log: list[str] = []

    def decisions(self) -> tuple[Decision, ...]:
        if not self.log:
            return (Decision(0, "pick", "P" * 200, ("a", "b", "c")),)
        if len(self.log) == 1:
            return (Decision(1, "share", "", (TARGET, "u"), pick="split", total=3),)
        return ()

    def _apply(self, seat: int, choice: str) -> list[Event]:
        self.log.append(choice)
        return [Event("did", f"{{s{seat}}} chose.")]

    def _outcome(self) -> Outcome | None:
        return Outcome((1, 2), None, "done") if len(self.log) >= 2 else None

    def observe(self, seat: int | None) -> tuple[str, ...]:
        return tuple(self.log)

    def notation(self) -> str:
        return "|".join(self.log)


def words(observation: Any, decision: Decision, option: str, names: Sequence[str]) -> str:
    """Blank for most options, far too long for "b"."""
    return "B" * 150 if option == "b" else ""


class WordyOptions(GameOptions):
    title: ClassVar[str] = "Wordy"


WORDY = GameInfo(
    name="wordy", title="Wordy", min_seats=2, max_seats=2,
    new_state=lambda options, seats, seed, setup: WordyState(seats, seed),
    options=WordyOptions, bot=lambda state, seat, rng: "a", rules_text="Words.",
    has_secrets=True, option_text=words)


@pytest.fixture
def wordy() -> Iterator[GameInfo]:
    """The wordy game, registered for one test."""
    add_game(WORDY)
    yield WORDY
    remove_game(WORDY.name)


async def test_menus_and_forms_fit_discords_limits_whatever_the_words(
        fake_discord, tmp_path, wordy):
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("words")
    ada, bo = fake_discord.add_user("Ada"), fake_discord.add_user("Bo")
    bot = make_bot(tmp_path / "wordy.sqlite3")
    async with fake_discord.running(bot):
        await fake_discord.slash(ada, channel, "play wordy")
        await fake_discord.slash(bo, channel, "join")
        await fake_discord.slash(ada, channel, "start")
        await bot.service.settle()
        match = bot.service.match_in(channel.id)

        dm = await fake_discord.wait_for_message(ada, contains="PPPP")
        (menu,) = dm.selects
        assert len(menu.placeholder or "") <= 150
        labels = {o.value: o.label for o in menu.options}
        assert labels["a"] == "a"  # a blank label shows the option itself
        assert len(labels["b"]) == 100 and labels["b"].endswith("…")
        await fake_discord.select(ada, dm, menu.custom_id, ["b"])
        await bot.service.settle()

        dm = await fake_discord.wait_for(lambda: next(
            (m for m in fake_discord.dm_messages(bo) if m.buttons), None))
        opened = await fake_discord.click(bo, dm, label="Divide…")
        form = opened.interaction.modal
        assert form is not None and 1 <= len(form["title"]) <= 45
        inputs = [row["components"][0] for row in form["components"]]
        assert [i["custom_id"] for i in inputs] == [TARGET, "u"]
        assert all(1 <= len(i["label"]) <= 45 for i in inputs)
        await fake_discord.submit_modal(bo, opened, {TARGET: "3"})
        await bot.service.settle()
        assert match.finished and match.state.log == ["b", f"{TARGET}=3"]
    assert not [r for r in fake_discord.rejections if r.code == 50035]
