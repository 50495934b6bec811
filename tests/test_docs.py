"""What README.md and docs/ mention exists and works: every slash command and its
options, every file path, every `croupier` command line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bot.cli import build_parser
from tests.e2e import make_bot

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
GENERATED = {"bench/results.json"}
"""Paths the docs mention that runs make, not git."""
CODE = re.compile(r"`([^`\n]+)`")


def spans(path: Path) -> list[str]:
    return CODE.findall(path.read_text(encoding="utf-8"))


def mentioned(pattern: str) -> list[tuple[str, str]]:
    return [(doc.relative_to(ROOT).as_posix(), span) for doc in DOCS for span in spans(doc)
            if re.match(pattern, span)]


SLASH = mentioned(r"/[a-z]+( |$)") + [
    (".env.example", found) for found in re.findall(
        r"(?<![\w/.])/[a-z]+(?: [a-z]+)?", (ROOT / ".env.example").read_text(encoding="utf-8"))]
PATHS = [(doc, span) for doc, span in mentioned(r"(bot|rules|storage|commands|tests|bench|docs)/")
         if " " not in span]
COMMAND_LINES = mentioned(r"(\.venv/bin/)?croupier ")


def test_the_docs_mention_things_to_check():
    assert len(SLASH) > 20 and len(PATHS) > 10 and COMMAND_LINES


async def test_every_slash_command_the_docs_mention_exists_with_its_options(fake_discord,
                                                                          tmp_path):
    fake_discord.add_guild("Casino")
    async with fake_discord.running(make_bot(tmp_path / "docs.sqlite3")):
        tree = {c.name: c.raw for c in fake_discord.commands()}
    problems = []
    for doc, span in SLASH:
        words = span[1:].split()
        command = tree.get(words[0])
        if command is None:
            problems.append(f"{doc}: {span}: no command /{words[0]}")
            continue
        options = command.get("options", [])
        subs = {o["name"]: o for o in options if o.get("type") in (1, 2)}
        rest = words[1:]
        if subs and rest and rest[0] in subs:
            options = subs[rest.pop(0)].get("options", [])
        elif subs and rest and rest[0].isupper():  # any subcommand: what some have
            rest.pop(0)
            options = [o for sub in subs.values() for o in sub.get("options", [])]
        elif subs and rest:
            problems.append(f"{doc}: {span}: /{words[0]} has no subcommand {rest[0]}")
            continue
        names = {o["name"] for o in options}
        for word in rest:
            name = word.strip("[]…").split(":")[0].strip("…")
            if name and not name.isupper() and name not in names and name not in ("…",):
                problems.append(f"{doc}: {span}: no option {name!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("doc", "span"), PATHS, ids=[f"{d}:{s}" for d, s in PATHS])
def test_every_path_the_docs_mention_exists(doc, span):
    if span in GENERATED:
        return
    path = ROOT / span
    if path.exists():
        return
    module, _, attribute = span.rpartition(".")
    source = ROOT / f"{module}.py"
    assert source.exists() and re.search(rf"\b(def|class) {re.escape(attribute)}\b|"
                                         rf"^{re.escape(attribute)} =",
                                         source.read_text(), re.MULTILINE), f"{doc}: {span}"


@pytest.mark.parametrize(("doc", "span"), COMMAND_LINES, ids=[s for _, s in COMMAND_LINES])
def test_every_croupier_command_line_the_docs_show_parses(doc, span):
    words = shlex.split(span.replace("…", ""))[1:]
    if any(word.isupper() for word in words) or "--help" in words:
        return  # a pattern (GAME, N), not a command line
    build_parser().parse_args(words)


def test_every_link_inside_the_repository_resolves():
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#]+)\)", doc.read_text(encoding="utf-8")):
            if target.startswith(("http", "../../../shared")):
                continue
            assert (doc.parent / target).exists(), f"{doc.name}: {target}"


# -- Arcane Duel's cards and the local table's own commands ------------------------------------
FENCED = re.compile(r"```.*?```", re.DOTALL)
LONG_CODE = re.compile(r"`([^`]+)`")
"""A code span, which may run over a line break in a paragraph."""
CARD_LIST = re.compile(r"\d+x? [A-Z][A-Za-z' -]*(?:, (?:\d+x? )?[A-Z][A-Za-z' -]*)*")
"""A list of cards as the docs write one: "4 Kindlewhip, 17 Ashpeak"."""
QUOTED = re.compile(r"[\"“']([^\"”'\n]+)[\"”']")
PLACEHOLDER = re.compile(r"^(?:[A-Z][A-Z_]*|…|cards|name|file|list)$")
"""A word that stands for what the reader types (NAME, FILE, N, …; the slash commands'
options in lower case)."""


def long_spans(doc: Path) -> list[str]:
    """Every code span of ``doc`` outside fenced blocks, its spaces and line breaks
    collapsed to one space."""
    text = FENCED.sub("", doc.read_text(encoding="utf-8"))
    return [" ".join(span.split()) for span in LONG_CODE.findall(text)]


def local_examples() -> list[tuple[str, str]]:
    """What the docs show typed at the local table with Arcane Duel's own commands."""
    from bot.games.duel.local import LOCAL_COMMANDS

    words = {command.word for command in LOCAL_COMMANDS}
    return [(doc.relative_to(ROOT).as_posix(), span) for doc in DOCS
            for span in long_spans(doc) if span.split(" ", 1)[0] in words]


def expanded(example: str) -> list[str]:
    """A pattern's forms: ``deck add|remove NAME: cards`` is two, ``[…]`` may be left
    out. Placeholders stay (they are checked as placeholders)."""
    example = re.sub(r"\s*\[[^\]]*\]", "", example)
    forms = [""]
    for word in example.split(" "):
        options = word.split("|") if "|" in word and not word.startswith("|") else [word]
        forms = [f"{form} {option}".strip() for form in forms for option in options]
    return forms


def named_cards() -> list[tuple[str, str, str]]:
    """``(doc, where, card name)`` for every card the docs name: in card lists (code,
    quotes, the local table's deck commands), ``cast``/``land`` plays and ``/card``."""
    from bot.duel.collections import card_list

    found = []
    for doc in DOCS:
        name = doc.relative_to(ROOT).as_posix()
        spans = long_spans(doc)
        quoted = QUOTED.findall(FENCED.sub("", doc.read_text(encoding="utf-8")))
        lists = [s for s in [*spans, *quoted] if CARD_LIST.fullmatch(s)]
        lists += [s.split(":", 1)[1].strip() for s in spans
                  if re.match(r"deck (create|add|remove) [^:]+:", s)
                  and not PLACEHOLDER.match(s.split(":", 1)[1].strip())]
        for listed in lists:
            try:
                cards = card_list(listed)
            except Exception as refusal:
                found.append((name, listed, f"(unreadable: {refusal})"))
                continue
            found += [(name, listed, card) for card in cards]
        for span in spans:
            play = re.match(r"(?:cast|land) ([A-Z][A-Za-z' -]*?)(?: X=\d+| with [\d,]+| @\S+)*$",
                            span)
            looked_up = re.match(r"/card ([^\[]+?)(?: public:\S+)?$", span)
            if play:
                found.append((name, span, play[1]))
            elif looked_up and not PLACEHOLDER.match(looked_up[1]):
                found.append((name, span, looked_up[1]))
    return found


def test_the_docs_show_cards_and_local_examples_to_check():
    assert len(named_cards()) > 5 and len(local_examples()) > 5


def test_every_card_the_docs_name_exists():
    from rules.duel.cards import card_set

    unknown = [f"{doc}: {where!r} names {card!r}" for doc, where, card in named_cards()
               if card not in card_set()]
    assert not unknown, "\n".join(unknown)


def test_every_local_table_example_of_the_duels_commands_reads():
    """Each example typed with the duel's own commands at the local table reads as the
    table reads it: the command and its action exist, deck names and card lists read,
    a collection's name filter matches a card, a value is one the command takes."""
    from bot.duel.collections import card_list, deck_name
    from bot.games.duel import local
    from rules.duel.cards import card_set
    from rules.duel.decks import STARTERS

    problems = []
    for doc, example in local_examples():
        for form in expanded(example):
            word, _, rest = form.partition(" ")
            try:
                if word == "deck" and rest and not PLACEHOLDER.match(rest):
                    action, _, after = rest.partition(" ")
                    assert action in local.DECK_ACTIONS, f"no deck action {action!r}"
                    name, colon, more = after.partition(":")
                    if name and not PLACEHOLDER.match(name.split(" ")[0]):
                        deck_name(name)
                    if colon and action in ("create", "add", "remove") \
                            and not PLACEHOLDER.match(more.strip()):
                        assert card_list(more.strip())
                elif word == "collection":
                    asked = local.collection_filters(rest)
                    wanted = str(asked.get("name", "")).casefold()
                    assert any(wanted in card.casefold() for card in card_set()), \
                        f"no card's name holds {wanted!r}"
                elif word == "starter" and rest and not PLACEHOLDER.match(rest):
                    assert local._starter_named(rest).casefold() in STARTERS
                elif word not in ("deck", "starter", "pack", "collection"):
                    reader = getattr(local, "READS", {}).get(word)
                    assert reader is not None, f"the docs test can't read {word!r} yet"
                    if rest and not PLACEHOLDER.match(rest):
                        reader(rest)
            except Exception as refusal:
                problems.append(f"{doc}: {example!r} ({form!r}): {refusal}")
    assert not problems, "\n".join(problems)
