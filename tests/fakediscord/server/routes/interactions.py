"""REST routes answering interactions: the initial callback (at most one, within the
deadline, of a type the interaction allows) and the follow-up webhook (send, read, edit
and delete messages by the interaction token, for the token's 15 minutes; an ephemeral
message only by its own interaction's token)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import web

from ...model import FakeInteraction, FakeMessage
from ...model.constants import (
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE,
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
)
from ..errors import DiscordAPIError
from ..state import log
from ..validation import FormErrors, autocomplete_errors, check_request_size, modal_errors
from ..wire import json_response, no_content, read_body
from .base import Route, RouteBase

#: Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS: dict[int, set[int]] = {
    APPLICATION_COMMAND: {4, 5, 9, 12},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 12},
    APPLICATION_COMMAND_AUTOCOMPLETE: {APPLICATION_COMMAND_AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {4, 5, 6, 7},
}
#: Callback types whose ``data`` Discord validates beyond a message's rules.
DATA_CHECKS: dict[int, Callable[[Mapping[str, Any]], FormErrors]] = {
    MODAL: modal_errors,
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: autocomplete_errors,
}


class InteractionRoutes(RouteBase):
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{app_id}/{token}``."""

    def _interaction_routes(self) -> list[Route]:
        webhook = "/webhooks/{app_id}/{token}"
        return [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", webhook, self._followup),
            ("GET", webhook + "/messages/{message_id}", self._webhook_get),
            ("PATCH", webhook + "/messages/{message_id}", self._webhook_patch),
            ("DELETE", webhook + "/messages/{message_id}", self._webhook_delete),
        ]

    def _interaction_from_url(self, request: web.Request) -> FakeInteraction:
        try:
            inter = self.interactions[int(request.match_info["interaction_id"])]
        except (KeyError, ValueError):
            raise DiscordAPIError(404, 10062, "Unknown interaction") from None
        if inter.token != request.match_info["token"]:
            raise DiscordAPIError(401, 50027, "Invalid Webhook Token")
        return inter

    async def _callback(self, request: web.Request) -> web.Response:
        inter = self._interaction_from_url(request)
        inter.callback_attempts += 1
        now = self.discord_time()
        if inter.callback_at is None:
            inter.callback_at = now
        if self.token_expired(inter):
            raise DiscordAPIError(404, 10062, "Unknown interaction")
        if inter.acked:
            raise DiscordAPIError(400, 40060, "Interaction has already been acknowledged.")
        age = now - inter.created_at
        if self.ack_deadline is not None and age > self.ack_deadline:
            log.warning(
                "interaction %s acknowledged after %.2fs; Discord allows %.1fs",
                inter.id,
                age,
                self.ack_deadline,
            )
            raise DiscordAPIError(404, 10062, "Unknown interaction")
        check_request_size(request.content_length)
        body, uploads = await read_body(request)
        rtype = body.get("type")
        data = body.get("data") or {}
        if rtype not in ALLOWED_CALLBACKS[inter.type]:
            raise DiscordAPIError(
                400,
                50035,
                "Invalid Form Body",
                {"type": f"callback type {rtype} not valid for interaction type {inter.type}"},
            )
        if rtype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and inter.message is None:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", {"type": "no message to update"})
        check_data = DATA_CHECKS.get(rtype)
        if check_data is not None:
            check_data(data).raise_if_any("data")
        if rtype == CHANNEL_MESSAGE_WITH_SOURCE:
            inter.original = self._interaction_message(inter, data, uploads)
        elif rtype == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            inter.original = self._loading_message(inter, int(data.get("flags") or 0))
        elif rtype == DEFERRED_UPDATE_MESSAGE:
            inter.original = inter.message
        elif rtype == UPDATE_MESSAGE:
            assert inter.message is not None
            self.edit_message(inter.message, data, uploads)
            inter.original = inter.message
        inter.response_type = rtype
        inter.response_data = data
        if rtype in (MODAL, APPLICATION_COMMAND_AUTOCOMPLETE_RESULT):
            self.answers_shown.append(data)
        self._bump()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        return json_response(self._callback_response(inter))

    def _callback_response(self, inter: FakeInteraction) -> dict[str, Any]:
        """The InteractionCallbackResponse shape discord.py 2.5+ parses."""
        original = inter.original
        interaction: dict[str, Any] = {"id": str(inter.id), "type": inter.type}
        resource: dict[str, Any] = {"type": inter.response_type}
        if original is not None and inter.response_type != DEFERRED_UPDATE_MESSAGE:
            interaction.update(
                response_message_id=str(original.id),
                response_message_loading=original.loading,
                response_message_ephemeral=original.ephemeral,
            )
            resource["message"] = original.to_payload()
        return {"interaction": interaction, "resource": resource}

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        if request.match_info["app_id"] != str(self.application_id):
            raise DiscordAPIError(404, 10015, "Unknown Webhook")
        inter = self._by_token.get(request.match_info["token"])
        if inter is None or not inter.acked:
            # Follow-ups only exist after the initial callback.
            raise DiscordAPIError(404, 10015, "Unknown Webhook")
        if self.token_expired(inter):
            # Past its 15 minutes Discord refuses the token itself, whatever the request.
            raise DiscordAPIError(401, 50027, "Invalid Webhook Token")
        return inter

    def _webhook_message(self, request: web.Request, inter: FakeInteraction) -> FakeMessage:
        raw = request.match_info["message_id"]
        if raw == "@original":
            message = inter.original
        else:
            try:
                message = self.messages.get(int(raw))
            except ValueError:
                message = None
            # The interaction token reaches any message the app sent through interactions,
            # but an ephemeral one only through its own interaction (or one used on it).
            own = message is not None and (
                message.interaction is inter or message is inter.message
            )
            if message is not None and not own and (
                message.interaction is None or message.ephemeral
            ):
                message = None
        if message is None or message.deleted:
            raise DiscordAPIError(404, 10008, "Unknown Message")
        return message

    async def _followup(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        check_request_size(request.content_length)
        body, uploads = await read_body(request)
        original = inter.original
        if (
            inter.response_type == DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first follow-up after a "thinking" deferral replaces the
            # loading message (and keeps the deferral's ephemerality).
            message = self.edit_message(original, body, uploads)
            inter.original_edits += 1
        else:
            message = self._interaction_message(inter, body, uploads)
        inter.followups.append(message)
        self._bump()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(message.to_payload())
        return no_content()

    async def _webhook_get(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        return json_response(self._webhook_message(request, inter).to_payload())

    async def _webhook_patch(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        message = self._webhook_message(request, inter)
        check_request_size(request.content_length)
        body, uploads = await read_body(request)
        self.edit_message(message, body, uploads)
        if message is inter.original:
            inter.original_edits += 1
        return json_response(message.to_payload())

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        message = self._webhook_message(request, inter)
        if message is inter.original:
            inter.deleted_original = True
        self.delete_message(message)
        return no_content()
