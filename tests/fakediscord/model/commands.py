"""Application commands as the bot registered them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(eq=False)
class FakeCommand:
    """A registered application command; ``raw`` is the full stored shape."""

    raw: dict[str, Any]

    @property
    def id(self) -> int:
        """The command's snowflake."""
        return int(self.raw["id"])

    @property
    def name(self) -> str:
        """Top-level name."""
        return self.raw["name"]

    @property
    def type(self) -> int:
        """1 slash, 2 user context menu, 3 message context menu."""
        return int(self.raw.get("type", 1))

    @property
    def guild_id(self) -> int | None:
        """The guild for guild commands, ``None`` for global ones."""
        value = self.raw.get("guild_id")
        return int(value) if value else None

    @property
    def options(self) -> list[dict[str, Any]]:
        """Top-level options (may be subcommands/groups)."""
        return self.raw.get("options") or []

    @property
    def default_member_permissions(self) -> int | None:
        """Permission bits a member needs to see the command, ``None`` for everyone."""
        value = self.raw.get("default_member_permissions")
        return None if value is None else int(value)

    def allowed_in_dm(self) -> bool:
        """Whether Discord offers the command in the bot's DMs."""
        contexts = self.raw.get("contexts")
        if contexts is not None:
            return 1 in contexts
        return self.raw.get("dm_permission") is not False and self.guild_id is None

    def subcommand_names(self) -> list[str]:
        """Every full name ("game", "game start", "game admin reset")."""
        names: list[str] = []
        subs = [o for o in self.options if o.get("type") in (1, 2)]
        if not subs:
            return [self.name]
        for opt in subs:
            if opt["type"] == 1:
                names.append(f"{self.name} {opt['name']}")
            else:
                for sub in opt.get("options") or []:
                    names.append(f"{self.name} {opt['name']} {sub['name']}")
        return names

    def __repr__(self) -> str:
        where = f"guild={self.guild_id}" if self.guild_id else "global"
        return f"<FakeCommand /{self.name} id={self.id} {where}>"
