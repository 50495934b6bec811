"""Hammer & Nails' shipped decks, as data.

Three decks, each written in :mod:`rules.nails.tiles` notation and parsed once:

- ``workshop`` (the default): 48 square tiles, red and green nails, the seed's
  FIG. 1–4 as tiles 1–4;
- ``workshop4``: the four-colour option for four free-for-all players;
- ``space``: 48 octagonal tiles with red and blue ships, lasers and cows.

The two workshop decks group their tiles by blank zones — 12 with none, 16 with
one, 12 with two, 6 with three, 2 with four — and every colour's nails appear
as often as every other's. Mechanics sit on nails (they fire when a hammer
covers the nail) or hammers (they fire when the hammer is laid on a nail);
only Ø may sit on a blank. No two tiles of a deck are alike, even turned.

>>> deck = DECKS[DEFAULT_DECK]
>>> len(deck.tiles), deck.colours
(48, ('red', 'green'))
>>> DECKS["space"].tile(47).code
'47 cow | _ _ _ _'
"""

from __future__ import annotations

from rules.nails.tiles import Deck, parse_deck

WORKSHOP = """
# The seed's example tiles.
1   H:again R:opp-discard G H     # FIG. 1
2   R:again H H _                 # FIG. 2
3   R:again H:search _ G          # FIG. 3
4   R _ _ G:remove                # FIG. 4

# No blanks.
5   R G R G
6   H R H G
7   R R G H
8   G:search G R H
9   G G H R
10  R R H G
11  R H:discard R H
12  G H:null G H                  # a hammer that stays
13  H H G R
14  R G R H
15  G R G H

# One blank.
16  G H H _
17  H:cover-green R G _
18  H:cover-red G R _
19  _ R G H
20  G H:remove R _
21  R G _ R
22  R _ G:opp-discard G
23  _ R R H
24  G H _ G
25  H R H _
26  H _ H G
27  H G _ R
28  _ G R:draw2 G
29  R G R _

# Two blanks.
30  R G _ _
31  _ R H _
32  _ _ H R
33  H _ _ G
34  H G _ _
35  _ H H _
36  _ _ R R:discard
37  G G _ _
38  R _ G _
39  _ R _ H
40  G _ H _

# Three blanks.
41  R _ _ _
42  _ G _ _
43  _ _ H _
44  _ _ _ R:cover-green
45  G:cover-red _ _ _
46  _ H:draw2 _ _

# Four blanks.
47  _ _ _ _
48  _:null _ _ _                  # a hole nothing fills
"""

WORKSHOP4 = """
# The seed's example tiles, colours spread.
1   H:again R:opp-discard G H     # FIG. 1
2   Y:again H H _                 # FIG. 2
3   B:again H:search _ Y          # FIG. 3
4   G _ _ B:remove                # FIG. 4

# No blanks.
5   B H:null Y H                  # a hammer that stays
6   H H R Y
7   G H H B
8   R G B H
9   H:cover-yellow B G R
10  R H G Y
11  Y G H:discard R
12  R B Y H:cover-green
13  H Y R B
14  G B Y H
15  B H Y:search G

# One blank.
16  _ H R H
17  G H _ H
18  R G B _
19  _ B R:draw2 Y
20  Y _ G B
21  R G H:cover-blue _
22  _ G H R
23  R B _ H
24  H:remove _ B R
25  R Y H _
26  G _ H B
27  H G:opp-discard Y _
28  _ Y H G
29  B Y _ H

# Two blanks.
30  _ H H _
31  R H _ _
32  _ Y _ H
33  _ _ G:discard H
34  H _ B _
35  _ _ H R
36  Y _ _ H
37  R _ G _
38  _ B Y _
39  _ R _ Y
40  G B _ _

# Three blanks.
41  R _ _ _
42  _ G _ _
43  _ _ B _
44  _ _ _ Y:cover-red
45  H _ _ _
46  _ H:draw2 _ _

# Four blanks.
47  _ _ _ _
48  _:null _ _ _                  # a hole nothing fills
"""

SPACE = """
# Centre | top, right, bottom, left.  R and B are ships, H is the laser.
# No blanks.
1   blank | R B R B
2   blank | R H:again B H
3   cow   | R R B:opp-discard H
4   blank | B B R H
5   blank | R H:search R B
6   cow   | B H B R
7   blank | H H R B
8   blank | H H B R
9   cow   | R B B H
10  blank | B R R H

# One blank.
11  cow   | R:again H H _
12  blank | R H _ B
13  blank | _ B H H
14  cow   | B _ H:cover-red R
15  blank | H B R _
16  blank | _ R B H:remove
17  cow   | H R _ B
18  blank | R R B _
19  blank | R _ B:draw2 B
20  blank | _ R R H
21  cow   | B H _ B
22  blank | H:cover-blue R H:discard _
23  blank | H _ H B
24  blank | H B:discard _ R
25  cow   | _ B R B
26  blank | R B:search R _

# Two blanks.
27  cow   | R R _ _
28  blank | _ R B _
29  blank | _ _ R:remove H
30  cow   | R _ _ B
31  blank | B B _ _
32  blank | _ B H:opp-discard _
33  cow   | _ _ H R
34  blank | B _ _ H
35  blank | H:null H _ _                # a laser that stays
36  blank | R _ R _
37  cow   | _ B _ B
38  blank | H _ H _
39  blank | R _ H _
40  blank | _ B _ H

# Three blanks.
41  cow   | R _ _ _
42  blank | _ R:cover-blue _ _
43  cow   | _ _ B _
44  blank | _ _ _ B:cover-red
45  cow   | _ H:draw2 _ _
46  blank | H _ _ _

# Four blanks.
47  cow   | _ _ _ _                     # a pasture for others' ships
48  blank | _:null _ _ _                # a hole nothing fills
"""

DECKS: dict[str, Deck] = {
    "workshop": parse_deck("workshop", "square", WORKSHOP),
    "workshop4": parse_deck("workshop4", "square", WORKSHOP4),
    "space": parse_deck("space", "octagon", SPACE,
                        nail_word="ship", hammer_word="laser", most_wins=True),
}
"""Every shipped deck by name."""

DEFAULT_DECK = "workshop"
