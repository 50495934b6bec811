"""Message components as a test reads them: a flattened :class:`Component` view over the
raw JSON the bot sent, and the walks that find them in rows, containers and labels."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .constants import BUTTON, COMPONENT_TYPE_NAMES, SELECT_TYPES


@dataclass(frozen=True)
class SelectOption:
    """One option of a string select."""

    label: str
    value: str
    description: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Component:
    """A flattened view of one component anywhere in a message or modal (rows, containers,
    sections and labels are walked through). ``raw`` is the JSON the bot sent."""

    type: int
    raw: dict[str, Any] = field(repr=False, hash=False, compare=False)

    @property
    def kind(self) -> str:
        """Readable type name, e.g. ``"button"`` or ``"string_select"``."""
        return COMPONENT_TYPE_NAMES.get(self.type, f"type{self.type}")

    @property
    def custom_id(self) -> str | None:
        """The developer-set id, if any."""
        return self.raw.get("custom_id")

    @property
    def label(self) -> str | None:
        """A button's or label component's text."""
        return self.raw.get("label")

    @property
    def style(self) -> int | None:
        """Button or text input style."""
        return self.raw.get("style")

    @property
    def disabled(self) -> bool:
        """Whether the component is greyed out."""
        return bool(self.raw.get("disabled", False))

    @property
    def url(self) -> str | None:
        """A link button's URL."""
        return self.raw.get("url")

    @property
    def emoji(self) -> str | None:
        """The emoji's name (the unicode character for standard emoji)."""
        emoji = self.raw.get("emoji")
        return emoji.get("name") if emoji else None

    @property
    def placeholder(self) -> str | None:
        """A select's placeholder."""
        return self.raw.get("placeholder")

    @property
    def min_values(self) -> int:
        """Fewest values a select accepts."""
        return int(self.raw.get("min_values", 1))

    @property
    def max_values(self) -> int:
        """Most values a select accepts."""
        return int(self.raw.get("max_values", 1))

    @property
    def content(self) -> str | None:
        """A text display's markdown."""
        return self.raw.get("content")

    @property
    def options(self) -> list[SelectOption]:
        """A string select's options."""
        return [
            SelectOption(o["label"], o["value"], o.get("description"), bool(o.get("default")))
            for o in self.raw.get("options", [])
        ]

    @property
    def is_button(self) -> bool:
        """Whether this is a button."""
        return self.type == BUTTON

    @property
    def is_select(self) -> bool:
        """Whether this is any kind of select menu."""
        return self.type in SELECT_TYPES

    def option(self, label: str | None = None, *, value: str | None = None) -> SelectOption:
        """The select option with this label or value."""
        for option in self.options:
            if (label is None or option.label == label) and (
                value is None or option.value == value
            ):
                return option
        raise LookupError(f"no option label={label!r} value={value!r} in {self.options}")

    def __repr__(self) -> str:
        bits = [self.kind]
        for name in ("custom_id", "label", "placeholder"):
            value = getattr(self, name)
            if value is not None:
                bits.append(f"{name}={value!r}")
        if self.disabled:
            bits.append("disabled")
        return f"<Component {' '.join(bits)}>"


def walk_components(components: list[dict[str, Any]]) -> Iterator[Component]:
    """Yield every component depth-first, looking inside rows, containers, sections, labels."""
    for raw in components:
        yield Component(int(raw.get("type", 0)), raw)
        yield from walk_components(raw.get("components") or [])
        for key in ("accessory", "component"):
            child = raw.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def find_component(
    components: list[dict[str, Any]],
    custom_id: str | None = None,
    *,
    label: str | None = None,
    kind: str | None = None,
    where: str = "message",
) -> Component:
    """Find exactly one interactive component by custom_id and/or label (and/or kind)."""
    if custom_id is None and label is None and kind is None:
        raise TypeError("give custom_id, label or kind")
    matches = [
        c
        for c in walk_components(components)
        if (custom_id is None or c.custom_id == custom_id)
        and (label is None or c.label == label or c.placeholder == label)
        and (kind is None or c.kind == kind)
    ]
    if not matches:
        available = [c for c in walk_components(components) if c.custom_id or c.label]
        raise LookupError(
            f"no component custom_id={custom_id!r} label={label!r} kind={kind!r} in {where}; "
            f"available: {available}"
        )
    if len(matches) > 1:
        raise LookupError(f"ambiguous component lookup in {where}: {matches}")
    return matches[0]


def assign_component_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every component a numeric ``id`` if it has none, as Discord does on store."""
    used = {c.raw["id"] for c in walk_components(components) if isinstance(c.raw.get("id"), int)}
    counter = itertools.count(1)
    for comp in walk_components(components):
        if "id" not in comp.raw:
            next_id = next(counter)
            while next_id in used:
                next_id = next(counter)
            comp.raw["id"] = next_id
    return components
