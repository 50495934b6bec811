"""Drawing shared by every picture (fonts, text fitting, PNG output), charts and the
tournament's pictures. Pure Pillow: no service, no transport. Each game's own pictures
live with its outside, in :mod:`bot.games`."""
