"""Test suite package (makes ``tests.fakediscord`` and shared helpers importable)."""
