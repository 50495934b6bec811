"""Pictures of game tables (PNG, drawn with Pillow), one module per game."""
