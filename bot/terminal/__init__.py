"""Croupier in the terminal (``croupier local``, ``make run`` without a token): the local
table's flow, its words, help and options, and the transport that shows a match on
the screen."""
