"""The local table in another language (issue 33): ``croupier local --lang pt-BR`` plays
a whole game in Portuguese, and in the pseudo-locale no English is left in anything it
shows (every word came from a catalog: the table's, the platform's and the game's)."""

from __future__ import annotations

import re

import pytest

from bot.cli import build_parser, table_language
from bot.i18n import pseudo
from bot.terminal.table import game_commands, play_local
from rules.registry import games
from tests.pseudo import english_left

OPTION_ROW = re.compile(r"^ {2,}(\S+)")
LISTED = re.compile(r"\(\d+\): ([^,\s⟧]+)")


def first_option(text: str) -> str | None:
    """The first option `legal` showed, in any language: listed after its count, or the
    first of its indented rows."""
    listed = LISTED.search(text)
    if listed:
        return listed.group(1)
    rows = [OPTION_ROW.match(line) for line in text.split("\n")[1:]]
    return next((row.group(1) for row in rows if row), None)


class Person:
    """Answers each move prompt with `legal`'s first option (asking `legal` typed in
    the table's own words), every other prompt from ``lines``, then quits."""

    def __init__(self, lines: list[str], legal: str = "legal") -> None:
        self.lines = list(lines)
        self.legal = legal
        self.out: list[str] = []
        self.prompts: list[str] = []
        self._offered: str | None = None
        self._asked = False

    def write(self, text: str) -> None:
        self.out.append(text)
        if self._asked:
            self._asked, self._offered = False, first_option(text)

    async def read_line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.lines:
            return self.lines.pop(0)
        if not prompt.endswith("> "):
            return "q"
        if self._offered is not None:
            offered, self._offered = self._offered, None
            return offered
        self._asked = True
        return self.legal

    @property
    def text(self) -> str:
        return "\n".join([*self.out, *self.prompts])


def test_lang_is_read_before_or_after_the_game_else_from_the_environment() -> None:
    parser = build_parser()
    assert parser.parse_args(["local", "--lang", "pt-BR", "flank"]).lang == "pt-BR"
    assert parser.parse_args(["local", "flank", "--lang", "pt-BR"]).lang == "pt-BR"
    assert table_language(None, {"LANG": "pt_BR.UTF-8"}) == "pt_BR"
    assert table_language("en", {"LANG": "pt_BR.UTF-8"}) == "en"
    assert table_language(None, {"LANG": "ja_JP.UTF-8"}) == "en"


async def test_a_local_game_in_portuguese(tmp_path) -> None:
    # Typed words in Portuguese work too: "ajuda", "opções", "regras", "sim".
    person = Person(["ajuda", "flank", "", ""], legal="opções")
    match = await play_local(str(tmp_path / "t.sqlite3"), read_line=person.read_line,
                             write=person.write, name="Tess", locale="pt-BR")
    assert match is not None and match.finished
    text = person.text
    assert "Croupier — mesa local" in text and "Qual jogo?" in person.prompts[0]
    assert "Digite o número ou o nome de um jogo" in text  # the help, asked by "ajuda"
    assert any(p.startswith("Opções (Enter para as padrão") for p in person.prompts)
    assert "── A posição final ──" in text and "\nResultado: " in text
    assert "Seu histórico nesta mesa" in text and "(você)" in text
    assert person.prompts[-1].startswith("Outra partida?")
    for english in ("Result:", "Your record", "The final position",
                    "Legal (", "Another game?"):
        assert english not in text


async def test_the_local_table_in_the_pseudo_locale_shows_no_english(tmp_path) -> None:
    pseudo.enable()
    try:
        database = str(tmp_path / "t.sqlite3")
        person = Person(["?", "flank", "", ""])
        match = await play_local(database, read_line=person.read_line, write=person.write,
                                 name="Zé", locale="qps")
    finally:
        pseudo.enable(False)
    assert match is not None and match.finished
    # Allowed: names (games' titles, players', the database's path) and what is typed
    # as it is in every language: games' keys, options' names, the games' own commands.
    typed = [command.word for info in games().values() for command in game_commands(info)]
    typed += [spec.name for info in games().values() for spec in info.options.specs()]
    typed += ["off"]  # a value typed to a game's own command (autopass on|off)
    names = [word for name, info in games().items() for word in (name, info.title)]
    left = [(block, words) for block in [*person.out, *person.prompts]
            if (words := english_left(block, [database, "Croupier Bot", "Zé", *names,
                                              *typed]))]
    assert left == []


@pytest.mark.parametrize("typed", ["sim", "s", "yes"])
async def test_yes_in_portuguese_or_english_continues_a_saved_game(tmp_path, typed) -> None:
    database = str(tmp_path / "t.sqlite3")
    first = Person(["sair"])  # leaves at its first move: the game is saved
    await play_local(database, game="flank", seats=2, level="easy", read_line=first.read_line,
                     write=first.write, name="Tess", locale="pt-BR")
    assert any("Sua partida está salva" in block for block in first.out)
    again = Person([typed, "sair"])
    await play_local(database, game="flank", level="easy", read_line=again.read_line,
                     write=again.write, name="Tess", locale="pt-BR")
    assert again.prompts[0].startswith("Continuar sua partida não terminada de Flank")
    assert "não é sim nem não" not in again.text and again.prompts[1].endswith("> ")
