"""A cluster frozen with ``SIGSTOP`` while it holds work, its database connections cut
with ``pg_terminate_backend`` (issue 31, part 3): another process takes the work up
and the match goes on; the frozen one, resumed, changes nothing it no longer owns, and
serves its guild again.

The work held is a deadline. Ada plays by typing in the match's guild, so only its
cluster (1) has the match in hand; frozen while Ada thinks, it cannot expire her
decision when its time is up. Cluster 0 takes the overdue match up from the database
(``bot.matches.deadlines``) and the computer chooses for her; Ada then plays on from
her DMs, which cluster 0 serves."""

from __future__ import annotations

import asyncio

from tests import clusterchild
from tests.clusterplay import Seen, Table, open_table, whole_log_checked
from tests.clusters import Clusters, clusters_fixture
from tests.e2e import table_message

SEED = 20261124
TURN_SECONDS = 10
"""The shortest deadline a server may set: how long a frozen process keeps its work."""
SCAN_SECONDS = 0.5
TAKEN_UP = TURN_SECONDS + 4 * SCAN_SECONDS + 3
"""Longest until another process takes up the frozen one's match (its deadline, the
scans, a loaded machine)."""
AWAKE_SECONDS = 1.0
"""How long the resumed process is watched changing nothing."""


clusters = clusters_fixture(count=2, seed=SEED, env={
    "CROUPIER_TURN_SECONDS": str(TURN_SECONDS), clusterchild.SCAN: str(SCAN_SECONDS)})


def computer_owed(seen: Seen) -> bool:
    """Whether a computer seat must still move at this step."""
    return not seen.over and any(seen.row.seats[d.seat].computer_plays
                                 for d in seen.state.pending())


async def only_ada_asked(table: Table) -> Seen:
    """The match once Ada alone is asked, and the table shows that step."""
    seen, _, _ = await table.asked()
    while computer_owed(seen):
        await table.moved(len(seen.log))
        seen, _, _ = await table.asked()
    step = f"step {seen.state.step}"
    await table.fake.wait_for(lambda: step in table_message(table.channel).text,
                              description=f"the table at {step}", fail_on_bot_error=False)
    return seen


async def test_a_frozen_cluster_s_work_is_taken_up_and_it_changes_nothing(
        clusters: Clusters) -> None:
    fake = clusters.fake
    guild = clusters.guild_of(1, "One", channels=("eclipse",))
    ada = fake.add_user("Ada")
    await clusters.start()
    table = await open_table(clusters, guild.channel("eclipse"), {0: ada}, "eclipse",
                             seats=2, hand_cap=10)
    table.route = "typed"  # to cluster 1 alone
    await table.play(answers=2)
    asked = await only_ada_asked(table)
    clusters.freeze(1)
    # Whatever it holds in the database (a transaction, a row's lock) is let go.
    assert await clusters.cut_connections(1) >= 1
    expired = await table.moved(len(asked.log), timeout=TAKEN_UP)
    late = expired.log[len(asked.log)]
    assert (late.seat, late.source, late.step) == (0, "auto", asked.state.step), late

    # Ada plays on from her DMs (cluster 0) while cluster 1 sleeps.
    table.route = "private"
    await table.play(answers=2)
    await only_ada_asked(table)
    await fake.wait_until_idle(quiet=0.3)  # cluster 0 is done with the step
    seen = await table.read()
    shown = table_message(table.channel).text
    clusters.thaw(1)
    await asyncio.sleep(AWAKE_SECONDS)  # what is tested: it wakes and stays out of the way
    awake = await table.read()
    assert awake.log == seen.log and awake.row.version == seen.row.version
    assert table_message(table.channel).text == shown

    # Resumed, its connections gone, it serves its guild again: Ada concedes there.
    conceded = await fake.slash(ada, table.channel, "forfeit", timeout=10)
    assert "forfeits" in conceded.content, conceded.content
    ended = await table.moved(len(awake.log))
    await whole_log_checked(table, ended)
    await fake.wait_for_message(table.channel, contains="is over", timeout=10)
    await fake.wait_until_idle(quiet=0.3)
    assert len([m for m in table.channel.messages if "is over" in m.text]) == 1
