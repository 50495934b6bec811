"""Eclipse in words for a seat that is out: its DM and the local table's view say so,
and show no hand (issue 28: a player just knocked out was told "You draw ☀6♀⚙" and
then "Your hand: no symbol cards")."""

from __future__ import annotations

from bot.games import presenter_for
from bot.i18n import say, speaking
from bot.matches.live import LiveMatch
from rules.eclipse import GAME as ECLIPSE
from rules.eclipse import EclipseState
from storage.models import MatchRow, SeatRow

NAMES = ("Ada", "Bo")


def _knocked_out() -> LiveMatch:
    """Bo loses a hand with the safe set complete, and is out."""
    state = EclipseState.position(["S13m S2f", "M10f M7m"], safe="S1f S3f S5f M1f M3f M5f",
                                  options=ECLIPSE.options.parse({}))
    state.apply(0, "S13m")
    state.apply(1, "M10f")
    state.apply(0, "new")
    assert state.out[1]
    row = MatchRow(id=7, game="eclipse", options=ECLIPSE.options.parse({}).stored(), seed=0,
                   guild_id=1, channel_id=7, host_id=1, max_seats=2, status="active",
                   seats=[SeatRow(seat=i, user_id=i + 1, name=NAMES[i], is_bot=False)
                          for i in range(2)])
    return LiveMatch(row=row, info=ECLIPSE, state=state)


def test_the_dm_of_a_seat_that_is_out_says_so_and_shows_no_hand():
    match = _knocked_out()
    text = presenter_for("eclipse").private_text(match, match.private_view(1))
    assert text.startswith("You are out of the game. The game is over.")
    assert "Your hand" not in text and "no symbol cards" not in text
    winner = presenter_for("eclipse").private_text(match, match.private_view(0))
    assert "Your hand" in winner and "out of the game" not in winner
    with speaking("pt-BR"):
        text = presenter_for("eclipse").private_text(match, match.private_view(1))
    assert text.startswith("Você está fora do jogo. O jogo acabou.")


def test_the_local_view_of_a_seat_that_is_out_says_so():
    match = _knocked_out()
    text = say(ECLIPSE.text(match.state.observe(1), NAMES), "en")
    assert text.splitlines()[-1] == "You are out of the game."
    assert "Your hand" in say(ECLIPSE.text(match.state.observe(0), NAMES), "en")
    # The local table shows the same words, in the language it speaks.
    with speaking("pt_BR"):
        local = presenter_for("eclipse").terminal(match.state.observe(1), NAMES)
    assert str(local).splitlines()[-1] == "Você está fora do jogo."


def test_the_rules_fit_a_discord_message_in_every_language() -> None:
    """``/rules eclipse`` stays under 4,000 characters in English and in Portuguese,
    with the longest numbers its options take, and says them in each."""
    for options, seats in (({}, None), ({"counterattack": 12, "hand_cap": 10_000}, 6),
                           ({"counterattack": 0}, 2)):
        paragraphs = ECLIPSE.rules_for(options, seats)
        for locale in ("en", "pt_BR"):
            text = "\n\n".join(say(paragraph, locale) for paragraph in paragraphs)
            assert len(text) < 4000, (locale, len(text))
    english = [say(p, "en") for p in ECLIPSE.rules_for({"hand_cap": 30, "counterattack": 2}, 4)]
    assert english[0].startswith("**Eclipse** — 4 players; eliminate everyone else.")
    assert "move exactly 2 of them" in english[7] and "After 30 hands" in english[8]
    portuguese = [say(p, "pt_BR") for p in ECLIPSE.rules_for({"hand_cap": 30}, 4)]
    assert portuguese[0].startswith("**Eclipse** — 4 jogadores; elimine todo mundo.")
    assert "Depois de 30 rodadas" in portuguese[8] and "cofre" in portuguese[5]
