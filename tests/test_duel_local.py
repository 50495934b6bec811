"""Arcane Duel at the local table: a whole duel against the computer with a
starter deck, typed as a person types, through the match service and SQLite."""

from __future__ import annotations

import random
import re

import pytest

from bot.local import play_local
from storage import Store

MAX_ANSWERS = 3_000
"""A duel answered this often is stuck (a test fails rather than hangs)."""


class DuelPlayer:
    """Answers every prompt with ``legal`` and then the first option it lists
    (the first N for "discard N"); a damage split gives all of it to the first
    option."""

    def __init__(self) -> None:
        self._picks = 1
        self.out: list[str] = []
        self.answers: list[str] = []
        self._pending: str | None = None
        self._split: int | None = None

    def write(self, text: str) -> None:
        self.out.append(text)
        if self._pending == "legal":
            rows = [re.split(r"\s{2,}", line.strip())[0]
                    for line in text.split("\n")[1:] if line.startswith("  ")]
            listed = re.search(r"Legal \(\d+\): (.+)$", text)
            options = rows or (listed.group(1).split(", ") if listed else [])
            if not options:
                self._pending = None
            elif self._split is not None:
                self._pending = f"{options[0]}={self._split}"
            else:
                self._pending = ",".join(options[:self._picks])

    async def read_line(self, prompt: str) -> str:
        assert len(self.answers) < MAX_ANSWERS, "the duel does not end: " + prompt
        if self._pending not in (None, "legal"):
            answer, self._pending = self._pending, None
            self.answers.append(answer)
            return answer
        split = re.search(r"Split .*?(\d+) damage", prompt)
        self._split = int(split.group(1)) if split else None
        discard = re.match(r"Discard (\d+)", prompt)
        self._picks = int(discard.group(1)) if discard else 1
        self._pending = "legal"
        return "legal"


@pytest.mark.parametrize("seed", range(6))
async def test_a_whole_duel_at_the_terminal_against_the_computer(tmp_path, monkeypatch, seed):
    # The match's seed is drawn by the lobby: fixed here, so each case is one duel.
    monkeypatch.setattr("bot.lobby.random.SystemRandom", lambda: random.Random(seed))
    person = DuelPlayer()
    db = tmp_path / "local.sqlite3"
    match = await play_local(str(db), game="duel", seats=2, read_line=person.read_line,
                             write=person.write, name="Tess")
    assert match is not None and match.finished
    text = "\n".join(person.out)
    assert "Arcane Duel — turn 1" in text and "Your hand:" in text
    assert any(a.startswith("land ") for a in person.answers)  # the person played lands
    assert "── The final position ──" in text
    assert re.search(r"\nResult: (Tess wins|Croupier Bot wins|A draw)", text)
    assert not [line for block in person.out for line in block.split("\n")
                if line.startswith("⚠") and "not a legal" not in line]
    store = await Store.open(db)
    try:
        assert (await store.matches.get(match.id)).status == "finished"
    finally:
        await store.close()
