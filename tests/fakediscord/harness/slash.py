"""Acting as users with application commands: slash commands, autocomplete while typing
an option, and user/message context menus, each offered only where Discord's client
would offer it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model import FakeChannel, FakeCommand, FakeMessage, FakeUser
from ..model.constants import (
    ADMINISTRATOR,
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE,
)
from .acting import Acting
from .payloads import Resolved, command_data, command_path, option_values, resolve
from .results import InteractionResult


class CommandNotAvailable(LookupError):
    """Discord would not offer this command to this user here (permissions or context)."""


class CommandActions(Acting):
    """``slash``, ``autocomplete`` and ``context_menu``."""

    def _check_command_access(self, cmd: FakeCommand, user: FakeUser, channel: FakeChannel) -> None:
        contexts = cmd.raw.get("contexts")
        if channel.guild is None:
            if not cmd.allowed_in_dm():
                raise CommandNotAvailable(f"/{cmd.name} is not available in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise CommandNotAvailable(f"/{cmd.name} is not available in servers")
        needed = cmd.default_member_permissions
        perms = channel.guild.member(user).permissions
        if needed is not None and not perms & ADMINISTRATOR and perms & needed != needed:
            raise CommandNotAvailable(
                f"/{cmd.name} needs permissions {needed:#x}; {user.name} has {perms:#x}"
            )

    def _usable_command(
        self, user: FakeUser, channel: FakeChannel, name: str, *, type: int = 1
    ) -> FakeCommand:
        """The command ``user`` would pick from the list in ``channel``."""
        self._check_presence(user, channel)
        cmd = self.find_command(name, channel, type=type)
        self._check_command_access(cmd, user, channel)
        return cmd

    def _slash_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        parts: list[str],
        values: Mapping[str, Any],
        focused: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        """The ``data`` of "/parts..." with ``values``; ``focused`` is the option being
        typed into, with its text so far (autocomplete: other options may be missing)."""
        cmd = self._usable_command(user, channel, parts[0])
        leaf_defs, wrap = command_path(cmd, parts)
        resolved: Resolved = {}
        if focused is None:
            leaf = option_values(leaf_defs, values, channel, resolved, self.add_upload)
        else:
            name, text = focused
            spec = next((d for d in leaf_defs if d["name"] == name), None)
            if spec is None or not spec.get("autocomplete"):
                raise LookupError(f"option {name!r} of /{' '.join(parts)} has no autocomplete")
            others = {k: v for k, v in values.items() if k != name}
            leaf = option_values(
                leaf_defs, others, channel, resolved, self.add_upload, required=False
            )
            leaf.append({"name": name, "type": spec["type"], "value": text, "focused": True})
        wrapped = wrap(leaf)
        return command_data(cmd, resolved, **({"options": wrapped} if wrapped else {}))

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str | None = None,
        **kwargs: Any,
    ) -> InteractionResult:
        """Run a slash command as ``user`` in ``channel`` and wait for the acknowledgement.

        ``command`` is the full name ("play", "flank place", "admin game reset"); options
        are keyword arguments (or the ``options`` mapping when a name clashes with a
        parameter here); ``None`` leaves an option empty. Values: ``str``, ``int``,
        ``float``, ``bool``, users (:class:`FakeUser`), channels, roles, or
        ``(filename, bytes)`` for attachments.
        Discord's client-side rules are enforced: required options, choices, min/max,
        and whether the user may see the command at all (:class:`CommandNotAvailable`).
        """
        # None means "left empty", which is how optional options are usually skipped.
        values = {k: v for k, v in {**(options or {}), **kwargs}.items() if v is not None}
        parts = command.strip().lstrip("/").split()
        data = self._slash_data(user, channel, parts, values)
        inter = self.start_interaction(
            APPLICATION_COMMAND, user, channel, data, command_name=" ".join(parts), locale=locale
        )
        return await self._result(inter, wait, timeout)

    async def forged_slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: list[dict[str, Any]],
        *,
        resolved: Resolved | None = None,
        timeout: float = 5.0,
        locale: str | None = None,
    ) -> InteractionResult:
        """Send an APPLICATION_COMMAND as a stale or forged client would: the synced
        command ``name`` with ``options`` exactly as given (raw option payloads, e.g.
        ``[{"name": "matches", "type": 1, "options": [{"name": "page", "type": 4,
        "value": -1}]}]``), none of the client-side checks of :meth:`slash` applied."""
        self._check_presence(user, channel)
        cmd = self.find_command(name, channel)
        data = command_data(cmd, resolved or {}, options=options)
        inter = self.start_interaction(APPLICATION_COMMAND, user, channel, data,
                                       command_name=name, locale=locale)
        return await self._result(inter, True, timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        /,
        option: str,
        value: str,
        options: Mapping[str, Any] | None = None,
        *,
        timeout: float = 5.0,
        locale: str | None = None,
        **kwargs: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into ``option`` of a command and return the bot's suggestions
        (``[{"name": ..., "value": ...}, ...]``), as the client shows them while typing.

        ``await fake.autocomplete(alice, table, "choose", option="choice", value="S1")``
        sends an APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4) with that option
        focused; the bot must answer with APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (type 8),
        at most 25 choices. Options already filled in go as keyword arguments (or in
        ``options``); required ones may be missing, as while the user is still typing.
        """
        parts = command.strip().lstrip("/").split()
        values = {**(options or {}), **kwargs}
        data = self._slash_data(user, channel, parts, values, focused=(option, value))
        inter = self.start_interaction(
            APPLICATION_COMMAND_AUTOCOMPLETE,
            user,
            channel,
            data,
            command_name=" ".join(parts),
            locale=locale,
        )
        result = await self._result(inter, True, timeout)
        return result.choices

    async def context_menu(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        target: FakeUser | FakeMessage,
        *,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Use a user (target is a user) or message (target is a message) context menu."""
        ctype = 3 if isinstance(target, FakeMessage) else 2
        cmd = self._usable_command(user, channel, name, type=ctype)
        resolved: Resolved = {}
        if isinstance(target, FakeMessage):
            resolved["messages"] = {str(target.id): target.to_payload()}
        else:
            resolve(target, channel, resolved)
        data = command_data(cmd, resolved, target_id=str(target.id))
        inter = self.start_interaction(
            APPLICATION_COMMAND, user, channel, data, command_name=name, locale=locale
        )
        return await self._result(inter, wait, timeout)
