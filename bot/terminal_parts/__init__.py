"""The pieces of the terminal table a game's own commands are built from: the screen and
its input, files and folders, what a local command is given."""
