"""Arcane Duel at the local table: a whole duel against the computer with a
starter deck, typed as a person types, through the match service and SQLite."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.duel.terminal import duel_view
from bot.terminal.table import Screen, play_local
from rules.duel.notation import act, parse
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
        if prompt.startswith("Another game?"):
            return "q"
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
    monkeypatch.setattr("bot.matches.lobby.random.SystemRandom", lambda: random.Random(seed))
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


# -- the duel's table in rich tables ---------------------------------------------------------

def shown_to(view: object) -> str:
    """A rich view as the local table writes it for a ``write`` function."""
    out: list[str] = []
    Screen(out.append).show(duel_view(view, ["Tess", "Croupier Bot"]))
    return out[0]


def test_the_duel_table_shows_counts_permanents_the_stack_and_the_attack() -> None:
    state = parse(
        "6 p1 main // p1 20 | lib Stormcrest Roc, Kindlewhip | hand Kindlewhip, Ashpeak, Ashpeak |"
        " gy - | play 1 Ashpeak, 2 Torchbearer Militia, 3 Magma Ridgeback, 7 Ashpeak T,"
        " 8 Mossvale, 10 Ashpeak | pool RR // p2 18 | lib Burrtusk Boar | hand Forgeheat Surge |"
        " gy Sepulchral Chill | play 4 Burrtusk Boar, 5 Slagfoot Brute S D1 R1,"
        " 6 Kiln-Tempered Edge @5, 9 Mossvale")
    for action in ("attack 2,3", "pass", "pass", "block 4>3"):
        act(state, action)
    act(state, "cast Kindlewhip @5")
    text = shown_to(state.observe(0))
    lines = text.split("\n")
    assert lines[0] == ("Arcane Duel — turn 6, Tess's main phase · Croupier Bot to act: "
                        "may respond")
    # The counts: life, hand, library, graveyard and the pool, per player.
    assert re.search(r"▶ +Tess \(you\) +20 +2 +2 +0 +-\n", text)
    assert re.search(r"● +Croupier Bot +18 +1 +1 +1 +-\n", text)
    # Lands by name, counted with how many are untapped; the rest one row each.
    assert re.search(r"1, 7, 10 +Ashpeak ×3 +1 of 3 untapped", text)
    assert re.search(r"\n +3 +Magma Ridgeback +4/4 +trample, mountainwalk +tapped", text)
    assert re.search(r"\n +5 +Slagfoot Brute +5/2 +mountainwalk, first strike +sick, 1 damage, "
                     r"1 shield", text)
    assert re.search(r"6 +Kiln-Tempered Edge +enchant creature +on 5 Slagfoot Brute", text)
    # The stack, top first, with its controller and target; the attack and its blocks.
    assert re.search(r"Stack \(top first\)\n.*\n +\d+ +Kindlewhip +Tess +5 Slagfoot Brute", text)
    assert re.search(r"Attack \(block window\)\n.*\n +2 +Torchbearer Militia +2/1 +-\n"
                     r" +3 +Magma Ridgeback +4/4 +4 Burrtusk Boar", text)
    # The seat's own hand, and nothing hidden: not the other hand, nor a library.
    assert re.search(r"Your hand:\n.*\n +Ashpeak ×2 +Basic land — mountain", text)
    for hidden in ("Forgeheat Surge", "Stormcrest Roc"):
        assert hidden not in text
    assert "Sepulchral Chill" not in text  # graveyards are counted, as in Discord
    # Seen from the other seat: its own hand, and Tess's hand as a count.
    other = shown_to(state.observe(1))
    assert "Forgeheat Surge" in other and "Ashpeak ×2" not in other
    assert "Your permanents" in other and "Tess's permanents" in other
    assert "Your hand" not in shown_to(state.observe(None))
    # Mana floating in a pool, by colour letter.
    pooled = parse("3 p1 main // p1 20 | lib 1 | hand - | gy - | play - | pool GRR //"
                   " p2 20 | lib 1 | hand - | gy - | play -")
    assert re.search(r"Tess \(you\) +20 +0 +1 +0 +GRR\n", shown_to(pooled.observe(0)))
    assert "Your hand: empty" in shown_to(pooled.observe(0))


class LookingPlayer(DuelPlayer):
    """Plays a while as :class:`DuelPlayer` does, then looks at the board and leaves."""

    def __init__(self, answers: int) -> None:
        super().__init__()
        self.until = answers
        self.board: str | None = None

    async def read_line(self, prompt: str) -> str:
        if len(self.answers) < self.until:
            return await super().read_line(prompt)
        if self.board is None:
            self.board = ""
            return "board"
        if not self.board:
            self.board = self.out[-1]
        return "quit"


async def test_the_local_duel_is_shown_in_tables_without_the_opponents_hand(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setattr("bot.matches.lobby.random.SystemRandom", lambda: random.Random(2))
    person = LookingPlayer(answers=60)
    match = await play_local(str(tmp_path / "local.sqlite3"), game="duel", seats=2,
                             read_line=person.read_line, write=person.write, name="Tess")
    assert match is not None and not match.finished and person.board
    board = person.board
    state = match.state
    assert re.search(r"player +life +hand +library +graveyard +pool", board)
    assert "Your permanents" in board and "Croupier Bot's permanents" in board
    assert re.search(r"untapped", board) and "Your hand:" in board
    opponent, mine = state.players[1], state.players[0]
    assert re.search(rf"Croupier Bot +{opponent.life} +{len(opponent.hand)} "
                     rf"+{len(opponent.library)} +{len(opponent.graveyard)}", board)
    # Names only the opponent's hand or a library holds are never shown.
    seen = set(state.observe(0).names.values())
    hidden = {state.cards[c] for c in (*opponent.hand, *opponent.library, *mine.library)} - seen
    assert hidden
    assert not [name for name in hidden if re.search(rf"\b{re.escape(name)}\b", board)]


async def test_the_duel_picture_is_saved_as_png(tmp_path, monkeypatch):
    pytest.importorskip("bot.games.duel.battlefield")
    from PIL import Image

    monkeypatch.setattr("bot.matches.lobby.random.SystemRandom", lambda: random.Random(1))
    path = tmp_path / "duel.png"

    lines = [f"picture {path}"]

    async def read_line(prompt: str) -> str:
        return lines.pop() if lines else "quit"

    out: list[str] = []
    await play_local(str(tmp_path / "local.sqlite3"), game="duel", seats=2,
                     read_line=read_line, write=out.append, name="Tess")
    assert any(f"Table picture saved to {path}" in block for block in out)
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(path) as image:
        image.load()
        assert image.size[0] > 100 and image.size[1] > 100


def test_the_duel_tables_speak_the_pseudo_locale_only() -> None:
    """The local table's duel view (players, permanents, the stack, the attack, a hand)
    in the pseudo-locale has no English left: every word came from a catalog."""
    from rich.console import Console

    from bot.i18n import pseudo, speaking
    from tests.pseudo import english_left

    state = parse("5 p1 main // p1 20 | lib 10 | hand Kindlewhip, Ashpeak | gy - | play "
                  "1 Ashpeak, 2 Ashpeak, 4 Ridgeline Lancers, 5 Kiln-Tempered Edge @4, "
                  "6 Torchbearer Militia, 14 Magma Ridgeback T D2 R1 // p2 14 | lib 8 | "
                  "hand - | gy - | play 7 Mossvale, 9 Burlheart Ancient, 15 Thornwall Hedge")
    act(state, "attack 4,6 band 4+6")
    while state.pending()[0].kind == "priority":
        state.apply(state.pending()[0].seat, "pass")
    act(state, "block 9>4,15>4")
    act(state, "cast Kindlewhip @15")
    pseudo.enable()
    try:
        with speaking("qps"):
            console = Console(record=True, width=240)
            console.print(duel_view(state.observe(0), ["Zoë", "Bø"]))
            console.print(duel_view(state.observe(None), ["Zoë", "Bø"]))
            text = console.export_text()
    finally:
        pseudo.enable(False)
    assert "⟦" in text
    assert english_left(text, ["Arcane Duel", " X "]) == []
