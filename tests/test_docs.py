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
