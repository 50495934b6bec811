"""The web application: every page module's routes, the static files, strict security
headers on every response, and plain error pages (never a trace)."""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web

from bot.clock import Clock, SystemClock
from bot.i18n import DEFAULT, speaking, tr
from bot.web import pages
from bot.web.render import STATIC_DIR, TEMPLATES, environment, page
from bot.web.site import CLOCK, SERVICES, STORE, make_services
from storage import Store

log = logging.getLogger(__name__)

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # The slug in every address is the server's only key: never send it elsewhere.
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}

MAX_QUERY = 1024
"""The longest query string a page reads; a longer one is a 400 before any handler."""
MAX_PATH = 512
"""The longest path a page has; a longer one is a 404 before any handler."""

SERVER_OPTIONS: dict[str, int] = {"max_line_size": 131_072}
"""aiohttp's server limits for the application (it carries them itself, as its
``handler_args``, so every runner and test server has them): a request line long enough
that an over-long query string reaches :func:`bounds_middleware` and its plain 400 page,
rather than the HTTP parser's bare one. A longer line still gets the parser's 400."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def build_app(store: Store, *, clock: Clock | None = None) -> web.Application:
    """The web application over ``store`` (which it never writes): the routes of every
    module in :mod:`bot.web.pages`, ``/static/``, and the middlewares."""
    app = web.Application(middlewares=[language_middleware, errors_middleware,
                                       bounds_middleware],
                          client_max_size=1024, handler_args=SERVER_OPTIONS)
    app[STORE] = store
    app[CLOCK] = clock or SystemClock()
    app[SERVICES] = make_services(store, app[CLOCK])
    app[TEMPLATES] = environment()
    for routes in page_routes():
        app.router.add_routes(routes)
    app.router.add_static("/static/", STATIC_DIR, name="static")
    app.on_response_prepare.append(_security_headers)
    return app


def page_routes() -> list[web.RouteTableDef]:
    """The ``ROUTES`` of every module (or package) in :mod:`bot.web.pages`, by name."""
    found = []
    for info in sorted(pkgutil.iter_modules(pages.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{pages.__name__}.{info.name}")
        routes = getattr(module, "ROUTES", None)
        if isinstance(routes, web.RouteTableDef):
            found.append(routes)
    return found


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    # On every response, static files and errors too (a signal, not a middleware,
    # so nothing can answer around it).
    response.headers.update(SECURITY_HEADERS)


@web.middleware
async def language_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Each request speaks English until its server is known
    (:func:`bot.web.site.guild_of` speaks the server's language then), and its own
    language only: a connection kept alive serves the next request afresh. Outermost,
    so that an error page speaks the server's language too."""
    with speaking(DEFAULT):
        return await handler(request)


@web.middleware
async def bounds_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse an over-long query string (400) or path (404), and anything but reading."""
    if request.method not in ("GET", "HEAD"):
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"])
    if len(request.query_string) > MAX_QUERY:
        raise web.HTTPBadRequest()
    if len(request.raw_path.partition("?")[0]) > MAX_PATH:
        raise web.HTTPNotFound()
    return await handler(request)


@web.middleware
async def errors_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every HTTP error and every unexpected exception becomes a plain page with its
    status (500 for the unexpected, logged here) and no trace."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return error_page(request, error.status, error.headers)
    except Exception:
        log.exception("web page %s failed", request.path)
        return error_page(request, 500)


def error_page(request: web.Request, status: int,
               headers: Mapping[str, str] | None = None) -> web.Response:
    """The plain page of an HTTP error ``status`` (``headers`` kept: 405's ``Allow``)."""
    try:
        # No link back to the server: the slug in the path may be what was wrong.
        response = page(request, "error.html", status=status, code=status, slug=None)
    except Exception:  # a broken template must not turn an error into a trace
        log.exception("the error page failed")
        response = web.Response(text=tr("web.error.plain", status=status), status=status,
                                content_type="text/plain")
    if headers is not None and "Allow" in headers:
        response.headers["Allow"] = headers["Allow"]
    return response
