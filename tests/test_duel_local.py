"""Arcane Duel at the local table: a whole duel against the computer with a
starter deck, typed as a person types, through the match service and SQLite."""

from __future__ import annotations

import re

from bot.local import play_local
from storage import Store


class DuelPlayer:
    """Answers every prompt with ``legal`` and then the first option it lists;
    a damage split gives all of it to the first option."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.answers: list[str] = []
        self._pending: str | None = None
        self._split: int | None = None

    def write(self, text: str) -> None:
        self.out.append(text)
        if self._pending == "legal":
            rows = [line for line in text.split("\n")[1:] if line.startswith("  ")]
            listed = re.search(r"Legal \(\d+\): (.+)$", text)
            first = (re.split(r"\s{2,}", rows[0].strip())[0] if rows
                     else listed.group(1).split(", ")[0] if listed else None)
            self._pending = None if first is None else (
                f"{first}={self._split}" if self._split is not None else first)

    async def read_line(self, prompt: str) -> str:
        if self._pending not in (None, "legal"):
            answer, self._pending = self._pending, None
            self.answers.append(answer)
            return answer
        split = re.search(r"Split .*?(\d+) damage", prompt)
        self._split = int(split.group(1)) if split else None
        self._pending = "legal"
        return "legal"


async def test_a_whole_duel_at_the_terminal_against_the_computer(tmp_path):
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
