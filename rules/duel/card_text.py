"""A card's rules text as phrases (issue 33): written from the card's data, as
:meth:`~rules.duel.cards.CardDef.text` writes it in English, but as catalog keys and
arguments (:class:`~rules.phrases.Phrase`), so each language words it its own way (the
``cards`` domain; ``bot.i18n.cards.card_text`` makes the words).

Each target, subject and colour has its own key in each grammatical place (a subject
starts its sentence, an object follows a verb, ``to`` carries its preposition), so a
translation can agree in gender and contract ``a`` + ``a`` into ``à`` without the code
knowing either.

>>> from rules.duel.cards import card
>>> [str(line) for line in card_text(card("Kindlewhip"))]
['cards.rules.damage(amount=2, to=Phrase(cards.to.any()))']
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.duel.cards import Ability, CardDef, Effect, Static
from rules.phrases import Phrase

OBJECT = {
    "any": Phrase("cards.target.any"), "player": Phrase("cards.target.player"),
    "opponent": Phrase("cards.target.opponent"), "you": Phrase("cards.target.you"),
    "self": Phrase("cards.target.self"), "spell": Phrase("cards.target.spell"),
    "each player": Phrase("cards.target.each_player"),
    "each opponent": Phrase("cards.target.each_opponent"),
    "artifact": Phrase("cards.target.artifact"),
    "enchantment": Phrase("cards.target.enchantment"), "land": Phrase("cards.target.land"),
    "permanent": Phrase("cards.target.permanent"),
}
SUBJECT = {
    "any": Phrase("cards.subject.any"), "player": Phrase("cards.subject.player"),
    "opponent": Phrase("cards.subject.opponent"), "you": Phrase("cards.subject.you"),
    "self": Phrase("cards.subject.self"), "spell": Phrase("cards.subject.spell"),
    "each player": Phrase("cards.subject.each_player"),
    "each opponent": Phrase("cards.subject.each_opponent"),
    "artifact": Phrase("cards.subject.artifact"),
    "enchantment": Phrase("cards.subject.enchantment"), "land": Phrase("cards.subject.land"),
    "permanent": Phrase("cards.subject.permanent"),
}
TO = {
    "any": Phrase("cards.to.any"), "player": Phrase("cards.to.player"),
    "opponent": Phrase("cards.to.opponent"), "you": Phrase("cards.to.you"),
    "self": Phrase("cards.to.self"), "spell": Phrase("cards.to.spell"),
    "each player": Phrase("cards.to.each_player"),
    "each opponent": Phrase("cards.to.each_opponent"),
    "artifact": Phrase("cards.to.artifact"),
    "enchantment": Phrase("cards.to.enchantment"), "land": Phrase("cards.to.land"),
    "permanent": Phrase("cards.to.permanent"),
}
"""The targets that name no creature, in each place of a sentence."""


def _creature_targets(creature: Phrase) -> dict[str, dict[str, Phrase]]:
    """The targets that name a creature (``creature``: its words, with its colour and
    keyword), in each place of a sentence."""
    return {
        "creature": {"object": Phrase("cards.target.creature", creature=creature),
                     "subject": Phrase("cards.subject.creature", creature=creature),
                     "to": Phrase("cards.to.creature", creature=creature)},
        "attacking creature": {
            "object": Phrase("cards.target.attacking_creature", creature=creature),
            "subject": Phrase("cards.subject.attacking_creature", creature=creature),
            "to": Phrase("cards.to.attacking_creature", creature=creature)},
        "blocking creature": {
            "object": Phrase("cards.target.blocking_creature", creature=creature),
            "subject": Phrase("cards.subject.blocking_creature", creature=creature),
            "to": Phrase("cards.to.blocking_creature", creature=creature)},
        "each creature": {
            "object": Phrase("cards.target.each_creature", creature=creature),
            "subject": Phrase("cards.subject.each_creature", creature=creature),
            "to": Phrase("cards.to.each_creature", creature=creature)},
        "each other creature": {
            "object": Phrase("cards.target.each_other_creature", creature=creature),
            "subject": Phrase("cards.subject.each_other_creature", creature=creature),
            "to": Phrase("cards.to.each_other_creature", creature=creature)},
        "each opponent creature": {
            "object": Phrase("cards.target.each_opponent_creature", creature=creature),
            "subject": Phrase("cards.subject.each_opponent_creature", creature=creature),
            "to": Phrase("cards.to.each_opponent_creature", creature=creature)},
        "your creatures": {
            "object": Phrase("cards.target.your_creatures", creature=creature),
            "subject": Phrase("cards.subject.your_creatures", creature=creature),
            "to": Phrase("cards.to.your_creatures", creature=creature)},
    }


ENCHANTED = {
    "creature": {"object": Phrase("cards.target.enchanted_creature"),
                 "subject": Phrase("cards.subject.enchanted_creature"),
                 "to": Phrase("cards.to.enchanted_creature"),
                 "static": Phrase("cards.static.enchanted_creature")},
    "artifact": {"object": Phrase("cards.target.enchanted_artifact"),
                 "subject": Phrase("cards.subject.enchanted_artifact"),
                 "to": Phrase("cards.to.enchanted_artifact"),
                 "static": Phrase("cards.static.enchanted_artifact")},
    "land": {"object": Phrase("cards.target.enchanted_land"),
             "subject": Phrase("cards.subject.enchanted_land"),
             "to": Phrase("cards.to.enchanted_land"),
             "static": Phrase("cards.static.enchanted_land")},
    "enchantment": {"object": Phrase("cards.target.enchanted_enchantment"),
                    "subject": Phrase("cards.subject.enchanted_enchantment"),
                    "to": Phrase("cards.to.enchanted_enchantment"),
                    "static": Phrase("cards.static.enchanted_enchantment")},
    "permanent": {"object": Phrase("cards.target.enchanted_permanent"),
                  "subject": Phrase("cards.subject.enchanted_permanent"),
                  "to": Phrase("cards.to.enchanted_permanent"),
                  "static": Phrase("cards.static.enchanted_permanent")},
}
"""What an aura enchants, in each place of a sentence (``static``: as the subject of
an aura's always-on effect, "Enchanted creature gets +1/+1")."""

COLOUR = {"W": Phrase("cards.colour.W"), "U": Phrase("cards.colour.U"),
          "B": Phrase("cards.colour.B"), "R": Phrase("cards.colour.R"),
          "G": Phrase("cards.colour.G")}
"""A colour as a noun: protection from it, mana of it."""
COLOUR_OF = {"W": Phrase("cards.colour.W.adjective"), "U": Phrase("cards.colour.U.adjective"),
             "B": Phrase("cards.colour.B.adjective"), "R": Phrase("cards.colour.R.adjective"),
             "G": Phrase("cards.colour.G.adjective")}
"""A colour describing a creature, a spell or a card ("becomes black")."""
COLOUR_OF_PERMANENT = {"W": Phrase("cards.colour.W.permanent"),
                       "U": Phrase("cards.colour.U.permanent"),
                       "B": Phrase("cards.colour.B.permanent"),
                       "R": Phrase("cards.colour.R.permanent"),
                       "G": Phrase("cards.colour.G.permanent")}
"""A colour describing a permanent (a language may say it otherwise than of a card)."""

KEYWORD = {"flying": Phrase("cards.keyword.flying"),
           "first strike": Phrase("cards.keyword.first_strike"),
           "trample": Phrase("cards.keyword.trample"),
           "banding": Phrase("cards.keyword.banding"),
           "landwalk:plains": Phrase("cards.keyword.plainswalk"),
           "landwalk:island": Phrase("cards.keyword.islandwalk"),
           "landwalk:swamp": Phrase("cards.keyword.swampwalk"),
           "landwalk:mountain": Phrase("cards.keyword.mountainwalk"),
           "landwalk:forest": Phrase("cards.keyword.forestwalk")}
KEYWORD_FIRST = {"flying": Phrase("cards.keyword.flying.first"),
                 "first strike": Phrase("cards.keyword.first_strike.first"),
                 "trample": Phrase("cards.keyword.trample.first"),
                 "banding": Phrase("cards.keyword.banding.first"),
                 "landwalk:plains": Phrase("cards.keyword.plainswalk.first"),
                 "landwalk:island": Phrase("cards.keyword.islandwalk.first"),
                 "landwalk:swamp": Phrase("cards.keyword.swampwalk.first"),
                 "landwalk:mountain": Phrase("cards.keyword.mountainwalk.first"),
                 "landwalk:forest": Phrase("cards.keyword.forestwalk.first")}
"""Keywords as they start a sentence (a creature's keyword line)."""

FIND = {"land": Phrase("cards.find.land"), "creature": Phrase("cards.find.creature"),
        "artifact": Phrase("cards.find.artifact"),
        "artifact creature": Phrase("cards.find.artifact_creature"),
        "enchantment": Phrase("cards.find.enchantment"),
        "enchant creature": Phrase("cards.find.enchant_creature"),
        "enchant artifact": Phrase("cards.find.enchant_artifact"),
        "enchant land": Phrase("cards.find.enchant_land"),
        "enchant enchantment": Phrase("cards.find.enchant_enchantment"),
        "sorcery": Phrase("cards.find.sorcery"), "instant": Phrase("cards.find.instant"),
        "interrupt": Phrase("cards.find.interrupt")}
"""What a search finds: a card of a type, with its article."""


CHOSEN_NOUNS = frozenset({"creature", "attacking creature", "blocking creature", "artifact",
                          "enchantment", "land", "permanent"})
"""Targets chosen by kind of permanent: a keyword they must have follows the target
("target creature with flying"); on every creature it is part of the creature's words."""


def keyword_phrase(keyword: str, first: bool = False) -> Phrase:
    """A keyword as rules text says it (``first``: starting a sentence).

    >>> str(keyword_phrase("protection:B"))
    'cards.keyword.protection(colour=Phrase(cards.colour.B()))'
    """
    if keyword.startswith("protection:"):
        colour = COLOUR[keyword.split(":", 1)[1]]
        if first:
            return Phrase("cards.keyword.protection.first", colour=colour)
        return Phrase("cards.keyword.protection", colour=colour)
    return (KEYWORD_FIRST if first else KEYWORD)[keyword]


def _joined(parts: Sequence[Phrase | str], last: str = "and") -> Phrase | str:
    """``a``, ``a and b``, ``a, b and c`` (``last``: ``or``) as phrases."""
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        if last == "or":
            return Phrase("cards.rules.or", first=parts[0], last=parts[1])
        return Phrase("cards.rules.and", first=parts[0], last=parts[1])
    return Phrase("cards.rules.list", first=parts[0], rest=_joined(parts[1:], last))


def _sentences(parts: Sequence[Phrase]) -> Phrase:
    """Sentences one after the other."""
    if len(parts) == 1:
        return parts[0]
    return Phrase("cards.rules.sentences", first=parts[0], rest=_sentences(parts[1:]))


def _creature(colour: str | None, keyword: str | None) -> Phrase:
    words = Phrase("cards.creature") if colour is None else Phrase(
        "cards.creature.coloured", colour=COLOUR_OF[colour])
    if keyword is not None:
        words = Phrase("cards.creature.with", creature=words, keyword=keyword_phrase(keyword))
    return words


def target_phrase(effect: Effect, place: str, enchants: str | None = None) -> Phrase:
    """What ``effect`` acts on, as the ``place`` of its sentence needs it (``object``,
    ``subject`` or ``to``)."""
    if effect.target == "enchanted":
        return ENCHANTED[enchants or "permanent"][place]
    colour = effect.colour if effect.do not in {"add mana", "recolour"} else None
    keyword = effect.keyword if effect.do != "grant" else None
    chosen = effect.target in CHOSEN_NOUNS
    creatures = _creature_targets(_creature(colour, None if chosen else keyword))
    if effect.target in creatures:
        words = creatures[effect.target][place]
    else:
        words = {"object": OBJECT, "subject": SUBJECT, "to": TO}[place][effect.target]
    if keyword is not None and chosen:
        words = Phrase("cards.target.with", target=words, keyword=keyword_phrase(keyword))
    return words


def _change(power: int, toughness: int) -> str:
    return f"{power:+d}/{toughness:+d}"


def _some_cards(amount: int | str) -> Phrase:
    if amount == 1:
        return Phrase("cards.rules.a_card")
    return Phrase("cards.rules.some_cards", amount=amount)


def effect_phrase(effect: Effect, enchants: str | None = None) -> Phrase:
    """One effect as a sentence of rules text (``enchants``: what its aura enchants)."""
    amount = effect.amount
    you = effect.target == "you"
    match effect.do:
        case "damage":
            return Phrase("cards.rules.damage", amount=amount,
                          to=target_phrase(effect, "to", enchants))
        case "gain life" | "lose life" | "draw" | "discard" if you:
            return _yours(effect)
        case "gain life":
            return Phrase("cards.rules.gain_life", amount=amount,
                          who=target_phrase(effect, "subject", enchants))
        case "lose life":
            return Phrase("cards.rules.lose_life", amount=amount,
                          who=target_phrase(effect, "subject", enchants))
        case "draw":
            return Phrase("cards.rules.draw", cards=_some_cards(amount),
                          who=target_phrase(effect, "subject", enchants))
        case "discard":
            return Phrase("cards.rules.discard", cards=_some_cards(amount),
                          who=target_phrase(effect, "subject", enchants))
        case "destroy":
            return Phrase("cards.rules.destroy", what=target_phrase(effect, "object", enchants))
        case "counter":
            if effect.colour:
                return Phrase("cards.rules.counter.colour", colour=COLOUR_OF[effect.colour])
            return Phrase("cards.rules.counter")
        case "pump":
            return Phrase("cards.rules.pump", change=_change(effect.power, effect.toughness),
                          who=target_phrase(effect, "subject", enchants))
        case "tap":
            return Phrase("cards.rules.tap", what=target_phrase(effect, "object", enchants))
        case "untap":
            return Phrase("cards.rules.untap", what=target_phrase(effect, "object", enchants))
        case "add mana":
            colour = COLOUR[effect.colour or "W"]
            if amount == 1:
                return Phrase("cards.rules.add_mana", colour=colour)
            return Phrase("cards.rules.add_mana.times", colour=colour, amount=amount)
        case "grant":
            return Phrase("cards.rules.grant", keyword=keyword_phrase(effect.keyword or ""),
                          who=target_phrase(effect, "subject", enchants))
        case "prevent":
            to = target_phrase(effect, "to", enchants)
            if isinstance(amount, int):
                return Phrase("cards.rules.prevent", count=amount, to=to)
            return Phrase("cards.rules.prevent.x", to=to)
        case "regenerate":
            return Phrase("cards.rules.regenerate",
                          what=target_phrase(effect, "object", enchants))
        case "bounce":
            return Phrase("cards.rules.bounce", what=target_phrase(effect, "object", enchants))
        case "search":
            return Phrase("cards.rules.search", card=FIND[effect.find or "land"])
        case "recolour":
            permanent = effect.target == "permanent" or (
                effect.target == "enchanted" and (enchants or "permanent") == "permanent")
            colours = COLOUR_OF_PERMANENT if permanent else COLOUR_OF
            return Phrase("cards.rules.recolour", colour=colours[effect.colour or "W"],
                          who=target_phrase(effect, "subject", enchants))
    raise AssertionError(effect.do)  # pragma: no cover - every kind is matched


def _yours(effect: Effect) -> Phrase:
    """An effect on you: English says "you gain", not "you gains"."""
    amount = effect.amount
    match effect.do:
        case "gain life":
            return Phrase("cards.rules.gain_life.you", amount=amount)
        case "lose life":
            return Phrase("cards.rules.lose_life.you", amount=amount)
        case "draw":
            return Phrase("cards.rules.draw.you", cards=_some_cards(amount))
    return Phrase("cards.rules.discard.you", cards=_some_cards(amount))


def _effects(effects: Sequence[Effect], enchants: str | None = None) -> Phrase:
    return _sentences([effect_phrase(e, enchants) for e in effects])


def ability_phrase(ability: Ability) -> Phrase:
    """An activated ability, ``cost: effects``, as printed."""
    parts: list[Phrase | str] = [Phrase("cards.cost.tap")] if ability.taps else []
    if ability.mana.mana_value:
        parts.append(str(ability.mana))
    if ability.life:
        parts.append(Phrase("cards.cost.pay_life", life=ability.life) if parts
                     else Phrase("cards.cost.pay_life.first", life=ability.life))
    if ability.sacrifice:
        parts.append(Phrase("cards.cost.sacrifice") if parts
                     else Phrase("cards.cost.sacrifice.first"))
    cost = _comma(parts) if parts else Phrase("cards.cost.free")
    return Phrase("cards.rules.ability", cost=cost, effects=_effects(ability.effects))


def _comma(parts: Sequence[Phrase | str]) -> Phrase | str:
    if len(parts) == 1:
        return parts[0]
    return Phrase("cards.cost.parts", first=parts[0], rest=_comma(parts[1:]))


def static_phrase(static: Static, enchants: str | None = None) -> Phrase:
    """An always-on effect as rules text (``enchants``: what its aura enchants)."""
    creature = _creature(static.colour, static.keyword)
    who = {
        "enchanted": ENCHANTED[enchants or "permanent"]["static"],
        "self": SUBJECT["self"],
        "each creature": Phrase("cards.subject.each_creature", creature=creature),
        "your creatures": Phrase("cards.subject.your_creatures", creature=creature),
        "each opponent creature": Phrase("cards.subject.each_opponent_creature",
                                         creature=creature),
    }[static.applies]
    parts: list[Phrase | str] = []
    if static.power or static.toughness:
        parts.append(Phrase("cards.static.gets", change=_change(static.power, static.toughness)))
    if static.keywords:
        parts.append(Phrase("cards.static.has", keywords=_joined(
            [keyword_phrase(k) for k in static.keywords])))
    if static.no_untap:
        parts.append(Phrase("cards.static.no_untap"))
    if static.cant_attack:
        parts.append(Phrase("cards.static.cant_attack"))
    if static.cant_block:
        parts.append(Phrase("cards.static.cant_block"))
    if static.extra_mana:
        parts.append(Phrase("cards.static.extra_mana", amount=static.extra_mana))
    return Phrase("cards.rules.static", who=who, does=_joined(parts))


def card_text(data: CardDef) -> tuple[Phrase, ...]:
    """The card's rules text, one phrase a line, written from its data (in English it
    reads exactly as :meth:`~rules.duel.cards.CardDef.text`)."""
    lines: list[Phrase] = []
    if data.keywords:
        first, *rest = data.keywords
        lines.append(Phrase("cards.rules.keywords", keywords=_joined(
            [keyword_phrase(first, first=True), *(keyword_phrase(k) for k in rest)])))
    if data.type == "land" and data.produces:
        lines.append(Phrase("cards.rules.land_mana", colours=_joined(
            [COLOUR[c] for c in data.produces], last="or")))
    enchants = data.enchants
    if data.spell:
        lines.append(_effects(data.spell, enchants))
    if data.enters:
        lines.append(Phrase("cards.rules.enters", effects=_effects(data.enters, enchants)))
    if data.upkeep:
        lines.append(Phrase("cards.rules.upkeep", effects=_effects(data.upkeep, enchants)))
    lines += [ability_phrase(a) for a in data.abilities]
    lines += [static_phrase(s, enchants) for s in data.statics]
    lines += [Phrase("cards.rules.enhance", mana=colour, change=_change(power, toughness))
              for colour, power, toughness in data.enhance]
    return tuple(lines)
