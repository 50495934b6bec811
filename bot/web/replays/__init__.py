"""Replays of finished matches for the web (issue 32): each step as the channel saw it
(:mod:`.steps`), kept in small bounded caches (:mod:`.cache`), since a finished match
never changes."""
