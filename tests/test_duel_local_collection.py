"""Arcane Duel's collections at the local table: a starter, the daily pack, the
collection and decks, and a duel with a deck of one's own, typed at the "Which game?"
prompt and at a duel's move prompt; every refusal says why and changes nothing."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.duel.collections import CollectionService
from bot.games.duel import local as duel_local
from bot.games.duel.local import LOCAL_COMMANDS, LOCAL_GUILD, collection_filters
from bot.terminal.table import COMMANDS, LOCAL_USER, LocalSitting, game_commands, play_local
from rules.duel.decks import STARTERS, starter
from rules.registry import games, get_game
from storage import Store

PNG = b"\x89PNG\r\n\x1a\n"


class Person:
    """Types the scripted lines, then ``quit``; keeps every prompt and block shown."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.out: list[str] = []

    async def read_line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else "quit"

    @property
    def text(self) -> str:
        return "\n".join(self.out)

    def warnings(self) -> list[str]:
        return [line for block in self.out for line in block.split("\n")
                if line.startswith("⚠")]


async def sit(db: Path, lines: list[str], game: str | None = None) -> Person:
    """One sitting at the local table, typing ``lines``."""
    person = Person(lines)
    await play_local(str(db), game=game, read_line=person.read_line, write=person.out.append,
                     name="Tess")
    assert "Traceback" not in person.text
    return person


async def holdings(db: Path) -> tuple[list[tuple[int, str, int | None]], list[tuple]]:
    """The local person's copies and decks, once the ledger is checked to balance."""
    store = await Store.open(db)
    try:
        repo = store.collections
        assert await repo.audit(LOCAL_GUILD) == []
        copies = [(c.id, c.card, c.serial) for c in await repo.owned(LOCAL_GUILD, LOCAL_USER)]
        decks = [(d.name, tuple(d.cards)) for d in await repo.decks(LOCAL_GUILD, LOCAL_USER)]
        return copies, decks
    finally:
        await store.close()


@pytest.fixture
def packs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Packs drawn from a seeded generator, and a daily pack that is always due (so a
    refused pack is refused for its own reason, not for the day's pack)."""
    seeds = iter(range(1000))

    def seeded(sitting: LocalSitting) -> CollectionService:
        seed = next(seeds)
        return CollectionService(sitting.store, sitting.clock,
                                 rng_factory=lambda: random.Random(seed), daily_seconds=0)

    monkeypatch.setattr(duel_local, "collections", seeded)


# -- the hook ---------------------------------------------------------------------------------

def test_the_duel_brings_its_commands_and_no_other_game_does():
    assert game_commands(get_game("duel")) == LOCAL_COMMANDS
    assert [c.word for c in LOCAL_COMMANDS] == ["starter", "pack", "collection", "deck",
                                                 "autopass"]
    for info in games().values():
        if info.name != "duel":
            assert game_commands(info) == ()
    # A command word is no game's name nor one of the table's own words.
    taken = set(games()) | set(re.findall(r"\b[a-z]+\b", COMMANDS)) | {"help", "quit"}
    assert not taken & {c.word for c in LOCAL_COMMANDS}


async def test_the_commands_are_offered_and_explained_at_the_which_game_prompt(tmp_path):
    person = await sit(tmp_path / "t.sqlite3", ["help"])
    assert "Also here: Arcane Duel's starter, pack, collection, deck, autopass (help explains " \
        "them)." in person.text
    explained = next(block for block in person.out if "Arcane Duel at this table:" in block)
    for typed in ("starter [name or 1–5]", "pack [file]", "deck import NAME: FILE",
                  "deck show|delete|play NAME", "deck export NAME [FILE]", "[page=N]"):
        assert typed in explained
    assert person.prompts[1].startswith("Which game?")  # asked again, nothing started
    assert not person.warnings()


async def test_another_games_moves_are_not_taken_for_the_duels_commands(tmp_path):
    person = await sit(tmp_path / "t.sqlite3", ["pack", "help"], game="flank")
    assert person.warnings() and "'pack'" in person.warnings()[0]
    assert "Arcane Duel" not in person.text
    assert await holdings(tmp_path / "t.sqlite3") == ([], [])


# -- starter --------------------------------------------------------------------------------

async def test_a_starter_is_picked_from_the_list_once(tmp_path):
    db = tmp_path / "t.sqlite3"
    person = await sit(db, ["starter", "9", "٢", "\x1b[2J", "2"])
    listing = next(block for block in person.out if block.startswith("The starters"))
    for number, name in enumerate(STARTERS, start=1):
        assert re.search(rf"{number} +{name} +\w+ and \w+", listing)
    assert len(person.warnings()) == 3
    assert "'9' is not one of 1–5" in person.warnings()[0]
    assert "'٢'" in person.warnings()[1] and "'\\x1b[2J'" in person.warnings()[2]
    assert "\x1b" not in person.text
    assert "You claimed the tide-and-night starter: 40 cards" in person.text
    assert "Deck tide-and-night: 40 cards; ready to play" in person.text
    copies, decks = await holdings(db)
    assert sorted(card for _, card, _ in copies) == sorted(starter("tide-and-night"))
    assert [(name, sorted(cards)) for name, cards in decks] == [
        ("tide-and-night", sorted(starter("tide-and-night")))]

    again = await sit(db, ["starter 3", "starter ember-and-grove", "starter", ""])
    warnings = again.warnings()
    assert len(warnings) == 2
    assert all("already claimed your starter at this table" in w for w in warnings)
    # Enter at the list claims nothing.
    assert "No starter claimed." in again.text
    assert await holdings(db) == (copies, decks)


async def test_a_starter_named_wrongly_is_refused_with_the_names(tmp_path):
    db = tmp_path / "t.sqlite3"
    person = await sit(db, ["starter fire-and-ice", "starter " + "٣" * 5000, "starter 4"])
    first, second = person.warnings()
    assert "no starter 'fire-and-ice'" in first and "ember-and-grove" in first
    assert len(second) < 250
    assert "You claimed the ember-and-grove starter" in person.text


# -- the daily pack -------------------------------------------------------------------------

async def test_the_daily_pack_is_listed_rarest_first_with_serials_once_a_day(tmp_path):
    db = tmp_path / "t.sqlite3"
    person = await sit(db, ["pack", "pack"])
    table = next(block for block in person.out if block.startswith("Your pack: 15 cards"))
    rows = table.split("\n")[2:]
    assert len(rows) == 15
    rarities = [re.split(r"\s{2,}", row.strip())[1] for row in rows]
    assert rarities == ["rare"] + ["uncommon"] * 3 + ["common"] * 11
    assert re.search(r"rare +#1 of 100 ", rows[0])
    assert all(re.search(r"#1 of (300|1000) ", row) for row in rows[1:])
    assert "Your next daily pack is due in 24 h." in person.text
    assert person.warnings() == ["⚠ You have opened today's pack. The next is due in 24 h."]
    copies, _ = await holdings(db)
    assert len(copies) == 15


async def test_the_pack_picture_is_saved_by_the_picture_commands_rules(tmp_path, packs):
    db = tmp_path / "t.sqlite3"
    taken = tmp_path / "taken.png"
    taken.write_bytes(b"mine")
    refused = [f"pack {taken}", f"pack {tmp_path}/no/such/folder/p.png",
               f"pack {tmp_path}/bad\x1b[31m.png"]
    person = await sit(db, [*refused, f"pack {tmp_path}/p.png", f"pack {tmp_path}"])
    warnings = person.warnings()
    assert len(warnings) == 3
    assert "already exists; give another name. Nothing was done." in warnings[0]
    assert "does not exist. Nothing was done." in warnings[1]
    assert "characters a file name cannot have" in warnings[2]
    assert taken.read_bytes() == b"mine"
    saved = sorted(tmp_path.glob("*.png"))
    assert (tmp_path / "p.png") in saved and len(saved) == 3  # the folder: its default name
    assert any(p.name.startswith("croupier-pack-") for p in saved)
    for path in saved:
        if path != taken:
            assert path.read_bytes().startswith(PNG)
    assert person.text.count("Pack picture saved to ") == 2
    copies, _ = await holdings(db)
    assert len(copies) == 30  # only the two packs with a good path were opened


# -- the collection -------------------------------------------------------------------------

async def test_the_collection_is_filtered_sorted_and_paged(tmp_path, packs):
    db = tmp_path / "t.sqlite3"
    person = await sit(db, ["collection", "starter 1", "pack", "collection", "collection page=2",
                            "collection page=999999", "collection rarity=rare",
                            "collection type=basic-land", "collection type=land sort=count",
                            "collection edition=limited colour=white", "collection mist",
                            "Collection   NAME=zzz"])
    blocks = [b for b in person.out if b.startswith(("Your collection", "No card"))]
    empty, first, second, last, rares, lands, limited, mist, nothing = blocks
    assert empty.startswith("Your collection is empty: starter claims a starter deck")
    head = re.match(r"Your collection: (\d+) cards, 55 copies \(page 1 of (\d)\)", first)
    assert head and int(head.group(2)) >= 2
    assert "More: collection page=2" in person.text
    assert "(page 2 of" in second and f"(page {head.group(2)} of" in last
    assert all(" rare " in row for row in rares.split("\n")[2:])
    assert "matching rarity 'rare'" in rares
    assert person.warnings()[0].startswith("⚠ Filter type by one of")
    counts = [int(re.split(r"\s{2,}", row.strip())[4]) for row in lands.split("\n")[2:]]
    assert counts == sorted(counts, reverse=True) and counts[0] >= 7
    assert all(re.search(r"#\d+", row) and " white " in row for row in limited.split("\n")[2:])
    assert all("Mist" in row.split("  ")[1] for row in mist.split("\n")[2:])
    assert nothing == "No card in your collection matches name 'zzz'."


BAD_COLLECTIONS = ["collection foo=bar", "collection page=٢", "collection page=" + "9" * 5000,
                   "collection page=-1", "collection sort=weird", "collection colour=purple",
                   "collection rarity=rare rarity=common", "collection " + "x" * 5000,
                   "collection edition=\x1b[31m"]


async def test_a_bad_collection_request_is_refused_by_name(tmp_path):
    person = await sit(tmp_path / "t.sqlite3", ["starter 1", *BAD_COLLECTIONS])
    warnings = person.warnings()
    assert len(warnings) == len(BAD_COLLECTIONS)
    for said in ("not 'foo'", "not '٢'", "not '9999", "not '-1'", "not 'weird'",
                 "not 'purple'", "rarity is given twice", "at most 40 characters",
                 "not '\\x1b[31m'"):
        assert any(said in w for w in warnings), said
    assert all(len(w) < 250 for w in warnings)


def test_collection_words_read_as_the_service_takes_them():
    assert collection_filters("") == {}
    assert collection_filters("ember drake COLOR=red sort=count page=12") == {
        "name": "ember drake", "colour": "red", "sort": "count", "page": 12}


# -- decks ----------------------------------------------------------------------------------

async def test_decks_are_built_checked_listed_shared_and_deleted(tmp_path):
    db = tmp_path / "t.sqlite3"
    listed = tmp_path / "list.txt"
    listed.write_text("# shared\n4 Kindlewhip\n36 Ashpeak\n", encoding="utf-8")
    person = await sit(db, [
        "deck", "starter ember-and-grove",
        "deck create Burn: 1 Kindlewhip, 16 Ashpeak", "deck create Short", "3 Kindlewhip",
        "deck add Burn: 22 Ashpeak, 1 Forgeheat Surge", "deck remove Burn: 1 Kindlewhip",
        "deck show Burn",
        f"deck import Shared: {listed}", "deck list", "deck export Burn",
        "deck delete Short", "n", "deck delete Short", "y", "deck list"])
    assert not person.warnings()
    text = person.text
    assert "You have no decks yet: starter gives you one" in text
    assert "Deck Burn: 17 cards; not playable yet: it has 17 cards: 23 more are needed (a " \
        "deck has at least 40)." in text
    assert "Deck Short: 3 cards; not playable yet" in text
    assert "Deck Burn: 40 cards; ready to play" in text
    assert re.search(r"Deck Burn: 39 cards; not playable yet: it has 39 cards: 1 more is "
                     r"needed \(a deck has at least 40\)", text)
    shared = next(b for b in person.out if b.startswith("Deck Shared"))
    assert "not playable yet: short of: 3 Kindlewhip." in shared  # the starter has one
    assert re.search(r"4× +Kindlewhip +instant +red", shared)
    decks_listed = [b for b in person.out if b.startswith("Your decks")]
    assert re.search(r"Burn +39 +it has 39 cards: 1 more is needed", decks_listed[0])
    assert re.search(r"ember-and-grove +40 +ready to play", decks_listed[0])
    assert "Short" in decks_listed[0] and "Short" not in decks_listed[1]
    exported = text[text.index("Deck Burn (deck import reads this list back; deck export "
                               "Burn FILE saves it to a file):"):]
    assert exported.split("\n")[1:3] == ["1 Forgeheat Surge", "38 Ashpeak"]
    assert "Nothing changed." in text and "Deck Short deleted." in text
    _, decks = await holdings(db)
    assert [name for name, _ in decks] == ["Burn", "Shared", "ember-and-grove"]


async def test_a_deck_is_replaced_only_when_the_person_says_so(tmp_path):
    db = tmp_path / "t.sqlite3"
    listed = tmp_path / "list.txt"
    listed.write_text("40 Ashpeak", encoding="utf-8")
    person = await sit(db, ["deck create Mine: 1 Ashpeak", "deck create Mine: 2 Ashpeak", "",
                            f"deck import Mine: {listed}", "maybe", "y"])
    assert person.warnings() == ["⚠ 'maybe' is neither yes nor no: y replaces it, n keeps it."]
    assert "Replace your deck Mine (1 card)? [y/N] " in person.prompts
    assert await holdings(db) == ([], [("Mine", ("Ashpeak",) * 40)])


BAD_DECKS = [
    "deck frob", "deck show Nope", "deck show \x1b[31mred", "deck create " + "x" * 5000,
    "deck create Mine: 5 Kindlewip", "deck create Mine: ٤ Kindlewhip",
    "deck create Mine: 300 Ashpeak", "deck add Nope: 1 Ashpeak",
    "deck add ember-and-grove: " + "Ashpeak, " * 600, "deck remove ember-and-grove: 99 Ashpeak",
    "deck delete Nope", "deck export Nope", "deck play Nope", "deck list now",
    "deck import Mine: /no/such/file.txt", "deck import Mine: {tmp}",
    "deck import Mine: {tmp}/latin1.txt", "deck import Mine: {tmp}/huge.txt",
    "deck import Mine: {tmp}/bad.txt", "deck import Mine: /dev/zero",
    "deck import Mine: bad\x00name",
]


async def test_a_bad_deck_request_is_refused_and_changes_nothing(tmp_path):
    db = tmp_path / "t.sqlite3"
    (tmp_path / "latin1.txt").write_bytes("4 Kindlewhip é".encode("latin-1"))
    (tmp_path / "huge.txt").write_text("4 Kindlewhip\n" * 10_000, encoding="utf-8")
    (tmp_path / "bad.txt").write_text("4 Nothing Such", encoding="utf-8")
    await sit(db, ["starter ember-and-grove", "deck create Mine: 17 Ashpeak"])
    before = await holdings(db)
    lines = [line.replace("{tmp}", str(tmp_path)) for line in BAD_DECKS]
    person = await sit(db, lines)
    warnings = person.warnings()
    assert len(warnings) == len(BAD_DECKS), "\n".join(warnings)
    assert all(len(w) < 300 for w in warnings)
    assert "\x1b" not in person.text and "\x00" not in person.text
    expected = ["not 'frob'", "no deck 'Nope' here. Your decks: Mine, ember-and-grove",
                "not '\\x1b[31mred'", "A deck name is 1 to 32", "did you mean Kindlewhip",
                "digits 0 to 9", "from 1 to 99", "no deck 'Nope'", "at most 250 cards",
                "holds 8 Ashpeak (you asked to take out 99)", "no deck 'Nope'", "no deck 'Nope'",
                "no deck 'Nope'", "takes nothing more", "There is no file",
                "is not a file", "is not UTF-8 text", "larger than 64 KB",
                "no card 'Nothing Such'", "is not a file", "cannot have"]
    for said, warning in zip(expected, warnings, strict=True):
        assert said in warning, (said, warning)
    assert "/deck" not in person.text
    assert await holdings(db) == before


async def test_a_deck_is_exported_to_a_file_that_imports_it_back(tmp_path):
    """``deck export NAME FILE``: a bare file name goes in the data folder (beside the
    database), a path where it says; the table says where; nothing is overwritten."""
    db = tmp_path / "data" / "t.sqlite3"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    person = await sit(db, [
        "starter ember-and-grove", "deck create My Burn: 3 Ashpeak, 1 Kindlewhip",
        "deck export my burn burn", f"deck export My Burn: {elsewhere}",
        "deck export My Burn burn", f"deck import Again: {tmp_path / 'data' / 'burn.txt'}",
        f"deck import Third: {elsewhere / 'my-burn.txt'}", "deck export my burn"])
    saved = tmp_path / "data" / "burn.txt"
    assert saved.read_text(encoding="utf-8") == "1 Kindlewhip\n3 Ashpeak\n"
    assert (elsewhere / "my-burn.txt").read_text(encoding="utf-8") == saved.read_text()
    assert f"Deck My Burn saved to {saved} (deck import My Burn: {saved} reads it back)." \
        in person.text
    [warning] = person.warnings()
    assert str(saved) in warning and "already exists; give another name. Nothing was " \
        "saved." in warning
    assert "Deck My Burn (deck import reads this list back" in person.text
    _, decks = await holdings(db)
    assert dict(decks)["Again"] == dict(decks)["Third"] == dict(decks)["My Burn"]
    assert not list(tmp_path.glob("*.txt"))  # nothing written beside the test's folder


async def test_deck_names_ignore_case_at_the_table(tmp_path):
    db = tmp_path / "t.sqlite3"
    person = await sit(db, ["deck create Burn: 2 Ashpeak", "deck create burn: 3 Ashpeak", "n",
                            "deck add BURN: 1 Ashpeak", "deck remove burn: 5 Ashpeak"])
    assert "Replace your deck Burn (2 cards)? [y/N] " in person.prompts
    assert "Deck Burn: 3 cards" in person.text  # added to Burn, its name kept
    assert person.warnings() == ["⚠ Deck Burn holds 3 Ashpeak (you asked to take out 5). "
                                 "Nothing was taken out."]
    assert await holdings(db) == ([], [("Burn", ("Ashpeak",) * 3)])


# -- a duel with one's own deck -------------------------------------------------------------

async def test_a_duel_is_played_with_a_deck_of_ones_own(tmp_path, monkeypatch):
    monkeypatch.setattr("bot.matches.lobby.random.SystemRandom", lambda: random.Random(3))
    db = tmp_path / "t.sqlite3"
    cards = "Kindlewhip, Forgeheat Surge, Cinderpit Sapper, 37 Ashpeak"
    person = Person(["deck play ember-and-grove", "starter ember-and-grove",
                     f"deck create Mine: {cards}", "deck play Mine", "3", ""])
    match = await play_local(str(db), read_line=person.read_line, write=person.out.append,
                             name="Tess")
    assert person.warnings() == [
        "⚠ You have no deck 'ember-and-grove' here. deck create makes one."]
    assert "Your deck Mine (40 cards) is ready" in person.text
    assert match is not None and match.info.name == "duel" and len(match.seats) == 3
    assert match.seats[0].setup == {"deck": ["Cinderpit Sapper", "Forgeheat Surge",
                                             "Kindlewhip"] + ["Ashpeak"] * 37}
    assert [s.setup for s in match.seats[1:]] == [None, None]
    state = match.state
    mine = state.players[0]
    assert {state.cards[c] for c in (*mine.hand, *mine.library)} <= {
        "Cinderpit Sapper", "Forgeheat Surge", "Kindlewhip", "Ashpeak"}


async def test_the_commands_work_at_a_duels_move_prompt(tmp_path, monkeypatch):
    monkeypatch.setattr("bot.matches.lobby.random.SystemRandom", lambda: random.Random(1))
    db = tmp_path / "t.sqlite3"
    person = Person(["help", "collection", "starter 5", "deck list", "deck play grove-and-dawn",
                     "board"])
    match = await play_local(str(db), game="duel", seats=2, read_line=person.read_line,
                             write=person.out.append, name="Tess")
    assert match is not None and match.playing
    text = person.text
    assert "Arcane Duel's own: starter, pack, collection, deck, autopass (help explains " \
        "them)." in text
    assert "Arcane Duel at this table:" in text
    assert "Your collection is empty" in text
    assert "You claimed the grove-and-dawn starter" in text
    assert re.search(r"grove-and-dawn +40 +ready to play", text)
    # Starting another game is for the Which game? prompt: this one goes on.
    assert person.warnings() == [
        "⚠ That starts a new Arcane Duel game: finish or resign this one first, then type "
        "it at the start (`make run`)."]
    assert match.seats[0].setup is None
    prompts = [p for p in person.prompts if p.endswith(" > ")]
    assert len(set(prompts)) == 1  # the same decision throughout: no move was made


async def test_every_file_the_table_writes_follows_one_rule(tmp_path, monkeypatch, packs):
    """A bare name goes in the data folder (pictures in its pictures folder) whatever
    the command, never in the folder the terminal is in; ``deck import`` finds a bare
    name where ``deck export`` put it."""
    here, data = tmp_path / "clone", tmp_path / "data"
    here.mkdir()
    monkeypatch.chdir(here)
    db = data / "t.sqlite3"
    data.mkdir()
    person = await sit(db, ["starter ember-and-grove", "pack mine",
                            "deck create Burn: 3 Ashpeak, 1 Kindlewhip", "deck export Burn burn",
                            "deck import Again: burn"])
    assert list(here.iterdir()) == []
    assert (data / "pictures" / "mine.png").read_bytes().startswith(b"\x89PNG")
    assert (data / "burn.txt").read_text(encoding="utf-8") == "1 Kindlewhip\n3 Ashpeak\n"
    assert person.warnings() == []
    _, decks = await holdings(db)
    assert dict(decks)["Again"] == dict(decks)["Burn"]
