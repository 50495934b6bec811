"""Two clicks on one match at the same moment, reaching two processes (issue 31,
part 3): Ada answers the same decision from her DM (a DM interaction: cluster 0) and
from the table's "My hand" view (an interaction of the match's guild: cluster 1), each
menu made for the same step. One is recorded, the other is told so in words, and the
log holds one choice for the step."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.clusterplay import (
    Answer,
    Table,
    components,
    made_for,
    offers,
    open_table,
    parts_of,
    recorded,
    whole_log_checked,
)
from tests.clusters import Clusters, clusters_fixture
from tests.e2e import table_message
from tests.fakediscord import FakeMessage

SEED = 20261123
RACES = 6


clusters = clusters_fixture(count=2, seed=SEED)


def menu_of(message: FakeMessage, match_id: int, step: int,
            wanted: tuple[str, ...]) -> dict[str, Any] | None:
    """The menu of ``message`` made for ``step`` that offers ``wanted``."""
    for component in components(message):
        if component.get("type") == 3 and made_for(component, match_id, step) \
                and offers(component, wanted):
            return component
    return None


async def race(table: Table) -> tuple[str, str] | None:
    """Ada's current decision answered at once from her DM and from "My hand", with two
    different options when she has two; how each click was answered (``recorded`` or
    ``told``), DM first; ``None`` if the match moved before both menus were there."""
    fake = table.fake
    seen, seat, decision = await table.asked()
    step = seen.state.step
    ada = table.people[seat]
    choice = table.choice_for(seen, seat)
    other = next((o for o in decision.options if o != choice and decision.pick == "one"), choice)
    in_dm = await table.offer_or_move(seen, ada, choice, parts_of(decision, choice))
    if in_dm is None or in_dm.kind != "menu" or not in_dm.message.channel.is_dm:
        return None
    mine = await fake.click(ada, table_message(table.channel), label="My hand")
    assert mine.ephemeral and mine.message is not None, mine
    in_hand = menu_of(mine.message, table.match_id, step, (other,))
    if in_hand is None:
        return None
    clicks = await asyncio.gather(
        fake.select(ada, in_dm.message, in_dm.component["custom_id"], [choice], wait=False),
        fake.select(ada, mine.message, in_hand["custom_id"], [other], wait=False))
    said = []
    for result, picked, how in zip(clicks, (choice, other), ("dm", "hand"), strict=True):
        await result.acknowledged(10)
        made = Answer(str(result.interaction.id), how, step, seat, picked)
        if await recorded(result):
            table.answers.append(made)
            await table.logged(made)
            said.append("recorded")
        else:
            assert result.text.startswith("⚠️"), result.text
            assert result.ephemeral or (result.message is not None and \
                result.message.channel.is_dm), result
            table.refused.append(made)
            said.append("told")
    log = await table.store.matches.choices(table.match_id)
    assert len([c for c in log if (c.step, c.seat) == (step, seat)]) == 1
    return said[0], said[1]


async def test_two_clicks_at_once_in_two_processes_one_wins(clusters: Clusters) -> None:
    fake = clusters.fake
    guild = clusters.guild_of(1, "One", channels=("eclipse",))
    ada = fake.add_user("Ada")
    await clusters.start()
    table = await open_table(clusters, guild.channel("eclipse"), {0: ada}, "eclipse",
                             seats=2, hand_cap=10)
    outcomes = []
    for _ in range(40):
        raced = await race(table)
        if raced is None:  # no two menus for this decision: answered as usual
            await table.play(answers=1)
            continue
        outcomes.append(raced)
        if len(outcomes) == RACES:
            break
    # Each time exactly one of the two was recorded, the other told.
    assert len(outcomes) == RACES
    assert all(sorted(o) == ["recorded", "told"] for o in outcomes), outcomes
    await whole_log_checked(table, await table.play())
    assert len(table.refused) >= RACES
