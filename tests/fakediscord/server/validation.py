"""Discord's validation rules, the subset bots trip over: message size and shape,
components, application commands, modals and autocomplete choices. Each refuses exactly
as Discord does, so a bot that passes here sends what Discord accepts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..model import FakeAttachment, walk_components
from ..model.constants import BUTTON, IS_COMPONENTS_V2, LINK_BUTTON_STYLE, SELECT_TYPES
from .errors import DiscordAPIError


def check_message(
    content: str,
    embeds: list[dict[str, Any]],
    components: list[dict[str, Any]],
    attachments: list[FakeAttachment],
    flags: int,
    poll: Any,
    stickers: Any,
) -> None:
    """Raise :class:`DiscordAPIError` (50006 empty, 50035 invalid) unless Discord would
    store a message of these parts."""
    errors: dict[str, Any] = {}
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2:
        if content or embeds:
            errors["content"] = "content and embeds cannot be used with IS_COMPONENTS_V2"
        if not components:
            raise DiscordAPIError(400, 50006, "Cannot send an empty message")
    elif not (content or embeds or attachments or poll or stickers):
        # Action rows alone do not make a (v1) message non-empty.
        raise DiscordAPIError(400, 50006, "Cannot send an empty message")
    if len(content) > 2000:
        errors["content"] = "Must be 2000 or fewer in length."
    if len(embeds) > 10:
        errors["embeds"] = "Must be 10 or fewer in length."
    if len(attachments) > 10:
        errors["attachments"] = "Must be 10 or fewer in length."
    total = 0
    limits = {"title": 256, "description": 4096}
    for i, embed in enumerate(embeds):
        for key, limit in limits.items():
            text = str(embed.get(key) or "")
            total += len(text)
            if len(text) > limit:
                errors[f"embeds.{i}.{key}"] = f"Must be {limit} or fewer in length."
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors[f"embeds.{i}.fields"] = "Must be 25 or fewer in length."
        for j, fld in enumerate(fields):
            name, value = str(fld.get("name") or ""), str(fld.get("value") or "")
            total += len(name) + len(value)
            if not name or len(name) > 256:
                errors[f"embeds.{i}.fields.{j}.name"] = "Must be between 1 and 256 in length."
            if not value or len(value) > 1024:
                errors[f"embeds.{i}.fields.{j}.value"] = "Must be between 1 and 1024 in length."
        footer = str((embed.get("footer") or {}).get("text") or "")
        author = str((embed.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        if len(footer) > 2048:
            errors[f"embeds.{i}.footer.text"] = "Must be 2048 or fewer in length."
    if total > 6000:
        errors["embeds"] = "Embed size exceeds maximum size of 6000"
    errors.update(_component_errors(components, v2))
    if errors:
        raise DiscordAPIError(400, 50035, "Invalid Form Body", errors)


def _component_errors(components: list[dict[str, Any]], v2: bool) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not v2:
        if len(components) > 5:
            errors["components"] = "Must be 5 or fewer in length."
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errors[f"components.{i}"] = "top-level components must be action rows (no v2 flag)"
                continue
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if not children or len(children) > 5 or (selects and len(children) > 1):
                errors[f"components.{i}.components"] = "an action row holds 1-5 buttons or 1 select"
    elif sum(1 for _ in walk_components(components)) > 40:
        errors["components"] = "Must be 40 or fewer components in total."
    seen: set[str] = set()
    for comp in walk_components(components):
        raw = comp.raw
        custom_id = raw.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                errors[f"custom_id {custom_id}"] = "COMPONENT_CUSTOM_ID_DUPLICATED"
            seen.add(custom_id)
            if not 1 <= len(custom_id) <= 100:
                errors[f"custom_id {custom_id[:20]}"] = "Must be between 1 and 100 in length."
        if comp.type == BUTTON:
            if raw.get("style") == LINK_BUTTON_STYLE:
                if not raw.get("url") or custom_id is not None:
                    errors["button"] = "link buttons need a url and no custom_id"
            elif raw.get("style") != 6 and custom_id is None:
                errors["button"] = "non-link buttons need a custom_id"
            if len(str(raw.get("label") or "")) > 80:
                errors["button.label"] = "Must be 80 or fewer in length."
        if comp.type in SELECT_TYPES:
            options = raw.get("options") or []
            if comp.type == 3 and not 1 <= len(options) <= 25:
                errors[f"select {custom_id}.options"] = "Must be between 1 and 25 in length."
            if len({o.get("value") for o in options}) != len(options):
                errors[f"select {custom_id}.options"] = "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"
            hi = int(raw.get("max_values", 1))
            lo = int(raw.get("min_values", 1))
            if (comp.type == 3 and hi > len(options)) or lo > hi:
                errors[f"select {custom_id}.max_values"] = "invalid min_values/max_values"
    return errors


_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def command_errors(raw: Mapping[str, Any]) -> dict[str, str]:
    """What is wrong with one application command as registered (empty when nothing)."""
    errors: dict[str, str] = {}
    name = str(raw.get("name") or "")
    ctype = int(raw.get("type") or 1)
    if ctype == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors["name"] = "APPLICATION_COMMAND_INVALID_NAME"
        if not 1 <= len(str(raw.get("description") or "")) <= 100:
            errors["description"] = "Must be between 1 and 100 in length."
    elif not 1 <= len(name) <= 32:
        errors["name"] = "Must be between 1 and 32 in length."
    errors.update(_option_errors(raw.get("options") or [], "options"))
    return errors


def _option_errors(options: list[dict[str, Any]], where: str) -> dict[str, str]:
    errors: dict[str, str] = {}
    if len(options) > 25:
        errors[where] = "Must be 25 or fewer in length."
    seen_optional = False
    names: set[str] = set()
    for i, opt in enumerate(options):
        name = str(opt.get("name") or "")
        if name in names:
            errors[f"{where}.{i}.name"] = "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"
        names.add(name)
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors[f"{where}.{i}.name"] = "APPLICATION_COMMAND_INVALID_NAME"
        if not 1 <= len(str(opt.get("description") or "")) <= 100:
            errors[f"{where}.{i}.description"] = "Must be between 1 and 100 in length."
        if opt.get("type") in (1, 2):
            errors.update(_option_errors(opt.get("options") or [], f"{where}.{i}.options"))
            continue
        if opt.get("required"):
            if seen_optional:
                errors[f"{where}.{i}.required"] = "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            errors[f"{where}.{i}.choices"] = "Must be 25 or fewer in length."
    return errors


def modal_errors(data: Mapping[str, Any]) -> dict[str, str]:
    """What is wrong with a modal the bot opens (callback type 9)."""
    errors: dict[str, str] = {}
    if not data.get("custom_id"):
        errors["custom_id"] = "required"
    if not 1 <= len(str(data.get("title") or "")) <= 45:
        errors["title"] = "Must be between 1 and 45 in length."
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors["components"] = "Must be between 1 and 5 in length."
    return errors


def autocomplete_errors(data: Mapping[str, Any]) -> dict[str, str]:
    """What is wrong with autocomplete suggestions (callback type 8): at most 25 choices,
    each named in 1-100 characters, a string value at most 100 long.

    >>> autocomplete_errors({"choices": [{"name": "Flank", "value": "flank"}]})
    {}
    >>> sorted(autocomplete_errors({"choices": [{"name": "", "value": "x" * 101}]}))
    ['choices.0.name', 'choices.0.value']
    """
    errors: dict[str, str] = {}
    choices = data.get("choices")
    if not isinstance(choices, list):
        return {"choices": "This field is required"}
    if len(choices) > 25:
        errors["choices"] = "Must be 25 or fewer in length."
    for i, choice in enumerate(choices):
        if not 1 <= len(str(choice.get("name") or "")) <= 100:
            errors[f"choices.{i}.name"] = "Must be between 1 and 100 in length."
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            errors[f"choices.{i}.value"] = "Must be 100 or fewer in length."
    return errors
