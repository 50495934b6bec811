"""Every game's options, declared once: read strictly from text, refused by name,
described for every surface."""

from __future__ import annotations

import pytest

from bot.i18n import say
from rules.errors import SHOWN, BadOptions
from rules.options import OptionSpec
from rules.registry import games

SPECS = [(info, spec) for info in games().values() for spec in info.options.specs()]
NUMBERS = [(info, spec) for info, spec in SPECS if spec.kind == "number"]
CHOICES = [(info, spec) for info, spec in SPECS if spec.kind == "choice"]
NOT_NUMBERS = ["²", "４", "٣", "-1", "+3", "1 0", "1_000", "0x10", "1e3", "9" * 5000,
               "{0}", "", "3.0"]


def _id(pair: tuple[object, OptionSpec]) -> str:
    info, spec = pair
    return f"{info.name}.{spec.name}"  # type: ignore[attr-defined]


@pytest.mark.parametrize("pair", NUMBERS, ids=_id)
@pytest.mark.parametrize("text", NOT_NUMBERS, ids=repr)
def test_a_number_is_ascii_digits_only(pair, text):
    info, spec = pair
    if spec.optional and not text:
        assert getattr(info.options.parse({spec.name: text}), spec.name) is not None
        return  # left empty: the game decides
    with pytest.raises(BadOptions) as refused:
        info.options.parse({spec.name: text})
    for locale in ("en", "pt_BR"):
        message = say(refused.value.text, locale)
        assert spec.name in message and len(message) < 200
        if text.strip():
            assert repr(text)[:10] in message


@pytest.mark.parametrize("pair", NUMBERS, ids=_id)
def test_a_number_outside_its_bounds_is_refused_with_them(pair):
    info, spec = pair
    with pytest.raises(BadOptions) as refused:
        info.options.parse({spec.name: str(spec.maximum + 1)})
    assert f"from {spec.minimum} to {spec.maximum}" in say(refused.value.text, "en")
    assert f"de {spec.minimum} a {spec.maximum}" in say(refused.value.text, "pt_BR")


@pytest.mark.parametrize("pair", NUMBERS, ids=_id)
def test_a_number_in_its_bounds_is_read_however_many_zeros_lead_it(pair):
    """Only the digits that count are held against the length cap: twenty zeros and
    the default is the default, never refused as out of range."""
    info, spec = pair
    usual = spec.minimum if spec.default is None else spec.default
    typed = "0" * 20 + str(usual)
    assert getattr(info.options.parse({spec.name: typed}), spec.name) == usual


@pytest.mark.parametrize("pair", CHOICES, ids=_id)
def test_a_choice_is_one_of_its_values(pair):
    info, spec = pair
    for value in spec.choices:
        assert getattr(info.options.parse({spec.name: str(spec.label(value)).upper()}),
                       spec.name) == value
    with pytest.raises(BadOptions, match=spec.name):
        info.options.parse({spec.name: "nonsense{s0}"})


@pytest.mark.parametrize("info", games().values(), ids=lambda i: i.name)
def test_unknown_names_are_refused_shortly_and_stored_options_read_back(info):
    with pytest.raises(BadOptions) as refused:
        info.options.parse({"x" * 10_000: "1"})
    assert len(say(refused.value.text, "en")) < SHOWN + 200
    defaults = info.options.parse({})
    assert info.options.parse(defaults.stored()) == defaults
    assert info.options.parse(defaults) is defaults


@pytest.mark.parametrize("pair", SPECS, ids=_id)
def test_every_option_is_described_within_discord_s_limit(pair):
    _, spec = pair
    assert 10 <= len(spec.description) <= 100
    assert spec.name == spec.name.lower() and len(spec.name) <= 32
    assert spec.describe().startswith(f"{spec.name}: ")
