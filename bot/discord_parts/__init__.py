"""The pieces every Discord answer is built from: persistent views and their template
ids, replies fitted to Discord's limits, bounds on what Discord sends, slash options
from a game's declared options, pictures added after the words."""
