"""Flank in Discord: its presenter (:mod:`.presenter`), pictures and own commands."""
