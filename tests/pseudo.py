"""The pseudo-locale checks (issue 33, docs/i18n.md): Croupier run in ``qps`` (accented,
40 % longer, bracketed English: :mod:`bot.i18n.pseudo`) shows no plain English, so every
word came from a catalog; a picture drawn in it keeps its text inside the picture and
apart.

Use :func:`pseudo_discord` around an end-to-end game in the fake Discord, then
:func:`assert_all_pseudo`; :func:`pictures_checked` around drawing pictures (inside
``bot.i18n.speaking("qps")``, with :func:`bot.i18n.pseudo.enable`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from bot.i18n import pseudo
from bot.i18n.pseudo import KEPT
from tests.fakediscord.model.components import walk_components

WORD = re.compile(r"[A-Za-z]{3,}")
"""English that was never taken from a catalog: three ASCII letters in a row (the
pseudo-locale has no ASCII letter in its words)."""
ALWAYS_ALLOWED = ("Croupier",)
"""Names that are no words in any language."""


def english_left(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The ASCII words of ``text`` once what is no words is taken out: code spans
    (command names stay English), mentions and timestamps, addresses, placeholders,
    emoji names, and each of ``allowed`` (players' names, notation).

    >>> english_left("⟦Ţĥé ţáƀĺé⟧ `/play` <@12> Ada", ["Ada"])
    []
    >>> english_left("⟦Ţĥé⟧ Your turn")
    ['Your', 'turn']
    """
    for known in sorted({*allowed, *ALWAYS_ALLOWED}, key=len, reverse=True):
        if known:
            text = text.replace(known, " ")
    return WORD.findall(KEPT.sub(" ", text))


def _embed_texts(embed: dict[str, Any]) -> Iterator[str]:
    for key in ("title", "description"):
        if embed.get(key):
            yield str(embed[key])
    for part in ("author", "footer"):
        if (embed.get(part) or {}).get("name" if part == "author" else "text"):
            yield str(embed[part].get("name") or embed[part].get("text"))
    for field in embed.get("fields") or []:
        yield str(field.get("name", ""))
        yield str(field.get("value", ""))


def _component_texts(components: list[dict[str, Any]]) -> Iterator[str]:
    for component in walk_components(components):
        raw = component.raw
        for key in ("label", "placeholder", "content", "title", "description"):
            if raw.get(key):
                yield str(raw[key])
        for option in raw.get("options") or []:
            yield str(option.get("label", ""))
            if option.get("description"):
                yield str(option["description"])


def shown_texts(fake: Any) -> Iterator[tuple[str, str]]:
    """Every text the fake Discord was sent to show a person, as ``(where, text)``:
    every version of every message (content, embeds, components), and every modal and
    autocomplete answer."""
    for message in [*fake.messages.values(), *fake.deleted_messages]:
        versions = [*message.history, message]
        for version in versions:
            where = f"message {message.id}"
            if version.content:
                yield where, version.content
            for embed in version.embeds:
                for text in _embed_texts(embed):
                    yield where, text
            for text in _component_texts(version.components):
                yield where, text
    for answer in fake.answers_shown:
        if answer.get("title"):
            yield "modal", str(answer["title"])
        for text in _component_texts(answer.get("components") or []):
            yield "modal", text
        for choice in answer.get("choices") or []:
            yield "autocomplete", str(choice.get("name", ""))


def assert_all_pseudo(fake: Any, allowed: Iterable[str] = ()) -> None:
    """Fail with every text that still has English in it (``allowed``: names and
    notation that are no words)."""
    allowed = tuple(allowed)
    left = [f"{where}: {text!r} → {words}" for where, text in shown_texts(fake)
            if (words := english_left(text, allowed))]
    assert left == [], "never taken from a catalog:\n" + "\n".join(left[:40])


@contextmanager
def pseudo_discord(fake: Any) -> Iterator[None]:
    """Speak the pseudo-locale everywhere: every client's locale and every server's
    preferred locale is Discord's ``qps-ploc`` (a bot already connected keeps the
    preferred locale it was told: give its server the language with
    :func:`server_speaks_pseudo`)."""
    pseudo.enable()
    before = fake.default_locale
    fake.default_locale = "qps-ploc"
    guilds = list(getattr(fake, "guilds", {}).values())
    kept = [guild.preferred_locale for guild in guilds]
    for guild in guilds:
        guild.preferred_locale = "qps-ploc"
    try:
        yield
    finally:
        fake.default_locale = before
        for guild, locale in zip(guilds, kept, strict=True):
            guild.preferred_locale = locale
        pseudo.enable(False)


async def server_speaks_pseudo(bot: Any, guild_id: int) -> None:
    """Make ``guild_id``'s channels speak the pseudo-locale (its ``/config language``,
    set in the store as the command would set a real language)."""
    await bot.store.settings.update(guild_id, language="qps")


@dataclass(frozen=True)
class Placed:
    """One text a picture drew: the words, their box, and the picture's size."""

    picture: object
    """The picture drawn on (kept, so that no later picture takes its place)."""
    text: str
    box: tuple[float, float, float, float]
    size: tuple[int, int]


SLACK = 1.0
"""Pixels a box may pass the picture's edge or another box by (antialiasing)."""


def text_problems(placed: Sequence[Placed]) -> list[str]:
    """Texts running out of their picture, and texts drawn over other texts (the same
    words drawn twice in one place, a shadow, are one text)."""
    problems = []
    for one in placed:
        left, top, right, bottom = one.box
        width, height = one.size
        if left < -SLACK or top < -SLACK or right > width + SLACK or bottom > height + SLACK:
            problems.append(f"{one.text!r} runs out of its {width}x{height} picture: {one.box}")
    by_picture: dict[int, list[Placed]] = {}
    for one in placed:
        if one.text.strip():
            by_picture.setdefault(id(one.picture), []).append(one)
    for texts in by_picture.values():
        for i, one in enumerate(texts):
            for other in texts[i + 1:]:
                if one.text != other.text and _overlap(one.box, other.box) > SLACK:
                    problems.append(f"{one.text!r} {one.box} is drawn over {other.text!r} "
                                    f"{other.box}")
    return problems


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


@contextmanager
def pictures_checked() -> Iterator[list[Placed]]:
    """Record every text a picture drawn inside draws (Pillow's ``ImageDraw.text``,
    whoever calls it); on leaving, fail when a text runs out of its picture or over
    another text (:func:`text_problems`): a language with longer words has no room."""
    placed: list[Placed] = []
    real = ImageDraw.ImageDraw.text

    def spy(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        box = self.textbbox(tuple(xy), str(text), font=kwargs.get("font"),
                            anchor=kwargs.get("anchor"),
                            stroke_width=kwargs.get("stroke_width", 0))
        placed.append(Placed(self.im, str(text), tuple(box), tuple(self.im.size)))
        return real(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = spy  # type: ignore[method-assign]
    try:
        yield placed
    finally:
        ImageDraw.ImageDraw.text = real  # type: ignore[method-assign]
    problems = text_problems(placed)
    assert problems == [], "\n".join(problems[:20])
