"""Acting as users on message components: clicking buttons, choosing in selects,
submitting modals, and forging a component interaction no honest client would send."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..model import Component, FakeChannel, FakeInteraction, FakeMessage, FakeRole, FakeUser
from ..model.constants import (
    BUTTON,
    LINK_BUTTON_STYLE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    STRING_SELECT,
)
from .acting import Acting
from .payloads import modal_answer, select_data
from .results import InteractionResult


class ComponentActions(Acting):
    """``click``, ``select``, ``click_custom`` and ``submit_modal``."""

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Click a button (by ``custom_id`` or ``label``) as ``user``; works in DMs too.

        Refuses what the Discord client would not allow: disabled or link buttons, other
        people's ephemeral messages, channels the user is not in.
        """
        msg = self._visible_message(user, message)
        comp = msg.find_component(custom_id, label=label)
        if comp.type != BUTTON:
            raise TypeError(f"{comp!r} is not a button")
        if comp.style == LINK_BUTTON_STYLE or comp.custom_id is None:
            raise TypeError(f"{comp!r} is a link button; clicking it sends no interaction")
        data: dict[str, Any] = {"custom_id": comp.custom_id, "component_type": BUTTON}
        return await self._use_component(user, msg, comp, data, locale, wait, timeout)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | None = None,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel] = (),
        *,
        label: str | None = None,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Choose ``values`` in a select menu (``label`` matches the placeholder).

        String selects take option values; user/role/channel selects take the objects.
        The count must respect min/max values, as in the client.
        """
        msg = self._visible_message(user, message)
        comp = msg.find_component(custom_id, label=label)
        if not comp.is_select:
            raise TypeError(f"{comp!r} is not a select menu")
        data = select_data(comp, list(values), msg.channel)
        return await self._use_component(user, msg, comp, data, locale, wait, timeout)

    async def click_custom(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str] | None = None,
        *,
        component_type: int | None = None,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Send a MESSAGE_COMPONENT interaction with any ``custom_id`` (and select
        ``values``) on ``message``, skipping every check :meth:`click` and :meth:`select`
        make: a disabled or stale component, values a menu never offered, a custom_id the
        message does not carry. For tests that a bot refuses forged input itself.

        ``component_type`` defaults to a string select when ``values`` are given, else a
        button. The user must still see the message, and the interaction carries the
        message as stored, as Discord's does. Note that discord.py rebuilds a
        ``DynamicItem`` only from a component present on that message, so a custom_id
        the message lacks never reaches such a handler: no answer comes (``wait=False``).
        Discord itself validates a client's custom_id against the message too.
        """
        msg = self._visible_message(user, message)
        if component_type is None:
            component_type = BUTTON if values is None else STRING_SELECT
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = [str(v) for v in values]
        return await self._send_component(user, msg, data, locale, wait, timeout)

    async def _use_component(
        self,
        user: FakeUser,
        msg: FakeMessage,
        comp: Component,
        data: dict[str, Any],
        locale: str | None,
        wait: bool,
        timeout: float,
    ) -> InteractionResult:
        """Send the MESSAGE_COMPONENT interaction for a button or select, as the client would."""
        if comp.disabled:
            raise PermissionError(f"{comp!r} is disabled")
        if "id" in comp.raw:
            data["id"] = comp.raw["id"]
        return await self._send_component(user, msg, data, locale, wait, timeout)

    async def _send_component(
        self,
        user: FakeUser,
        msg: FakeMessage,
        data: dict[str, Any],
        locale: str | None,
        wait: bool,
        timeout: float,
    ) -> InteractionResult:
        inter = self.start_interaction(
            MESSAGE_COMPONENT, user, msg.channel, data, message=msg, locale=locale
        )
        return await self._result(inter, wait, timeout)

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: InteractionResult | FakeInteraction,
        values: Mapping[str, str | Sequence[str]] | None = None,
        *,
        timeout: float = 5.0,
        wait: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps text-input custom_ids to text (select custom_ids to lists of
        values); unspecified inputs keep their pre-filled value. Required inputs and
        length limits are enforced.
        """
        source = opened_by.interaction if isinstance(opened_by, InteractionResult) else opened_by
        modal = source.modal
        if modal is None:
            raise ValueError(f"{source!r} was not answered with a modal")
        if user is not source.user:
            raise PermissionError("only the user who opened a modal can submit it")
        remaining = dict(values or {})
        components = [modal_answer(c, remaining) for c in modal.get("components") or []]
        if remaining:
            raise TypeError(f"modal {modal['custom_id']!r} has no inputs {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        inter = self.start_interaction(
            MODAL_SUBMIT,
            user,
            source.channel,
            data,
            message=source.message,
            command_name=source.command_name,
            locale=locale,
        )
        return await self._result(inter, wait, timeout)
