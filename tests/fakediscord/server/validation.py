"""Discord's validation rules, the subset bots trip over: message size and shape, embeds,
files, allowed mentions, components, modals, application commands and autocomplete
choices. Each refuses exactly as Discord does — the HTTP status, the JSON code and, for
an Invalid Form Body (50035), the nested ``errors`` naming each field — so a bot that
passes here sends what Discord accepts.

The limits are Discord's documented ones (discord.com/developers/docs): message
resource (content, embeds, allowed mentions), reference#uploading-files (files),
components/reference (buttons, selects, text inputs, labels), interactions/
receiving-and-responding (modals, autocomplete) and interactions/application-commands.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..model import FakeAttachment
from ..model.constants import (
    BUTTON,
    IS_COMPONENTS_V2,
    LINK_BUTTON_STYLE,
    PREMIUM_BUTTON_STYLE,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
)
from .errors import DiscordAPIError

MiB = 1024 * 1024
FILE_SIZE_LIMIT = 10 * MiB
"""Per file, for a bot in a server without boosts (reference#uploading-files)."""
REQUEST_SIZE_LIMIT = 25 * MiB
"""The whole request when sending a message (message#create-message, Limitations)."""


class FormErrors:
    """The errors of one Invalid Form Body, gathered by field path into the nested
    shape Discord answers with.

    >>> errors = FormErrors()
    >>> errors.length("embeds.0.title", "x" * 257, 256)
    >>> errors.tree
    {'embeds': {'0': {'title': {'_errors': [{'code': 'BASE_TYPE_MAX_LENGTH', \
'message': 'Must be 256 or fewer in length.'}]}}}}
    """

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def __bool__(self) -> bool:
        return bool(self.tree)

    def add(self, path: str, code: str, message: str) -> None:
        """One error at ``path`` (dotted: ``"components.0.components.1.label"``; ``""``
        for the request as a whole)."""
        node = self.tree
        for part in filter(None, path.split(".")):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def length(self, path: str, value: Any, most: int, least: int = 0) -> None:
        """Text (or a list) of ``least`` to ``most`` items, in Discord's words when not."""
        size = len(value) if value is not None else 0
        if least <= size <= most:
            return
        if least:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {least} and {most} in length.")
        else:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {most} or fewer in length.")

    def number(self, path: str, value: Any, least: int, most: int) -> None:
        """An integer from ``least`` to ``most``."""
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "NUMBER_TYPE_COERCE", f"Value \"{value}\" is not int.")
        elif value < least:
            self.add(path, "NUMBER_TYPE_MIN",
                     f"int value should be greater than or equal to {least}.")
        elif value > most:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {most}.")

    def required(self, path: str, value: Any) -> bool:
        """Whether ``value`` is there; a BASE_TYPE_REQUIRED error when it is not."""
        if value is None or value == "":
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return False
        return True

    def raise_if_any(self, under: str = "") -> None:
        """Raise Discord's 400 / 50035 with these errors (nested under ``under``, e.g.
        ``"data"`` for an interaction callback), if there are any."""
        if not self.tree:
            return
        tree = self.tree
        for part in reversed(under.split(".") if under else []):
            tree = {part: tree}
        raise DiscordAPIError(400, 50035, "Invalid Form Body", tree)


NOT_A_DICT = "Only dictionaries may be used in a DictType"


def _text(value: Any) -> str:
    return "" if value is None else str(value)


# --- messages -------------------------------------------------------------------------


def check_request_size(content_length: int | None) -> None:
    """413 / 40005 for a request over Discord's 25 MiB (a message with its files)."""
    if content_length is not None and content_length > REQUEST_SIZE_LIMIT:
        raise DiscordAPIError(413, 40005, "Request entity too large")


def check_file_sizes(sizes: Iterable[int]) -> None:
    """413 / 40005 for any file over 10 MiB, Discord's limit for a bot in a server
    without boosts (the ``attachment_size_limit`` of the fake's interactions)."""
    if any(size > FILE_SIZE_LIMIT for size in sizes):
        raise DiscordAPIError(413, 40005, "Request entity too large")


def check_message(
    content: str,
    embeds: list[dict[str, Any]],
    components: list[dict[str, Any]],
    attachments: list[FakeAttachment],
    flags: int,
    poll: Any,
    stickers: Any,
    allowed_mentions: Any = None,
) -> None:
    """Raise :class:`DiscordAPIError` (50006 empty, 50035 invalid) unless Discord would
    store a message of these parts."""
    errors = FormErrors()
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2:
        if content or embeds:
            errors.add(
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using "
                "MessageFlags.IS_COMPONENTS_V2",
            )
        if not components:
            raise DiscordAPIError(400, 50006, "Cannot send an empty message")
    elif not (content or embeds or attachments or poll or stickers):
        # Action rows alone do not make a (v1) message non-empty.
        raise DiscordAPIError(400, 50006, "Cannot send an empty message")
    errors.length("content", content, 2000)
    errors.length("embeds", embeds, 10)
    errors.length("attachments", attachments, 10)
    for i, att in enumerate(attachments):
        errors.length(f"attachments.{i}.description", att.description, 1024)
    _embed_errors(embeds, errors)
    _allowed_mentions_errors(allowed_mentions, errors)
    _component_errors(components, v2, errors)
    errors.raise_if_any()


EMBED_TEXT_LIMITS = {
    "title": 256,
    "description": 4096,
    "footer.text": 2048,
    "author.name": 256,
}
"""message#embed-object-embed-limits; with fields (25; name 256, value 1024) and 6000 in
all over a message's embeds."""


def _embed_errors(embeds: list[dict[str, Any]], errors: FormErrors) -> None:
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_TEXT_LIMITS.items():
            outer, _, inner = key.partition(".")
            part = embed.get(outer)
            if inner:
                if not isinstance(part, Mapping):
                    continue
                # author.name and footer.text are required in their objects.
                errors.required(f"embeds.{i}.{key}", part.get(inner))
                part = part.get(inner)
            # Discord trims leading and trailing whitespace before it measures.
            text = _text(part).strip()
            total += len(text)
            errors.length(f"embeds.{i}.{key}", text, limit)
        fields = embed.get("fields") or []
        errors.length(f"embeds.{i}.fields", fields, 25)
        for j, fld in enumerate(fields):
            name, value = _text(fld.get("name")).strip(), _text(fld.get("value")).strip()
            total += len(name) + len(value)
            if errors.required(f"embeds.{i}.fields.{j}.name", name):
                errors.length(f"embeds.{i}.fields.{j}.name", name, 256)
            if errors.required(f"embeds.{i}.fields.{j}.value", value):
                errors.length(f"embeds.{i}.fields.{j}.value", value, 1024)
    if total > 6000:
        errors.add("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


MENTION_TYPES = ("roles", "users", "everyone")


def _allowed_mentions_errors(allowed: Any, errors: FormErrors) -> None:
    """message#allowed-mentions-object: ``parse`` of the three types; ``users`` and
    ``roles`` lists of at most 100 ids, each refused beside the same type in ``parse``."""
    if allowed is None:
        return
    if not isinstance(allowed, Mapping):
        errors.add("allowed_mentions", "DICT_TYPE_CONVERT", NOT_A_DICT)
        return
    parse = allowed.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            errors.add(
                f"allowed_mentions.parse.{i}",
                "BASE_TYPE_CHOICES",
                f"Value must be one of {set(MENTION_TYPES)}.",
            )
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        errors.length(f"allowed_mentions.{kind}", listed, 100)
        if listed and kind in parse:
            errors.add(
                "allowed_mentions",
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )


# --- components ------------------------------------------------------------------------


def _walk(components: list[dict[str, Any]], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every component with its field path, through rows, containers, sections, labels."""
    for i, raw in enumerate(components):
        here = f"{path}.{i}"
        yield here, raw
        yield from _walk(raw.get("components") or [], f"{here}.components")
        for key in ("accessory", "component"):
            child = raw.get(key)
            if isinstance(child, dict):
                yield f"{here}.{key}", child
                yield from _walk(child.get("components") or [], f"{here}.{key}.components")


def _component_errors(components: list[dict[str, Any]], v2: bool, errors: FormErrors) -> None:
    """components/reference: rows of 1-5 buttons or one select (5 rows; 40 components in
    all with the v2 flag), unique custom_ids of 1-100, buttons and selects each to theirs."""
    if not v2:
        errors.length("components", components, 5)
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errors.add(
                    f"components.{i}.type",
                    "UNION_TYPE_CHOICES",
                    "Value of field \"type\" must be one of (1,).",
                )
                continue
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            errors.length(f"components.{i}.components", children, 5, 1)
            if selects and len(children) > 1:
                errors.add(
                    f"components.{i}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
    elif sum(1 for _ in _walk(components, "components")) > 40:
        errors.add("components", "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
    _interactive_errors(components, "components", errors)


def _interactive_errors(
    components: list[dict[str, Any]], where: str, errors: FormErrors, *, modal: bool = False
) -> None:
    seen: set[str] = set()
    for path, raw in _walk(components, where):
        if modal and raw.get("disabled"):
            # components/reference: modals cannot hold disabled components.
            errors.add(f"{path}.disabled", "MODAL_COMPONENT_DISABLED",
                       "Modals cannot have disabled components")
        custom_id = raw.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                errors.add(
                    f"{path}.custom_id",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)
            errors.length(f"{path}.custom_id", _text(custom_id), 100, 1)
        ctype = raw.get("type")
        if ctype == BUTTON:
            _button_errors(raw, path, errors)
        elif ctype in SELECT_TYPES:
            _select_errors(raw, path, errors)
        elif ctype == TEXT_INPUT:
            _text_input_errors(raw, path, errors)
        elif ctype == 18:  # a modal's label
            if errors.required(f"{path}.label", raw.get("label")):
                errors.length(f"{path}.label", _text(raw.get("label")), 45, 1)
            errors.length(f"{path}.description", raw.get("description"), 100)


def _button_errors(raw: Mapping[str, Any], path: str, errors: FormErrors) -> None:
    style = raw.get("style")
    if style == LINK_BUTTON_STYLE:
        if errors.required(f"{path}.url", raw.get("url")):
            errors.length(f"{path}.url", _text(raw.get("url")), 512)
        if raw.get("custom_id") is not None:
            errors.add(f"{path}.custom_id", "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                       "A link button cannot have a custom id")
    elif style != PREMIUM_BUTTON_STYLE:
        errors.required(f"{path}.custom_id", raw.get("custom_id"))
    errors.length(f"{path}.label", raw.get("label"), 80)


def _select_errors(raw: Mapping[str, Any], path: str, errors: FormErrors) -> None:
    """A select: placeholder of 150; min_values 0-25 and max_values 1-25, min at most max;
    a string select has 1-25 options (labels, values, descriptions of 100, values
    unique) and max_values at most its options."""
    errors.length(f"{path}.placeholder", raw.get("placeholder"), 150)
    lo, hi = raw.get("min_values", 1), raw.get("max_values", 1)
    errors.number(f"{path}.min_values", lo, 0, 25)
    errors.number(f"{path}.max_values", hi, 1, 25)
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        errors.add(f"{path}.min_values", "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX",
                   "min_values must be less than or equal to max_values")
    if raw.get("type") != STRING_SELECT:
        return
    options = raw.get("options") or []
    errors.length(f"{path}.options", options, 25, 1)
    if isinstance(hi, int) and options and hi > len(options):
        errors.add(f"{path}.max_values", "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                   f"max_values must be at most the number of options ({len(options)})")
    values: set[str] = set()
    for j, option in enumerate(options):
        where = f"{path}.options.{j}"
        for key in ("label", "value"):
            if errors.required(f"{where}.{key}", option.get(key)):
                errors.length(f"{where}.{key}", _text(option.get(key)), 100, 1)
        errors.length(f"{where}.description", option.get("description"), 100)
        if option.get("value") in values:
            errors.add(f"{where}.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                       "Select component option values must be unique")
        values.add(option.get("value"))


def _text_input_errors(raw: Mapping[str, Any], path: str, errors: FormErrors) -> None:
    """components/reference#text-input: a label of 1-45 (when it has one), a placeholder of
    100, a value of 4000, min_length 0-4000 and max_length 1-4000, min at most max."""
    if raw.get("label") is not None:
        errors.length(f"{path}.label", _text(raw.get("label")), 45, 1)
    if raw.get("style") not in (1, 2):
        errors.add(f"{path}.style", "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    errors.length(f"{path}.placeholder", raw.get("placeholder"), 100)
    errors.length(f"{path}.value", raw.get("value"), 4000)
    lo, hi = raw.get("min_length"), raw.get("max_length")
    if lo is not None:
        errors.number(f"{path}.min_length", lo, 0, 4000)
    if hi is not None:
        errors.number(f"{path}.max_length", hi, 1, 4000)
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        errors.add(f"{path}.min_length", "TEXT_INPUT_MIN_LENGTH_GREATER_THAN_MAX",
                   "min_length must be less than or equal to max_length")


def modal_errors(data: Mapping[str, Any]) -> FormErrors:
    """What is wrong with a modal the bot opens (callback type 9): a custom_id of 1-100, a
    title of 1-45, 1-5 top-level components, each an action row holding one text input
    or a label holding one component, and those held to their own limits."""
    errors = FormErrors()
    if errors.required("custom_id", data.get("custom_id")):
        errors.length("custom_id", _text(data.get("custom_id")), 100, 1)
    if errors.required("title", data.get("title")):
        errors.length("title", _text(data.get("title")), 45, 1)
    components = data.get("components") or []
    errors.length("components", components, 5, 1)
    for i, top in enumerate(components):
        if top.get("type") == 1:
            children = top.get("components") or []
            if len(children) != 1 or children[0].get("type") != TEXT_INPUT:
                errors.add(f"components.{i}.components", "MODAL_ACTION_ROW_INVALID",
                           "An action row in a modal holds exactly one text input")
            elif children[0].get("label") is None:
                errors.required(f"components.{i}.components.0.label", None)
        elif top.get("type") == 18:
            if not isinstance(top.get("component"), dict):
                errors.required(f"components.{i}.component", None)
        elif top.get("type") != 10:  # a text display may stand alone in a modal
            errors.add(f"components.{i}.type", "MODAL_COMPONENT_TYPE_INVALID",
                       "Modals hold action rows, labels and text displays")
    _interactive_errors(components, "components", errors, modal=True)
    return errors


# --- application commands ----------------------------------------------------------------

_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
_WITH_CHOICES = (3, 4, 10)  # STRING, INTEGER, NUMBER
LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko"))
"""The locales a localization map may name (reference#locales)."""


def _valid_name(name: str) -> bool:
    """A command or option name as Discord takes it: 1-32 of ``-_'``, letters and digits,
    lowercase where the letters have case."""
    return bool(_COMMAND_NAME.match(name)) and name == name.lower()


def _localizations(raw: Mapping[str, Any], field: str, where: str,
                   errors: FormErrors) -> dict[str, str]:
    """``raw[field]`` (``name_localizations`` …) as Discord reads it: null or a map from
    a known locale to text; the valid entries, each error added under ``where``."""
    found = raw.get(field)
    if found is None:
        return {}
    path = f"{where}.{field}" if where else field
    if not isinstance(found, Mapping):
        errors.add(path, "DICT_TYPE_CONVERT", NOT_A_DICT)
        return {}
    valid = {}
    for locale, text in found.items():
        if locale not in LOCALES:
            errors.add(f"{path}.{locale}", "ENUM_TYPE_COERCE",
                       f"Value \"{locale}\" is not a valid enum value.")
        elif not isinstance(text, str):
            errors.add(f"{path}.{locale}", "BASE_TYPE_STRING", "Could not interpret as string.")
        else:
            valid[locale] = text
    return valid


def _localized(raw: Mapping[str, Any], where: str, errors: FormErrors, *,
               described: bool) -> dict[str, str]:
    """The localized names and descriptions of a command or option, checked as its own
    are: names valid in each locale, descriptions 1-100; the names by locale."""
    names = _localizations(raw, "name_localizations", where, errors)
    prefix = f"{where}." if where else ""
    for locale, name in names.items():
        if not _valid_name(name):
            errors.add(f"{prefix}name_localizations.{locale}", "APPLICATION_COMMAND_INVALID_NAME",
                       "Command name is invalid")
    for locale, text in _localizations(raw, "description_localizations", where,
                                       errors).items():
        if described:
            errors.length(f"{prefix}description_localizations.{locale}", text, 100, 1)
    return names


def _clashes(seen: dict[tuple[str, str], str], name: str,
             localized: Mapping[str, str]) -> list[tuple[str, str]]:
    """Where a name is taken among its siblings (``seen``: (locale, name shown) → the
    default name of the sibling showing it, filled as it goes): the default names, and
    in each locale the localized name or the default where it has none. A clash of two
    default names is said once, not again in every locale.

    >>> seen = {}
    >>> _clashes(seen, "deal", {}), _clashes(seen, "give", {"pt-BR": "deal"})
    ([], [('pt-BR', 'name_localizations.pt-BR')])
    >>> _clashes(seen, "deal", {})
    [('', 'name')]
    """
    found = []
    for locale in ("", *sorted(LOCALES)):
        shown = localized.get(locale, name) if locale else name
        key = (locale, shown)
        if key in seen and (not locale or seen[key] != name):
            found.append((locale, f"name_localizations.{locale}" if locale else "name"))
        seen.setdefault(key, name)
    return found


def localized_clash(commands: list[Any]) -> bool:
    """Whether two commands of one kind in a bulk overwrite show the same name in some
    locale (a localized name, or the default where it has none)."""
    seen: dict[str, dict[tuple[str, str], str]] = {}
    for raw in commands:
        if not isinstance(raw, Mapping):
            continue
        found = raw.get("name_localizations")
        localized = ({str(k): _text(v) for k, v in found.items()}
                     if isinstance(found, Mapping) else {})
        kind = seen.setdefault(str(raw.get("type") or 1), {})
        if any(locale for locale, _ in _clashes(kind, _text(raw.get("name")), localized)):
            return True
    return False


def _longest(raw: Mapping[str, Any], field: str) -> int:
    """A field's size as Discord counts it toward 8000: its longest localization, the
    default included."""
    found = raw.get(f"{field}_localizations")
    texts = [_text(raw.get(field))]
    if isinstance(found, Mapping):
        texts += [_text(text) for text in found.values()]
    return max(len(text) for text in texts)


def command_errors(raw: Mapping[str, Any]) -> FormErrors:
    """What is wrong with one application command as registered (empty when nothing):
    names and descriptions, options (interactions/application-commands), and 8000
    characters in all."""
    errors = FormErrors()
    name = _text(raw.get("name"))
    ctype = int(raw.get("type") or 1)
    if ctype == 1:
        if not _valid_name(name):
            errors.add("name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        errors.length("description", _text(raw.get("description")), 100, 1)
        _localized(raw, "", errors, described=True)
    else:
        errors.length("name", name, 32, 1)
        for locale, text in _localizations(raw, "name_localizations", "", errors).items():
            errors.length(f"name_localizations.{locale}", text, 32, 1)
    _option_errors(raw.get("options") or [], "options", errors, depth=0)
    if _command_size(raw) > 8000:
        errors.add("", "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
    return errors


def _command_size(raw: Mapping[str, Any]) -> int:
    """Characters of names, descriptions and choice values, as Discord counts them (a
    localized field by its longest text)."""
    size = _longest(raw, "name") + _longest(raw, "description")
    for option in raw.get("options") or []:
        size += _command_size(option)
    for choice in raw.get("choices") or []:
        if isinstance(choice, Mapping):
            size += _longest(choice, "name") + len(_text(choice.get("value")))
    return size


def _option_errors(
    options: list[dict[str, Any]], where: str, errors: FormErrors, *, depth: int
) -> None:
    """Options of a command (``depth`` 0), of a subcommand group (1) or of a subcommand:
    at most 25; unique names; subcommands and groups never beside plain options; a group
    holds only subcommands and never sits in another group; required before optional;
    choices (25; names 1-100, string values 100) and autocomplete exclusive."""
    errors.length(where, options, 25)
    kinds = {SUB_COMMAND_GROUP if o.get("type") == SUB_COMMAND_GROUP
             else SUB_COMMAND if o.get("type") == SUB_COMMAND else 0 for o in options}
    if 0 in kinds and len(kinds) > 1:
        errors.add(where, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                   "Sub-command and sub-command group option types are mutually exclusive "
                   "to all other types")
    seen_optional = False
    names: dict[tuple[str, str], str] = {}
    for i, opt in enumerate(options):
        path = f"{where}.{i}"
        name = _text(opt.get("name"))
        localized = _localized(opt, path, errors, described=True)
        for _locale, field in _clashes(names, name, localized):
            errors.add(f"{path}.{field}", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                       "Option name already exists")
        if not _valid_name(name):
            errors.add(f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", "Option name is invalid")
        errors.length(f"{path}.description", _text(opt.get("description")), 100, 1)
        otype = opt.get("type")
        if otype in (SUB_COMMAND, SUB_COMMAND_GROUP):
            allowed = {0: (1, 2), 1: (1,)}.get(depth, ())
            if otype not in allowed:
                errors.add(f"{path}.type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                           "Sub-command groups hold only sub-commands, one level deep")
            if otype == SUB_COMMAND_GROUP and any(
                o.get("type") != SUB_COMMAND for o in opt.get("options") or []
            ):
                errors.add(f"{path}.options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                           "A sub-command group holds only sub-commands")
            child_depth = 1 if otype == SUB_COMMAND_GROUP else 2
            _option_errors(opt.get("options") or [], f"{path}.options", errors, depth=child_depth)
            continue
        if opt.get("options"):
            errors.add(f"{path}.options", "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                       "Only sub-commands and groups have options")
        if opt.get("required"):
            if seen_optional:
                errors.add(f"{path}.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                           "Required options must be placed before non-required options")
        else:
            seen_optional = True
        _choice_errors(opt, path, errors)
        if otype == 3:
            for key, least in (("min_length", 0), ("max_length", 1)):
                if opt.get(key) is not None:
                    errors.number(f"{path}.{key}", opt[key], least, 6000)


def _choice_errors(opt: Mapping[str, Any], path: str, errors: FormErrors) -> None:
    choices = opt.get("choices") or []
    if not choices:
        return
    if opt.get("type") not in _WITH_CHOICES:
        errors.add(f"{path}.choices", "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                   "Only string, integer and number options have choices")
    if opt.get("autocomplete"):
        errors.add(f"{path}.autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_AND_CHOICES",
                   "Autocomplete cannot be used with choices")
    _choices_list_errors(choices, f"{path}.choices", errors)


def _choices_list_errors(choices: list[Any], where: str, errors: FormErrors) -> None:
    """At most 25 choices, each named in 1-100 characters, a string value of at most 100."""
    errors.length(where, choices, 25)
    for i, choice in enumerate(choices):
        if not isinstance(choice, Mapping):
            errors.add(f"{where}.{i}", "DICT_TYPE_CONVERT", NOT_A_DICT)
            continue
        errors.length(f"{where}.{i}.name", _text(choice.get("name")), 100, 1)
        for locale, text in _localizations(choice, "name_localizations", f"{where}.{i}",
                                           errors).items():
            errors.length(f"{where}.{i}.name_localizations.{locale}", text, 100, 1)
        value = choice.get("value")
        if isinstance(value, str):
            errors.length(f"{where}.{i}.value", value, 100)
        else:
            errors.required(f"{where}.{i}.value", value)


def autocomplete_errors(data: Mapping[str, Any]) -> FormErrors:
    """What is wrong with autocomplete suggestions (callback type 8): at most 25 choices,
    each named in 1-100 characters, a string value at most 100 long.

    >>> bool(autocomplete_errors({"choices": [{"name": "Flank", "value": "flank"}]}))
    False
    >>> wrong = autocomplete_errors({"choices": [{"name": "", "value": "x" * 101}]})
    >>> sorted(wrong.tree["choices"]["0"])
    ['name', 'value']
    """
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.required("choices", None)
        return errors
    _choices_list_errors(choices, "choices", errors)
    return errors
