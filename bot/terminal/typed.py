"""Words typed at the local table (yes, no, quit, a command's name): English always
works, and the catalog of the locale spoken may add its own (``sim``, ``sair``), as a
comma-separated list under a key of its own."""

from __future__ import annotations

from collections.abc import Collection


def is_word(answer: str, english: Collection[str], local: str) -> bool:
    """Whether ``answer`` (any case, spaces around ignored) is one of ``english`` or of
    the comma-separated words ``local`` (a catalog's text).

    >>> is_word(" Sim ", ("y", "yes"), "s,sim"), is_word("y", ("y", "yes"), "s,sim")
    (True, True)
    >>> is_word("talvez", ("y", "yes"), "s,sim")
    False
    """
    said = answer.strip().lower()
    return bool(said) and (said in english
                           or said in {word.strip().lower() for word in local.split(",")})
