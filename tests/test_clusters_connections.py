"""A running cluster's database connections cut with ``pg_terminate_backend`` (issue
31, part 3), as a server restart, a failover or an operator would cut them: the
cluster takes new ones and goes on serving, nothing is refused or lost, and it logs
no error. Ada's DM answers reach cluster 0, her typed ones her guild's cluster 1;
each has its connections cut between two of her answers."""

from __future__ import annotations

from tests.clusterplay import open_table, whole_log_checked
from tests.clusters import Clusters, clusters_fixture

SEED = 20261126


clusters = clusters_fixture(count=2, seed=SEED)


async def test_a_cluster_whose_connections_are_cut_goes_on(clusters: Clusters) -> None:
    fake = clusters.fake
    guild = clusters.guild_of(1, "One", channels=("eclipse",))
    ada = fake.add_user("Ada")
    await clusters.start()
    table = await open_table(clusters, guild.channel("eclipse"), {0: ada}, "eclipse",
                             seats=2, hand_cap=10)
    for index, route in ((0, "private"), (1, "typed")):
        table.route = route
        await table.play(answers=2)
        assert await clusters.cut_connections(index) >= 1
        await table.play(answers=3)
    table.route = "any"
    await whole_log_checked(table, await table.play())
    assert not table.refused, table.refused
    assert table.ways()["dm"] >= 5 and table.ways()["typed"] >= 5, table.ways()
