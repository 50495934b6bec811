"""The ``data`` of the interactions a user's Discord client sends: command options typed
and checked as the client checks them (required, choices, ranges, channel types), the
``resolved`` users/members/roles/channels/attachments, select values and modal answers.

Plain functions: they read the model and never touch the server, except through the
``upload`` callback that stores a file attached to a command option.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..model import Component, FakeAttachment, FakeChannel, FakeCommand, FakeRole, FakeUser
from ..model.constants import (
    ATTACHMENT_OPTION,
    BOOLEAN_OPTION,
    CHANNEL_OPTION,
    DEFAULT_EVERYONE_PERMISSIONS,
    INTEGER_OPTION,
    LABEL,
    MENTIONABLE_OPTION,
    NUMBER_OPTION,
    ROLE_OPTION,
    SELECT_TYPES,
    STRING_OPTION,
    STRING_SELECT,
    TEXT_INPUT,
    USER_OPTION,
)

OptionList = list[dict[str, Any]]
Resolved = dict[str, dict[str, Any]]
#: Stores a file a user attaches to an option: ``(channel, filename, data) -> attachment``.
Uploader = Callable[[FakeChannel, str, bytes], FakeAttachment]

#: What each option type taking a Discord object accepts, and how an error names it.
TARGETS: dict[int, tuple[tuple[type, ...], str]] = {
    USER_OPTION: ((FakeUser,), "a FakeUser"),
    CHANNEL_OPTION: ((FakeChannel,), "a FakeChannel"),
    ROLE_OPTION: ((FakeRole,), "a FakeRole"),
    MENTIONABLE_OPTION: ((FakeUser, FakeRole), "a FakeUser or FakeRole"),
}


def command_data(cmd: FakeCommand, resolved: Resolved, **fields: Any) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND(_AUTOCOMPLETE) interaction for ``cmd``."""
    data: dict[str, Any] = {"id": str(cmd.id), "name": cmd.name, "type": cmd.type, **fields}
    if resolved:
        data["resolved"] = resolved
    if cmd.guild_id is not None:
        data["guild_id"] = str(cmd.guild_id)
    return data


def command_path(
    cmd: FakeCommand, parts: list[str]
) -> tuple[OptionList, Callable[[OptionList], OptionList]]:
    """Leaf option definitions for "cmd [group] [sub]" and a function nesting leaf values."""
    subs = [o for o in cmd.options if o.get("type") in (1, 2)]
    rest = parts[1:]
    if not subs:
        if rest:
            raise LookupError(f"/{cmd.name} has no subcommand {' '.join(rest)!r}")
        return cmd.options, lambda leaf: leaf
    if not rest:
        raise LookupError(f"/{cmd.name} needs a subcommand: {cmd.subcommand_names()}")

    def pick(options: list[dict[str, Any]], name: str) -> dict[str, Any]:
        for opt in options:
            if opt["name"] == name and opt.get("type") in (1, 2):
                return opt
        raise LookupError(f"no subcommand {' '.join(parts)!r}; have {cmd.subcommand_names()}")

    first = pick(subs, rest[0])
    if first["type"] == 1:
        if len(rest) != 1:
            raise LookupError(f"{' '.join(parts)!r}: {first['name']!r} is not a group")
        return first.get("options") or [], lambda leaf: [
            {"type": 1, "name": first["name"], "options": leaf}
        ]
    if len(rest) != 2:
        raise LookupError(f"{' '.join(parts)!r}: group {first['name']!r} needs a subcommand")
    sub = pick(first.get("options") or [], rest[1])
    return sub.get("options") or [], lambda leaf: [
        {
            "type": 2,
            "name": first["name"],
            "options": [{"type": 1, "name": sub["name"], "options": leaf}],
        }
    ]


def resolve(
    target: FakeUser | FakeRole | FakeChannel, channel: FakeChannel, resolved: Resolved
) -> str:
    """Add ``target`` to ``resolved`` the way Discord does for an interaction in
    ``channel`` (a user brings their membership along) and return its id as sent."""
    key = str(target.id)
    if isinstance(target, FakeUser):
        resolved.setdefault("users", {})[key] = target.to_payload()
        guild = channel.guild
        if guild is not None and target.id in guild.members:
            member = guild.members[target.id].to_payload(with_user=False, with_permissions=True)
            resolved.setdefault("members", {})[key] = member
    elif isinstance(target, FakeRole):
        resolved.setdefault("roles", {})[key] = target.to_payload()
    else:
        wanted = ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")
        payload = {k: v for k, v in target.to_payload().items() if k in wanted}
        payload["permissions"] = str(DEFAULT_EVERYONE_PERMISSIONS)
        resolved.setdefault("channels", {})[key] = payload
    return key


def option_values(
    defs: list[dict[str, Any]],
    values: Mapping[str, Any],
    channel: FakeChannel,
    resolved: Resolved,
    upload: Uploader,
    *,
    required: bool = True,
) -> OptionList:
    """The leaf options as sent, in definition order; ``required=False`` lets required
    ones be missing (autocomplete sends what the user filled in so far)."""
    by_name = {d["name"]: d for d in defs}
    unknown = sorted(set(values) - set(by_name))
    if unknown:
        raise TypeError(f"unknown option(s) {unknown}; the command has {sorted(by_name)}")
    out = []
    for spec in defs:
        name = spec["name"]
        if name not in values:
            if required and spec.get("required"):
                raise TypeError(f"missing required option {name!r}")
            continue
        value = convert_option(spec, values[name], channel, resolved, upload)
        out.append({"name": name, "type": spec["type"], "value": value})
    return out


def convert_option(
    spec: dict[str, Any],
    value: Any,
    channel: FakeChannel,
    resolved: Resolved,
    upload: Uploader,
) -> Any:
    """One option's value as the client sends it, refused as the client would refuse it."""
    name, otype = spec["name"], spec["type"]

    def bad(expected: str) -> TypeError:
        return TypeError(f"option {name!r} expects {expected}, got {value!r}")

    if otype in TARGETS:
        accepted, expected = TARGETS[otype]
        if not isinstance(value, accepted):
            raise bad(expected)
        allowed = spec.get("channel_types")
        if otype == CHANNEL_OPTION and allowed and value.type not in allowed:
            raise ValueError(f"option {name!r} accepts channel types {allowed}")
        return resolve(value, channel, resolved)
    if otype == ATTACHMENT_OPTION:
        if not (isinstance(value, tuple) and len(value) == 2):
            raise bad("a (filename, bytes) tuple")
        filename, data = value
        att = upload(channel, filename, bytes(data))
        resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
        return str(att.id)
    if otype == STRING_OPTION:
        if not isinstance(value, str):
            raise bad("a str")
        lo, hi = spec.get("min_length", 0), spec.get("max_length", 6000)
        if not lo <= len(value) <= hi:
            raise ValueError(f"option {name!r}: length must be {lo}..{hi}")
    elif otype == INTEGER_OPTION:
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad("an int")
    elif otype == NUMBER_OPTION:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise bad("a number")
    elif otype == BOOLEAN_OPTION:
        if not isinstance(value, bool):
            raise bad("a bool")
    else:
        raise TypeError(f"option type {otype} of {name!r} is not supported by the fake")
    if otype in (INTEGER_OPTION, NUMBER_OPTION):
        lo, hi = spec.get("min_value"), spec.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"option {name!r} must be within {lo}..{hi}")
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}")
    return value


def select_data(comp: Component, values: list[Any], channel: FakeChannel) -> dict[str, Any]:
    """The ``data`` of choosing ``values`` in a select menu, checked as the client does."""
    if not comp.min_values <= len(values) <= comp.max_values:
        raise ValueError(
            f"{comp!r} takes {comp.min_values}..{comp.max_values} values, got {len(values)}"
        )
    data: dict[str, Any] = {"custom_id": comp.custom_id, "component_type": comp.type}
    if comp.type == STRING_SELECT:
        valid = [o.value for o in comp.options]
        values = [str(v) for v in values]  # option values are always strings
        for value in values:
            if value not in valid:
                raise ValueError(f"{value!r} is not an option of {comp!r}; options: {valid}")
        data["values"] = values
        return data
    resolved: Resolved = {}
    ids = []
    for value in values:
        if not isinstance(value, FakeUser | FakeRole | FakeChannel):
            raise TypeError(f"{comp.kind} values must be users, roles or channels, got {value!r}")
        ids.append(resolve(value, channel, resolved))
    data["values"] = ids
    data["resolved"] = resolved
    return data


def modal_answer(comp: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """Mirror one modal component into its submission shape, taking values out of ``values``."""
    ctype = comp.get("type")
    answer: dict[str, Any] = {"type": ctype}
    if "id" in comp:
        answer["id"] = comp["id"]
    if ctype == 1:
        answer["components"] = [modal_answer(c, values) for c in comp.get("components") or []]
    elif ctype == LABEL:
        answer["component"] = modal_answer(comp["component"], values)
    elif ctype == TEXT_INPUT:
        custom_id = comp["custom_id"]
        text = values.pop(custom_id, comp.get("value") or "")
        if not isinstance(text, str):
            raise TypeError(f"text input {custom_id!r} takes a str")
        lo, hi = comp.get("min_length", 0), comp.get("max_length", 4000)
        if comp.get("required", True) and not text:
            raise ValueError(f"text input {custom_id!r} is required")
        if text and not lo <= len(text) <= hi:
            raise ValueError(f"text input {custom_id!r} must be {lo}..{hi} characters")
        answer.update(custom_id=custom_id, value=text)
    elif ctype in SELECT_TYPES:
        custom_id = comp["custom_id"]
        defaults = [o["value"] for o in comp.get("options") or [] if o.get("default")]
        chosen = values.pop(custom_id, defaults)
        answer.update(custom_id=custom_id, values=[str(v) for v in chosen])
    return answer
