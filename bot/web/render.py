"""Pages from Jinja2 templates (``bot/web/templates/``): autoescaped, strict about
undefined names, each inside ``base.html``, in the locale being spoken
(:func:`bot.i18n.speaking`: the server's language, set as its slug is read).

Templates name their words by key: ``tr("web.…", name=value)`` and ``trn(key, count,
…)`` make text (escaped as any value is); ``trh`` makes a sentence holding markup the
template passes in (a link), every other value escaped; ``number`` writes a number the
locale's way. Keys are written literally in the templates, which
``tests/test_i18n_catalogs.py`` reads too."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web
from markupsafe import Markup

from bot.i18n import current, number, tr, trn
from bot.i18n.markup import tr_markup

TEMPLATES_DIR = Path(__file__).parent / "templates"
STATIC_DIR = Path(__file__).parent / "static"

TEMPLATES: web.AppKey[jinja2.Environment] = web.AppKey("templates", jinja2.Environment)


def environment() -> jinja2.Environment:
    """The templates' environment: names typed by people are text, never markup, and
    a name a template uses but no handler gave is an error rather than a blank."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = when
    env.globals.update(tr=tr, trn=trn, trh=tr_markup, number=number, signed=signed,
                       html_lang=html_lang, link=link, strong=strong, code=code)
    return env


def link(href: str, text: str, **attributes: str) -> Markup:
    """A link to put in a sentence with :func:`trh` (every part escaped).

    >>> str(link("/s/x/cards", "the <b> gallery"))
    '<a href="/s/x/cards">the &lt;b&gt; gallery</a>'
    """
    extra = Markup("").join(Markup(' {}="{}"').format(name, value)
                            for name, value in attributes.items())
    return Markup('<a href="{}"{}>{}</a>').format(href, extra, text)


def strong(text: str) -> Markup:
    """``text`` in bold, to put in a sentence with :func:`trh` (escaped)."""
    return Markup("<strong>{}</strong>").format(text)


def code(text: str) -> Markup:
    """``text`` as code (a search typed as it is), to put in a sentence (escaped)."""
    return Markup("<code>{}</code>").format(text)


def html_lang() -> str:
    """The ``<html lang>`` of the locale spoken (``pt-BR``)."""
    return current().replace("_", "-")


def signed(value: float, digits: int = 1) -> str:
    """A change written the locale's way with its sign (``+1.5``, ``−0,3``).

    >>> signed(1.54), signed(-0.25, 2), signed(0)
    ('+1.5', '-0.25', '+0.0')
    """
    return ("-" if value < 0 else "+") + number(abs(value), None, digits=digits)


def when(stamp: str | None) -> str:
    """A stored time (ISO 8601, UTC) as the pages show it, to the minute, in the
    locale's order.

    >>> when("2026-11-28T02:51:04+00:00"), when(None), when("yesterday")
    ('2026-11-28 02:51 UTC', '', 'yesterday')
    """
    if not stamp:
        return ""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return tr("web.when", year=f"{moment.year:04d}", month=f"{moment.month:02d}",
              day=f"{moment.day:02d}", hour=f"{moment.hour:02d}",
              minute=f"{moment.minute:02d}")


def render(request: web.Request, template: str, **context: Any) -> str:
    """The text of ``template`` rendered with ``context`` (plus ``slug``: the server's
    slug when the path has one, else ``None``, for the navigation in ``base.html``)."""
    env = request.app[TEMPLATES]
    context.setdefault("slug", request.match_info.get("slug"))
    return env.get_template(template).render(**context)


def page(request: web.Request, template: str, *, status: int = 200,
         **context: Any) -> web.Response:
    """An HTML response of ``template`` rendered with ``context``."""
    return web.Response(text=render(request, template, **context), status=status,
                        content_type="text/html", charset="utf-8")
