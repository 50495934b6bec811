"""The match service: lobbies, submissions, the commit (lock, validate, commit, then
acknowledge), deadlines, delivery through a transport it is given, computer players off
the event loop, ratings. Knows no transport: Discord and the terminal plug in a
:class:`~bot.matches.transport.Transport`."""
