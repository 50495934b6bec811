"""Croupier in Discord: the client, the transport that shows matches in channels and
DMs, the tournament posts and buttons, the stats views. Commands (``commands/``) sit on
top of it; the services below know nothing of it."""
