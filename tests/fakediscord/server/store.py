"""The message store: creating, editing and deleting messages the way Discord validates
and announces them (MESSAGE_CREATE/UPDATE/DELETE by intent, content blanked without the
MESSAGE_CONTENT intent), with their attachments and embeds."""

from __future__ import annotations

import copy
import mimetypes
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from ..model import (
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeUser,
    assign_component_ids,
    now_iso,
)
from ..model.constants import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
)
from .errors import DiscordAPIError
from .gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    GatewaySession,
)
from .threads import ThreadLife
from .validation import check_file_sizes, check_message
from .wire import Upload


def message_intent(message: FakeMessage) -> int:
    """The intent a session needs to hear about ``message``."""
    return INTENT_DIRECT_MESSAGES if message.guild is None else INTENT_GUILD_MESSAGES


class MessageStore(ThreadLife):
    """Messages in, validated, stored and announced; also used by the harness for the
    messages users post."""

    def _build_attachments(
        self,
        channel: FakeChannel,
        body: Mapping[str, Any],
        uploads: dict[int, Upload],
        existing: list[FakeAttachment],
        ephemeral: bool,
    ) -> list[FakeAttachment] | None:
        """Resolve ``attachments`` (kept ids and ``files[n]`` indexes); ``None`` = unchanged."""
        specs = body.get("attachments")
        if specs is None:
            if not uploads:
                return None
            specs = [{"id": index} for index in sorted(uploads)]
            keep = list(existing)
        else:
            keep = []
        used: set[int] = set()
        result = keep
        for spec in specs:
            spec_id = int(spec["id"])
            if spec_id in uploads and spec_id not in used:
                used.add(spec_id)
                result.append(self._uploaded(channel, uploads[spec_id], spec, ephemeral))
                continue
            old = next((a for a in existing if a.id == spec_id), None)
            if old is None:
                raise DiscordAPIError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"attachments": f"unknown attachment {spec_id}"},
                )
            result.append(old)
        # Files uploaded but not listed are still attached by Discord.
        for index in sorted(set(uploads) - used):
            result.append(self._uploaded(channel, uploads[index], {}, ephemeral))
        return result

    def _uploaded(
        self, channel: FakeChannel, upload: Upload, spec: Mapping[str, Any], ephemeral: bool
    ) -> FakeAttachment:
        return self.new_attachment(
            channel,
            str(spec.get("filename") or upload.filename),
            upload.data,
            declared_type=upload.content_type,
            description=spec.get("description"),
            ephemeral=ephemeral,
        )

    def new_attachment(
        self,
        channel: FakeChannel,
        filename: str,
        data: bytes,
        *,
        declared_type: str | None = None,
        description: str | None = None,
        ephemeral: bool = False,
    ) -> FakeAttachment:
        """An attachment with a fresh id, served at ``/attachments/...`` like Discord's CDN.

        The content type comes from the file name, as Discord sniffs it: discord.py sends
        every file as ``application/octet-stream``, so that declared type means nothing.
        """
        guessed = mimetypes.guess_type(filename)[0]
        declared = declared_type if declared_type != "application/octet-stream" else None
        att_id = self.next_id()
        return FakeAttachment(
            att_id,
            filename,
            guessed or declared or "application/octet-stream",
            data,
            url=f"{self.base_url}/attachments/{channel.id}/{att_id}/{quote(filename)}",
            description=description,
            ephemeral=ephemeral,
        )

    def add_upload(self, channel: FakeChannel, filename: str, data: bytes) -> FakeAttachment:
        """A file a user attaches to a slash-command option (ephemeral until the bot reposts
        it), servable like a message attachment."""
        att = self.new_attachment(channel, filename, data, ephemeral=True)
        self.uploads[att.id] = att
        return att

    def find_attachment(self, att_id: int) -> FakeAttachment | None:
        """Any attachment the fake ever stored: uploads, live, deleted and edited-away ones."""
        if att_id in self.uploads:
            return self.uploads[att_id]
        for message in [*self.messages.values(), *self.deleted_messages]:
            for att in message.attachments:
                if att.id == att_id:
                    return att
        for message in self.messages.values():
            for version in message.history:
                for att in version.attachments:
                    if att.id == att_id:
                        return att
        return None

    def _normalize_embeds(
        self, embeds: list[dict[str, Any]], attachments: list[FakeAttachment]
    ) -> list[dict[str, Any]]:
        result = []
        for embed in copy.deepcopy(embeds):
            embed.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                url = media.get("url", "") if isinstance(media, dict) else ""
                if url.startswith("attachment://"):
                    name = url.removeprefix("attachment://")
                    att = next((a for a in attachments if a.filename == name), None)
                    if att is not None:
                        media.update(url=att.url, proxy_url=att.url)
                        if att.image_size:
                            media["width"], media["height"] = att.image_size
            result.append(embed)
        return result

    def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: Mapping[str, Any],
        uploads: dict[int, Upload] | None = None,
        *,
        interaction: FakeInteraction | None = None,
        allow_ephemeral: bool = False,
        message_type: int = 0,
        webhook_id: int | None = None,
    ) -> FakeMessage:
        """Validate like Discord, store, and announce (MESSAGE_CREATE) a new message."""
        uploads = uploads or {}
        check_file_sizes(len(upload.data) for upload in uploads.values())
        allowed = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
        if allow_ephemeral:
            allowed |= EPHEMERAL
        flags = int(body.get("flags") or 0) & allowed
        attachments = self._build_attachments(channel, body, uploads, [], bool(flags & EPHEMERAL))
        attachments = attachments or []
        content = "" if body.get("content") is None else str(body["content"])
        embeds = self._normalize_embeds(body.get("embeds") or [], attachments)
        components = assign_component_ids(copy.deepcopy(body.get("components") or []))
        poll = body.get("poll")
        check_message(
            content,
            embeds,
            components,
            attachments,
            flags,
            poll,
            body.get("sticker_ids"),
            body.get("allowed_mentions"),
        )
        reference_id = None
        ref = body.get("message_reference")
        if ref and ref.get("message_id"):
            reference_id = int(ref["message_id"])
            target = self.messages.get(reference_id)
            if (target is None or target.deleted) and ref.get("fail_if_not_exists", True):
                raise DiscordAPIError(
                    400, 50035, "Invalid Form Body", {"message_reference": "Unknown message"}
                )
        self.thread_activity(channel)  # unarchives an archived thread (threads.py)
        message = FakeMessage(
            self.next_id(),
            channel,
            author,
            content=content,
            embeds=embeds,
            components=components,
            attachments=attachments,
            flags=flags,
            type=message_type,
            tts=bool(body.get("tts")),
            webhook_id=webhook_id,
            application_id=self.application_id if interaction is not None else None,
            interaction=interaction,
            reference_id=reference_id,
            nonce=None if body.get("nonce") is None else str(body["nonce"]),
            poll=poll,
            allowed_mentions=body.get("allowed_mentions"),
        )
        self._store_message(message)
        return message

    def _store_message(self, message: FakeMessage) -> None:
        message.channel.messages.append(message)
        self.messages[message.id] = message
        self._announce("MESSAGE_CREATE", message)

    def edit_message(
        self,
        message: FakeMessage,
        body: Mapping[str, Any],
        uploads: dict[int, Upload] | None = None,
    ) -> FakeMessage:
        """Apply an edit (only the fields present), keeping the old version in ``history``."""
        self.check_not_archived(message.channel)  # 50083 (threads.py)
        uploads = uploads or {}
        check_file_sizes(len(upload.data) for upload in uploads.values())
        content = message.content
        if "content" in body:
            content = "" if body["content"] is None else str(body["content"])
        flags = message.flags & ~LOADING
        if body.get("flags") is not None:
            keep = EPHEMERAL | SUPPRESS_NOTIFICATIONS
            flags = (flags & keep) | (int(body["flags"]) & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
        attachments = self._build_attachments(
            message.channel, body, uploads, message.attachments, message.ephemeral
        )
        if attachments is None:
            attachments = message.attachments
        embeds = message.embeds
        if "embeds" in body:
            embeds = self._normalize_embeds(body["embeds"] or [], attachments)
        components = message.components
        if "components" in body:
            components = assign_component_ids(copy.deepcopy(body["components"] or []))
        check_message(
            content,
            embeds,
            components,
            attachments,
            flags,
            message.poll,
            None,
            body.get("allowed_mentions"),
        )
        message.history.append(message.snapshot())
        message.content = content
        message.embeds = embeds
        message.components = components
        message.attachments = attachments
        message.flags = flags
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        message.edited_timestamp = now_iso()
        self._announce("MESSAGE_UPDATE", message)
        return message

    def delete_message(self, message: FakeMessage) -> None:
        """Delete a message (it moves to ``deleted_messages``)."""
        message.deleted = True
        if message in message.channel.messages:
            message.channel.messages.remove(message)
        self.messages.pop(message.id, None)
        self.deleted_messages.append(message)
        if not message.ephemeral:
            payload: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.guild is not None:
                payload["guild_id"] = str(message.guild.id)
            guild_id = message.guild.id if message.guild is not None else None
            self._broadcast("MESSAGE_DELETE", payload, guild_id=guild_id,
                            intent=message_intent(message))
        self._bump()

    def _announce(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE to sessions with the matching intent; ephemeral ones are
        never sent over the gateway, and content is blanked without MESSAGE_CONTENT just
        as Discord does for messages not by, to or mentioning the bot."""
        if message.ephemeral:
            self._bump()
            return
        guild = message.guild
        member = guild.members.get(message.author.id) if guild is not None else None

        def payload_for(session: GatewaySession) -> dict[str, Any]:
            payload = message.to_payload(member=member)
            exempt = (
                guild is None
                or message.author.id == self.bot_user.id
                or self.bot_user.id in message.mentions
            )
            if not session.intents & INTENT_MESSAGE_CONTENT and not exempt:
                payload.update(content="", embeds=[], attachments=[], components=[])
                payload.pop("poll", None)
            return payload

        self._broadcast(event, payload_for, guild_id=guild.id if guild is not None else None,
                        intent=message_intent(message))
