"""The web companion in a real browser: headless Chromium (Debian's) driven by
Playwright over the app served on 127.0.0.1 from a store filled through the real
services (tests/browser.py, tests/webstore.py).

What a person sees: the double elimination's champion, the standings in the service's
order, a replay stepped forward and back with the keyboard, the gallery narrowing as a
search is typed, and pages that work without JavaScript. Every page at 390 px and
1280 px: its status, no console error or warning (a Content-Security-Policy violation
is one), no sideways scrolling, ``lang="en"``, the viewport tag, one ``<h1>``, a scope on
every table header, no axe-core violation above minor, and a screenshot under 300 KB
(``python -m tests.web_screenshots`` writes them into docs/web/).

One browser and one server for the module; skipped, saying how to install it, where
Chromium or axe-core is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.browser import (
    SCREENSHOT_BYTES,
    WIDTHS,
    Served,
    Tab,
    chromium,
    missing,
    pages,
    served,
    tab,
)
from tests.webstore import WebData, advance, filled_copy, run_apart

pytestmark = pytest.mark.skipif(missing() is not None, reason=missing() or "")

WAIT_MS = 15_000
"""The longest a page may take to answer a key or a keystroke (generous: the other test
workers share the cores)."""
CLOCK_START = 1_700_000_000_000
"""The page's clock (ms) where its timers are run by hand."""


@pytest.fixture(scope="module")
def web_data(tmp_path_factory: pytest.TempPathFactory) -> WebData:
    return filled_copy(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def site(web_data: WebData) -> Iterator[Served]:
    with served(web_data.path) as serving:
        yield serving


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def look(opened: Tab, url: str, shot: Path | None = None) -> list[str]:
    """What is wrong with the page at ``url`` as a person (and a screen reader) meets it."""
    status = opened.go(url)
    problems = [] if status == 200 else [f"status {status}"]
    if (over := opened.overflow()) > 0:
        problems.append(f"{over} px wider than the screen")
    problems += opened.shape()
    problems += [f"axe {v['impact']} {v['id']}: {v['help']} at {v['nodes']}"
                 for v in opened.axe()]
    if shot is not None and (size := opened.screenshot(shot)) > SCREENSHOT_BYTES:
        problems.append(f"screenshot of {size} bytes")
    problems += opened.errors
    opened.errors.clear()
    return problems


@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_page_reads_well_at_this_width(site: Served, browser: Any, web_data: WebData,
                                            width: str, tmp_path: Path) -> None:
    found: dict[str, list[str]] = {}
    with tab(browser, width) as opened:
        for name, path in pages(web_data).items():
            problems = look(opened, site.base_url + path,
                            tmp_path / f"{name}-{WIDTHS[width][0]}.png")
            if problems:
                found[name] = problems
    assert found == {}


def names_in(opened: Tab, selector: str) -> list[str]:
    """The texts of the elements ``selector`` finds, whitespace made single spaces."""
    return [" ".join(text.split()) for text in opened.page.locator(selector).all_inner_texts()]


@pytest.mark.parametrize("which", ["double", "swiss"])
def test_the_bracket_shows_its_champion(site: Served, browser: Any, web_data: WebData,
                                        which: str) -> None:
    tid = web_data.double_id if which == "double" else web_data.swiss_id
    champion = web_data.name(web_data.champions[tid])
    with tab(browser, "phone") as opened:
        opened.go(f"{site.base_url}/s/{web_data.slug}/tournaments/{tid}")
        bracket = opened.page.locator("svg.bracket")
        assert bracket.count() == 1
        assert champion in (bracket.locator("desc").text_content() or "")
        assert names_in(opened, "[data-part=bracket] strong") == [" ".join(champion.split())]
        final = "Grand final reset" if which == "double" else "Final"
        assert bracket.locator("text.br-head", has_text=final).count() >= 1
        # A long name is cut in its box, the whole of it in the box's <title>.
        assert champion in (bracket.locator("text.br-champion").text_content() or "")
        assert opened.errors == []


@pytest.mark.parametrize("which", ["swiss", "double"])
def test_the_standings_are_in_the_tournament_s_order(site: Served, browser: Any,
                                                     web_data: WebData, which: str) -> None:
    tid = web_data.swiss_id if which == "swiss" else web_data.double_id
    expected = [web_data.name(user) for user in web_data.standings[tid]]
    with tab(browser, "desktop") as opened:
        opened.go(f"{site.base_url}/s/{web_data.slug}/tournaments/{tid}")
        rows = names_in(opened, "table.standings tbody th[scope=row]")
        ranks = names_in(opened, "table.standings tbody tr td:first-child")
    assert rows == [" ".join(name.split()) for name in expected]
    numbers = [int(re.match(r"\d+", rank).group()) for rank in ranks]  # type: ignore[union-attr]
    assert numbers[0] == 1 and numbers == sorted(numbers)


def test_the_standings_sort_by_a_column_and_back(site: Served, browser: Any,
                                               web_data: WebData) -> None:
    ranked = [" ".join(web_data.name(user).split())
              for user in web_data.standings[web_data.swiss_id]]
    with tab(browser, "phone") as opened:
        opened.go(f"{site.base_url}/s/{web_data.slug}/tournaments/{web_data.swiss_id}")
        page = opened.page
        rows = "table.standings tbody th[scope=row]"
        player = page.locator("table.standings thead th", has_text="Player")
        player.get_by_role("button").click()
        expect(player).to_have_attribute("aria-sort", "ascending")
        assert names_in(opened, rows) == sorted(ranked, key=str.lower)
        player.get_by_role("button").press("Enter")  # a button: the keyboard sorts too
        expect(player).to_have_attribute("aria-sort", "descending")
        assert names_in(opened, rows) == sorted(ranked, key=str.lower, reverse=True)
        page.locator("table.standings thead th").first.get_by_role("button").click()
        assert names_in(opened, rows) == ranked
        assert opened.errors == []


def test_a_replay_steps_forward_and_back_with_the_keyboard(site: Served, browser: Any,
                                                          web_data: WebData) -> None:
    base = f"/s/{web_data.slug}/matches/{web_data.matches['flank']}"
    with tab(browser, "phone") as opened:
        opened.go(site.base_url + base)
        page = opened.page
        heading = page.locator("#replay-heading")
        first = heading.inner_text()
        assert "step 0 of" in first
        picture = page.locator("#replay-step img").get_attribute("src")
        last = int(page.locator("#replay").get_attribute("data-last") or "0")
        for key, step in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1)):
            page.keyboard.press(key)
            expect(heading).to_contain_text(f"step {step} of", timeout=WAIT_MS)
            expect(page).to_have_url(re.compile(rf"{re.escape(base)}\?step={step}$"))
            assert page.locator("#replay-step img").get_attribute("src") != picture
        page.keyboard.press("End")
        expect(heading).to_contain_text(f"step {last} of", timeout=WAIT_MS)
        assert page.locator(".replay-verdict").count() == 1
        page.keyboard.press("Home")
        expect(heading).to_contain_text("step 0 of", timeout=WAIT_MS)
        assert heading.inner_text() == first
        assert opened.errors == []


def matching(opened: Tab) -> int:
    """How many cards the gallery says match."""
    text = opened.page.locator("#result-count").inner_text()
    if "No card" in text or "No results" in text:
        return 0
    found = re.search(r"(\d+) cards? match", text)
    assert found, text
    return int(found.group(1))


def test_the_gallery_narrows_as_a_search_is_typed(site: Served, browser: Any,
                                                  web_data: WebData) -> None:
    with tab(browser, "phone") as opened:
        opened.go(f"{site.base_url}/s/{web_data.slug}/cards")
        page = opened.page
        everything = matching(opened)
        seen = [everything]
        field = page.locator("#q")
        field.click()
        for typed in ("c:red", " t:creature", " pow>=3"):
            field.press_sequentially(typed, delay=20)
            searched = urlencode({"q": field.input_value()})
            # The address follows the search once its results are in.
            expect(page).to_have_url(re.compile(re.escape(searched) + "$"), timeout=WAIT_MS)
            seen.append(matching(opened))
        assert seen[0] > seen[1] >= seen[2] >= seen[3] > 0, seen
        shown = page.locator("#card-list li").count()
        assert 0 < shown <= seen[3]
        assert opened.errors == []


def test_the_pages_work_without_javascript(site: Served, browser: Any,
                                           web_data: WebData) -> None:
    with tab(browser, "phone", javascript=False) as opened:
        page = opened.page
        opened.go(f"{site.base_url}/s/{web_data.slug}/matches/{web_data.matches['duel']}")
        page.locator("a[rel=next]").click()
        assert page.url.endswith("?step=1")
        assert "step 1 of" in page.locator("#replay-heading").inner_text()
        opened.go(f"{site.base_url}/s/{web_data.slug}/cards")
        everything = matching(opened)
        page.locator("#q").fill("t:creature")
        page.locator("#card-search button[type=submit]").click()
        page.wait_for_url(re.compile(r"q=t%3Acreature"))
        assert 0 < matching(opened) < everything
        assert opened.errors == []


def test_a_running_tournament_s_page_follows_it(site: Served, browser: Any,
                                                web_data: WebData) -> None:
    """Last in the module: it decides a game of the running tournament."""
    with tab(browser, "desktop") as opened:
        page = opened.page
        page.clock.install(time=CLOCK_START)
        opened.go(f"{site.base_url}/s/{web_data.slug}/tournaments/{web_data.running_id}")
        page.clock.pause_at(CLOCK_START + 5_000)  # the page's timers fire as run on below
        replays = page.locator("[data-part=pairings] a[href*='/matches/']")
        decided = replays.count()
        assert decided == 1 and "Round 2" in page.locator("#pairings-h").inner_text()
        page.clock.run_for(60_000)  # polls, nothing new: nothing changes
        assert replays.count() == decided
        run_apart(advance(web_data.path, web_data.running_id))
        page.clock.run_for(60_000)
        expect(replays).to_have_count(decided + 1, timeout=WAIT_MS)
        assert page.url.endswith(f"/tournaments/{web_data.running_id}")  # not reloaded
        assert opened.errors == []
