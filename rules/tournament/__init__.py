"""Tournaments: pairing, brackets and standings for every format, pure and replayable
(``../shared/specs/tournaments.md``). The bot stores entrants and results and asks a
format (:class:`~rules.tournament.model.TournamentFormat`) what comes next."""
