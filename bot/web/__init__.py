"""The web companion (issue 32): read-only pages of a server's tournaments, replays,
leaderboards, players and cards, served by aiohttp from the same store as the bot.

A third side beside :mod:`bot.discord_side` and :mod:`bot.terminal`: it knows no
``discord`` and neither other side. :func:`bot.web.app.build_app` makes the application;
each module of :mod:`bot.web.pages` brings its routes."""
