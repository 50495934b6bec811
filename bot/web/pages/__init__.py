"""The web's pages: every module here has ``ROUTES = aiohttp.web.RouteTableDef()``,
collected by :func:`bot.web.app.build_app` (no list to edit when a page is added)."""
