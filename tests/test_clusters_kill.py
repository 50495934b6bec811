"""``kill -9`` of a cluster in the middle of matches, then of the one holding shard 0
with a DM click in flight (issue 31, part 3): each comes back in a new process that
takes its shards again, every match finishes, nothing acknowledged is lost and no
decision is applied twice (the log is counted against the acknowledged answers)."""

from __future__ import annotations

import asyncio

from tests.clusterplay import Answer, Table, open_table, parts_of, recorded, whole_log_checked
from tests.clusters import Clusters, clusters_fixture

SEED = 20261122


clusters = clusters_fixture(seed=SEED)


async def answer_if_offered(table: Table) -> bool:
    """One answer from a menu, if a person is asked now and has the menu for it
    (without waiting for either); whether one was given."""
    seen = await table.read()
    found = table.waiting(seen)
    if found is None or seen.over:
        return False
    seat, decision = found
    choice = table.choice_for(seen, seat)
    wanted = parts_of(decision, choice)
    offer = table.offered(table.people[seat], seen.state.step, choice, wanted)
    if offer is None or offer.kind == "typed":
        return False
    return await table.answer(seen, seat, decision, choice) is not None


async def click_and_kill(clusters: Clusters, table: Table, index: int) -> None:
    """A person's answer from their DM menu, and cluster ``index`` killed the moment it
    is on its way: it may have been stored, or not, but never twice, and if it was
    acknowledged it was stored."""
    for _ in range(10):  # until the person is asked and has the menu (the match moves)
        seen, seat, decision = await table.asked()
        choice = table.choice_for(seen, seat)
        wanted = parts_of(decision, choice)
        user = table.people[seat]
        offer = await table.offer_or_move(seen, user, choice, wanted)
        if offer is not None and offer.kind != "typed":
            break
    assert offer is not None and offer.message.channel.is_dm, offer
    result, how = await table.give(user, offer, choice, wanted, wait=False)
    await clusters.kill(index)
    made = Answer(str(result.interaction.id), how, seen.state.step, seat, choice)
    if result.acked and await recorded(result):
        table.answers.append(made)
        await table.logged(made)
    else:
        table.unsure.add(made.interaction_id)


async def test_killed_clusters_come_back_and_every_match_finishes(clusters: Clusters) -> None:
    fake = clusters.fake
    home = clusters.guild_of(0, "Home", channels=("flank",))
    one = clusters.guild_of(1, "One", channels=("eclipse",))
    two = clusters.guild_of(2, "Two", channels=("nails",))
    ada, bo, cy, di = (fake.add_user(name) for name in ("Ada", "Bo", "Cy", "Di"))
    await clusters.start()
    eclipse = await open_table(clusters, one.channel("eclipse"), {0: ada}, "eclipse", seed=1,
                               seats=2, hand_cap=10)
    nails = await open_table(clusters, two.channel("nails"), {0: bo}, "nails", seed=2)
    flank = await open_table(clusters, home.channel("flank"), {0: cy, 1: di}, "flank",
                             seed=3, board="4")
    tables = (eclipse, nails, flank)

    # Cluster 1 dies just after acknowledging a choice typed in its guild: whatever it
    # did next (the computer's answer, the table's edit, the DMs) dies with it.
    eclipse.route = "typed"
    await asyncio.gather(eclipse.play(answers=3), nails.play(answers=2), flank.play(answers=2))
    await clusters.kill(1)
    # The others go on; Ada's DMs reach cluster 0, which serves her match if she has a
    # menu to answer from.
    eclipse.route = "private"
    await asyncio.gather(nails.play(answers=2), flank.play(answers=2), answer_if_offered(eclipse))
    await clusters.restart(1)
    eclipse.route = "any"
    await asyncio.gather(eclipse.play(answers=2), nails.play(answers=1))

    # Cluster 0, which holds shard 0 and so every DM, dies with Ada's DM click on its way.
    await click_and_kill(clusters, eclipse, 0)
    # Without shard 0 no DM reaches the bot, but typed choices reach their guild's cluster.
    nails.route = "typed"
    await nails.play(answers=2)
    await clusters.restart(0)
    nails.route = "any"

    ends = await asyncio.gather(*(table.play() for table in tables))
    for table, seen in zip(tables, ends, strict=True):
        await whole_log_checked(table, seen)
        await fake.wait_for_message(table.channel, contains="is over", timeout=10)
    await fake.wait_until_idle(quiet=0.3)
    for table in tables:
        assert len([m for m in table.channel.messages if "is over" in m.text]) == 1
    assert [c.starts for c in clusters.clusters] == [2, 2, 1]
