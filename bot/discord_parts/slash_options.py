"""A game's declared options (:mod:`rules.options`) as slash-command parameters.

``/play`` has one subcommand per game, and each subcommand's parameters come
from the game's own declaration: a whole number becomes an integer parameter
with its bounds, a choice a fixed list, yes/no a boolean. Discord itself then
refuses what the game would refuse; the game's :meth:`~rules.options.GameOptions.parse`
checks again whatever arrives.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Optional

import discord
from discord import app_commands

from bot.discord_parts.limits import CHOICES, COMMAND_DESCRIPTION
from rules.options import OptionSpec
from rules.words import clip

DESCRIPTION = COMMAND_DESCRIPTION

Callback = Callable[..., Awaitable[None]]


def _annotation(spec: OptionSpec) -> Any:
    if spec.kind == "number":
        assert spec.minimum is not None and spec.maximum is not None
        return Optional[app_commands.Range[int, spec.minimum, spec.maximum]]  # noqa: UP045
    if spec.kind == "yes/no":
        return Optional[bool]  # noqa: UP045
    return Optional[app_commands.Range[str, 1, 100]]  # noqa: UP045


def _choices(spec: OptionSpec) -> list[app_commands.Choice[str]] | None:
    if spec.kind != "choice" or len(spec.choices) > CHOICES:
        return None
    return [app_commands.Choice(name=clip(spec.label(value), DESCRIPTION), value=str(value))
            for value in spec.choices]


def parameter(spec: OptionSpec) -> inspect.Parameter:
    """One option as a keyword parameter of a command callback (default: unset)."""
    return inspect.Parameter(spec.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=_annotation(spec))


def command(name: str, description: str, specs: Sequence[OptionSpec],
            run: Callable[[discord.Interaction, dict[str, Any]], Awaitable[None]], *,
            extra: Sequence[tuple[inspect.Parameter, str]] = (),
            extra_autocomplete: Mapping[str, Callback] | None = None,
            ) -> app_commands.Command[Any, ..., None]:
    """A slash command whose parameters are ``extra`` (parameter, description)
    pairs followed by the declared options; ``run(interaction, values)``
    receives the values given (``None`` for those left out). An extra parameter
    may complete what is typed (``extra_autocomplete``: name → callback)."""
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await run(interaction, values)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    params += [param for param, _ in extra] + [parameter(spec) for spec in specs]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"{name}_command"
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        **{param.name: clip(text, DESCRIPTION) for param, text in extra},
        **{spec.name: clip(spec.description, DESCRIPTION) for spec in specs}}
    choices = {spec.name: found for spec in specs if (found := _choices(spec))}
    if choices:
        callback.__discord_app_commands_param_choices__ = choices  # type: ignore[attr-defined]
    if extra_autocomplete:
        callback.__discord_app_commands_param_autocomplete__ = dict(  # type: ignore[attr-defined]
            extra_autocomplete)
    return app_commands.Command(name=name, description=clip(description, DESCRIPTION),
                                callback=callback)
