"""Server settings (``/config``): deadlines, warnings, roles, ante, packs; who may change
them. Knows no transport."""
