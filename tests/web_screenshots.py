"""Screenshots of the web companion's pages at 390 px and 1280 px, for docs/web.md.

    python -m tests.web_screenshots [FOLDER]     (default: docs/web)

The same store, server, browser and checks as the browser suite (tests/browser.py): a
page that does not read well (its status, the console, sideways scrolling, axe-core)
is reported and its screenshot still written, so that it can be looked at. A replay
is shown halfway through, where there is something on the table.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.browser import SCREENSHOT_BYTES, SHOWN, WIDTHS, chromium, missing, pages, served, tab
from tests.webstore import filled_copy

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "web"


def main(folder: Path = FOLDER) -> int:
    """Write the screenshots into ``folder``; 0 when every page read well."""
    why = missing()
    if why is not None:
        print(why, file=sys.stderr)
        return 2
    trouble = 0
    with tempfile.TemporaryDirectory() as work:
        data = filled_copy(Path(work))
        where = pages(data)
        with served(data.path) as site, chromium() as browser:
            for width, (pixels, _height) in WIDTHS.items():
                with tab(browser, width) as opened:
                    for name in SHOWN:
                        url = site.base_url + where[name]
                        if name.startswith("replay-"):
                            opened.go(url)
                            last = int(opened.page.locator("#replay").get_attribute(
                                "data-last") or "0")
                            url += f"?step={last // 2}"
                        status = opened.go(url)
                        problems = [f"status {status}"] if status != 200 else []
                        if opened.overflow() > 0:
                            problems.append("wider than the screen")
                        problems += opened.shape() + [f"axe {v['id']}" for v in opened.axe()]
                        problems += opened.errors
                        opened.errors.clear()
                        target = folder / f"{name}-{pixels}.png"
                        size = opened.screenshot(target)
                        if size > SCREENSHOT_BYTES:
                            problems.append(f"{size} bytes")
                        print(f"{target.name}: {size // 1000} KB"
                              + (f"  PROBLEMS: {problems}" if problems else ""))
                        trouble += bool(problems)
    return 1 if trouble else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER))
