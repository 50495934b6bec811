"""Pages from Jinja2 templates (``bot/web/templates/``): autoescaped, strict about
undefined names, each inside ``base.html``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

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
    return env


def when(stamp: str | None) -> str:
    """A stored time (ISO 8601, UTC) as the pages show it, to the minute.

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
    return moment.strftime("%Y-%m-%d %H:%M UTC")


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
