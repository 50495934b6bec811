"""Tournament storage (storage/tournaments.py, migration 009): status transitions and
their refusals (plain exceptions that pickle), a tournament game counted for its
pairing in the very transaction that records the match's result, no-shows, drops,
the organiser's results with an append-only audit, and reads that come back the same
after the store is closed and opened again. On both engines (SQLite, and PostgreSQL from
tests/pgstore.py), offline."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from storage import Store
from storage.connection import connect
from storage.db import Database, shipped_migrations
from storage.matches import _Record
from storage.models import ChoiceRow, SeatResult, SeatRow
from storage.tournament_games import decide_pairing
from storage.tournaments import (
    AlreadyDropped,
    AlreadyEntered,
    EntrantsChanged,
    Full,
    NoSuchTournament,
    NotEntered,
    PairingClosed,
    RoundNotDone,
    TooLate,
    TournamentRefusal,
    WrongStatus,
)
from tests.pgstore import refused_by_schema

pytestmark = pytest.mark.engines  # the tests that take a `store` run on both engines

G = 1
ADA, BO, CY, DI = 11, 22, 33, 44
NAMES = {ADA: "Ada", BO: "Bo", CY: "Cy", DI: "Di"}


async def tournament(store: Store, *, best_of: int = 1, no_show_limit: int = 2,
                     players=(ADA, BO, CY, DI), fmt: str = "swiss") -> int:
    """A tournament open for registration with ``players`` in it."""
    tid = await store.tournaments.create(
        guild_id=G, channel_id=100, name="Cup", game="flank", format=fmt, options={},
        settings={"best_of": best_of, "no_show_limit": no_show_limit}, organiser_id=9,
        seed=5)
    await store.tournaments.set_status(tid, "open", allowed=("created",), doing="open")
    for user in players:
        await store.tournaments.join(tid, user, NAMES[user])
    return tid


async def running(store: Store, **kwargs) -> int:
    """Started: Ada v Bo at table 1, Cy v Di at table 2."""
    tid = await tournament(store, **kwargs)
    await store.tournaments.start(tid, [(ADA, 1), (BO, 2), (CY, 3), (DI, 4)],
                                  [(1, (ADA, BO), ""), (2, (CY, DI), "")])
    return tid


async def game(store: Store, tid: int, round_no: int, table: int, users, *,
               start: bool = True) -> int:
    """A match in the pairing's place, linked as its next game (then started)."""
    pairing = await store.tournaments.pairing(tid, round_no, table)
    place = 1000 * round_no + table
    if pairing.thread_id is None:
        await store.tournaments.set_thread(tid, round_no, table, place)
    seats = [SeatRow(n, user, NAMES[user]) for n, user in enumerate(users)]
    match_id = await store.matches.create_lobby(
        game="flank", options={}, seed=1, guild_id=G, channel_id=place, host_id=users[0],
        max_seats=len(users), seats=seats)
    await store.tournaments.link_game(tid, round_no, table, pairing.games_linked + 1, match_id)
    if start:
        await store.matches.start(match_id, seats, None)
    return match_id


async def finish(store: Store, match_id: int, places: dict[int, int], *,
                 choices=(), forfeited=()) -> None:
    """Record a match's result: ``places`` by user."""
    seats = await store.matches.seats(match_id)
    for seat in seats:
        if seat.user_id in forfeited:
            seat.state = "forfeited"
    await store.matches.record(
        match_id, list(choices), deadline_at=None, seats=seats,
        result=("over", [SeatResult(s.seat, s.user_id, False, places[s.user_id], None)
                         for s in seats]))


async def refused(error: type[Exception], call) -> Exception:
    with pytest.raises(error) as caught:
        await call
    return caught.value


async def refused_by_the_schema(store: Store, sql: str, params: tuple = (), *,
                                match: str) -> None:
    """``sql`` is refused by a constraint or trigger whose message has ``match``."""
    with pytest.raises(Exception, match=match) as caught:
        await store.db.execute(sql, params)
    assert refused_by_schema(caught.value)


# -- transitions -----------------------------------------------------------------------
async def test_registration_transitions_and_refusals(store):
    tid = await store.tournaments.create(
        guild_id=G, channel_id=100, name="Cup", game="flank", format="swiss", options={},
        settings={}, organiser_id=9, seed=5)
    await refused(WrongStatus, store.tournaments.join(tid, ADA, "Ada"))
    await store.tournaments.join(tid, ADA, "Ada", allowed=("created", "open", "checkin"))
    await store.tournaments.set_status(tid, "open", allowed=("created",), doing="open")
    await refused(WrongStatus, store.tournaments.set_status(tid, "open", allowed=("created",),
                                                            doing="open"))
    await refused(AlreadyEntered, store.tournaments.join(tid, ADA, "Ada"))
    await store.tournaments.join(tid, BO, "Bo", max_players=2)
    await refused(Full, store.tournaments.join(tid, CY, "Cy", max_players=2))
    await store.tournaments.leave(tid, BO)
    await refused(NotEntered, store.tournaments.leave(tid, BO))
    await refused(NoSuchTournament, store.tournaments.join(tid + 99, CY, "Cy"))
    # Check-in: joining now checks in; closing removes who did not.
    await store.tournaments.set_status(tid, "checkin", allowed=("open",), doing="check in")
    await store.tournaments.join(tid, CY, "Cy")
    await store.tournaments.join(tid, DI, "Di")
    await store.tournaments.check_in(tid, DI)
    assert [(e.user_id, e.checked_in) for e in await store.tournaments.entrants(tid)] == [
        (ADA, False), (CY, True), (DI, True)]
    assert await store.tournaments.close_check_in(tid) == [ADA]
    assert (await store.tournaments.get(tid)).status == "open"
    assert [e.user_id for e in await store.tournaments.entrants(tid)] == [CY, DI]


async def test_entrants_are_listed_in_the_order_they_joined(store):
    """Joins to the second share their ``joined_at``: the join number (migration 017)
    keeps them in the order they came, not by id, on both engines."""
    tid = await tournament(store, players=(DI, BO))
    assert await store.tournaments.add_computers(tid, 3, allowed=("open",)) == [-1, -2, -3]
    await store.tournaments.join(tid, ADA, "Ada")
    await store.tournaments.leave(tid, BO)
    await store.tournaments.join(tid, BO, "Bo")  # back in: last
    await store.tournaments.add_computers(tid, 1, allowed=("open",))
    assert [e.user_id for e in await store.tournaments.entrants(tid)] == [
        DI, -1, -2, -3, ADA, BO, -4]


async def test_migration_017_numbers_entrants_in_the_order_they_were_listed(tmp_path):
    EARLIER, LATER = "2024-05-01T10:00:00+00:00", "2024-05-01T10:00:01+00:00"
    path = tmp_path / "old.sqlite3"
    db = await Database.open(path, [m for m in shipped_migrations() if m.version < 17])
    await db.execute(
        "INSERT INTO tournaments (id, guild_id, channel_id, game, format, name, status,"
        " organiser_id, seed, created_at) VALUES (1, 1, 9, 'flank', 'swiss', 'T', 'open', 1,"
        " 3, 'then'), (2, 1, 9, 'flank', 'swiss', 'U', 'open', 1, 3, 'then')")
    await db.execute(
        "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_at) VALUES"
        " (1, 44, 'Di', ?), (2, 33, 'Cy', ?), (1, 11, 'Ada', ?), (1, 22, 'Bo', ?)",
        (LATER, EARLIER, LATER, EARLIER))
    await db.close()
    store = await Store.open(path)
    try:
        assert [e.user_id for e in await store.tournaments.entrants(1)] == [BO, DI, ADA]
        assert [row["entry_no"] for row in await store.db.fetchall(
            "SELECT entry_no FROM tournament_entrants ORDER BY tournament_id, entry_no")] == [
            1, 2, 3, 1]
        await store.tournaments.join(1, CY, "Cy")
        assert (await store.tournaments.entrants(1))[-1].user_id == CY
    finally:
        await store.close()


async def test_start_needs_exactly_the_entrants_it_was_worked_out_for(store):
    tid = await tournament(store)
    before = await store.tournaments.entrants(tid)
    await refused(EntrantsChanged, store.tournaments.start(
        tid, [(ADA, 1), (BO, 2), (CY, 3)], [(1, (ADA, BO), ""), (2, (CY,), "")]))
    assert await store.tournaments.entrants(tid) == before  # nothing of it stored
    assert await store.tournaments.pairings(tid) == []
    await store.tournaments.start(tid, [(ADA, 1), (BO, 2), (CY, 3), (DI, 4)],
                                  [(1, (ADA, BO), ""), (2, (CY, DI), "")])
    t = await store.tournaments.get(tid)
    assert (t.status, t.round) == ("running", 1)
    assert [e.seed for e in await store.tournaments.entrants(tid)] == [1, 2, 3, 4]
    await refused(WrongStatus, store.tournaments.join(tid, 55, "Late"))
    await refused(WrongStatus, store.tournaments.leave(tid, ADA))
    await refused_by_the_schema(store, "DELETE FROM tournament_entrants WHERE tournament_id = ?",
                                (tid,), match="never removed")


async def test_during_checkin_start_removes_who_did_not_check_in(store):
    tid = await tournament(store)
    await store.tournaments.set_status(tid, "checkin", allowed=("open",), doing="check in")
    for user in (ADA, BO):
        await store.tournaments.check_in(tid, user)
    assert await store.tournaments.start(tid, [(ADA, 1), (BO, 2)],
                                         [(1, (ADA, BO), "")]) == [CY, DI]
    assert [e.user_id for e in await store.tournaments.entrants(tid)] == [ADA, BO]


async def test_rounds_follow_each_other_and_byes_are_decided_at_once(store):
    tid = await tournament(store, players=(ADA, BO, CY))
    await store.tournaments.start(tid, [(ADA, 1), (BO, 2), (CY, 3)],
                                  [(1, (ADA, BO), ""), (2, (CY,), "")])
    bye = await store.tournaments.pairing(tid, 1, 2)
    assert (bye.status, bye.games, bye.places, bye.decided_by) == ("done", (2,), (1,), "bye")
    await refused(RoundNotDone, store.tournaments.add_round(tid, 2, [(1, (ADA, CY), "")]))
    match_id = await game(store, tid, 1, 1, (ADA, BO))
    await finish(store, match_id, {ADA: 1, BO: 2})
    await refused(EntrantsChanged, store.tournaments.add_round(tid, 1, [(1, (ADA, CY), "")]))
    await store.tournaments.add_round(tid, 2, [(1, (ADA, CY), ""), (2, (BO,), "")])
    assert (await store.tournaments.get(tid)).round == 2
    await refused(EntrantsChanged, store.tournaments.add_round(tid, 2, [(1, (ADA, CY), "")]))
    await refused(PairingClosed, store.tournaments.link_game(tid, 1, 1, 2, match_id))


async def test_finished_and_cancelled_stay_so(store):
    tid = await tournament(store)
    playing = await running(store)
    match_id = await game(store, playing, 1, 1, (ADA, BO))
    assert await store.tournaments.cancel(playing, by_user=9, why="rain") == [match_id]
    await refused(WrongStatus, store.tournaments.cancel(playing, by_user=9))
    await refused_by_the_schema(store, "UPDATE tournaments SET status = 'running' WHERE id = ?",
                                (playing,), match="stays so")
    assert (await store.tournaments.audit(playing))[-1].action == "cancel"
    assert (await store.tournaments.get(tid)).status == "open"


def test_refusals_pickle_as_themselves():
    for error in (WrongStatus("closed"), AlreadyEntered("in"), PairingClosed("done"),
                  TooLate("late"), EntrantsChanged("changed")):
        back = pickle.loads(pickle.dumps(error))
        assert type(back) is type(error) and str(back) == str(error)
        assert isinstance(back, TournamentRefusal)


# -- games counted in the result's own transaction --------------------------------------------
async def test_a_best_of_three_counts_each_game_and_is_decided_at_two_wins(store):
    tid = await running(store, best_of=3)
    first = await game(store, tid, 1, 1, (ADA, BO))
    assert (await store.tournaments.pairing(tid, 1, 1)).in_play
    await finish(store, first, {ADA: 1, BO: 2})
    pairing = await store.tournaments.pairing(tid, 1, 1)
    assert (pairing.status, pairing.games, pairing.needs_game) == ("playing", (1, 0), True)
    second = await game(store, tid, 1, 1, (BO, ADA))  # seats swapped: mapped by person
    await finish(store, second, {ADA: 2, BO: 1})
    assert (await store.tournaments.pairing(tid, 1, 1)).status == "playing"
    third = await game(store, tid, 1, 1, (ADA, BO))
    await finish(store, third, {ADA: 1, BO: 1})  # a drawn game: three played, a draw
    pairing = await store.tournaments.pairing(tid, 1, 1)
    assert (pairing.status, pairing.games, pairing.drawn_games, pairing.places,
            pairing.decided_by, pairing.games_linked) == ("done", (1, 1), 1, (1, 1), "play", 3)
    for _ in range(2):
        await finish(store, await game(store, tid, 1, 2, (CY, DI)), {CY: 1, DI: 2})
    pairing = await store.tournaments.pairing(tid, 1, 2)
    assert (pairing.status, pairing.games, pairing.places) == ("done", (2, 0), (1, 2))
    assert [g.outcome for g in await store.tournaments.games(tid)] == ["counted"] * 5


async def test_best_of_one_and_a_drawn_game(store):
    tid = await running(store)
    await finish(store, await game(store, tid, 1, 1, (ADA, BO)), {ADA: 2, BO: 1})
    await finish(store, await game(store, tid, 1, 2, (CY, DI)), {CY: 1, DI: 1})
    one, two = await store.tournaments.pairings(tid, 1)
    assert (one.places, one.games) == ((2, 1), (0, 1))
    assert (two.places, two.games, two.drawn_games) == ((1, 1), (0, 0), 1)


async def test_a_pod_is_decided_by_its_game(store):
    tid = await tournament(store, fmt="pods")
    await store.tournaments.start(tid, [(ADA, 1), (BO, 2), (CY, 3), (DI, 4)],
                                  [(1, (ADA, BO, CY, DI), "Pod 1")])
    await finish(store, await game(store, tid, 1, 1, (ADA, BO, CY, DI)),
                 {ADA: 3, BO: 1, CY: 2, DI: 4})
    pod = await store.tournaments.pairing(tid, 1, 1)
    assert (pod.places, pod.games, pod.label) == ((3, 1, 2, 4), (0, 1, 0, 0), "Pod 1")


@pytest.mark.engines("sqlite")  # a transaction of its own on SQLite's file
async def test_the_game_is_counted_in_the_transaction_of_its_result(store):
    tid = await running(store)
    match_id = await game(store, tid, 1, 1, (ADA, BO))
    seats = await store.matches.seats(match_id)
    record = _Record(match_id, [], None, 0, seats,
                     ("over", [SeatResult(0, ADA, False, 1, None),
                               SeatResult(1, BO, False, 2, None)]), None)
    conn = connect(store.db.path)
    try:
        conn.execute("BEGIN IMMEDIATE")
        record(conn)
        inside = conn.execute("SELECT status FROM tournament_pairings WHERE round = 1"
                              " AND table_no = 1").fetchone()[0]
        conn.execute("ROLLBACK")  # the result is not stored: nor is the game
    finally:
        conn.close()
    assert inside == "done"
    assert (await store.matches.get(match_id)).status == "active"
    assert (await store.tournaments.pairing(tid, 1, 1)).status == "playing"
    assert (await store.tournaments.game(match_id)).outcome is None
    await store.db.write(record)
    assert (await store.tournaments.pairing(tid, 1, 1)).places == (1, 2)
    assert (await store.tournaments.game(match_id)).outcome == "counted"
    await refused_by_the_schema(store, "UPDATE tournament_games SET outcome = 'ignored'",
                                match="set once")


async def test_a_cancelled_game_counts_nothing_and_the_pairing_waits(store):
    tid = await running(store)
    match_id = await game(store, tid, 1, 1, (ADA, BO))
    await store.matches.set_status(match_id, "cancelled")
    pairing = await store.tournaments.pairing(tid, 1, 1)
    assert (pairing.status, pairing.waiting, pairing.needs_game, pairing.games) == (
        "playing", True, False, (0, 0))
    assert (await store.tournaments.game(match_id)).outcome == "cancelled"
    # The organiser has it played again: game 2.
    again = await game(store, tid, 1, 1, (BO, ADA))
    await finish(store, again, {ADA: 1, BO: 2})
    assert (await store.tournaments.pairing(tid, 1, 1)).places == (1, 2)


async def test_a_game_ending_after_its_pairing_was_reported_counts_nothing(store):
    tid = await running(store)
    match_id = await game(store, tid, 1, 1, (ADA, BO))
    moot = await store.tournaments.report(tid, 1, 1, places=(2, 1), games=(0, 1),
                                          by_user=9, why="Ada left")
    assert moot == match_id
    await finish(store, match_id, {ADA: 1, BO: 2})
    pairing = await store.tournaments.pairing(tid, 1, 1)
    assert (pairing.places, pairing.decided_by) == ((2, 1), "organiser")
    assert (await store.tournaments.game(match_id)).outcome == "ignored"


# -- no-shows, drops, corrections ------------------------------------------------------------
def timed_out(seat: int, n: int) -> list[ChoiceRow]:
    """``n`` choices the computer made for a late seat, then its forfeit."""
    return ([ChoiceRow(i, seat, "x", "auto", i) for i in range(n)]
            + [ChoiceRow(n, seat, "resign", "resign", n)])


async def test_an_absent_player_loses_the_match_and_is_dropped_at_the_limit(store):
    tid = await running(store, best_of=3, no_show_limit=2)
    first = await game(store, tid, 1, 1, (ADA, BO))
    await finish(store, first, {ADA: 1, BO: 2}, choices=timed_out(1, 2), forfeited={BO})
    pairing = await store.tournaments.pairing(tid, 1, 1)
    assert (pairing.status, pairing.places, pairing.decided_by) == ("done", (1, 2), "absence")
    assert (await store.tournaments.entrant(tid, BO)).no_shows == 1
    # One who played and then forfeited is no no-show.
    other = await game(store, tid, 1, 2, (CY, DI))
    await finish(store, other, {CY: 2, DI: 1},
                 choices=[ChoiceRow(0, 0, "a1", "player", 0), *timed_out(0, 1)[1:]],
                 forfeited={CY})
    assert (await store.tournaments.entrant(tid, CY)).no_shows == 0
    assert (await store.tournaments.pairing(tid, 1, 2)).status == "playing"  # 0-1 of three
    await store.tournaments.report(tid, 1, 2, places=(2, 1), games=(0, 2), by_user=9, why="")
    await store.tournaments.add_round(tid, 2, [(1, (ADA, CY), ""), (2, (BO, DI), "")])
    second = await game(store, tid, 2, 2, (BO, DI))
    await finish(store, second, {BO: 2, DI: 1}, choices=timed_out(0, 1), forfeited={BO})
    bo = await store.tournaments.entrant(tid, BO)
    assert (bo.no_shows, bo.dropped_after) == (2, 2)
    assert [(a.action, a.user_id, a.by_user) for a in await store.tournaments.audit(tid)
            if a.user_id == BO] == [("no_show", BO, 0), ("no_show", BO, 0), ("drop", BO, 0)]


async def test_drops(store):
    tid = await running(store, best_of=3)
    match_id = await game(store, tid, 1, 1, (ADA, BO))
    await refused(PairingClosed, store.tournaments.drop(tid, ADA, by_user=ADA,
                                                        between_rounds=True))
    # The organiser drops Ada mid-match: her game is answered (to forfeit), and when
    # it ends her pairing is lost whatever its score.
    assert await store.tournaments.drop(tid, ADA, by_user=9, why="left") == match_id
    await refused(AlreadyDropped, store.tournaments.drop(tid, ADA, by_user=9))
    await finish(store, match_id, {ADA: 1, BO: 2})
    pairing = await store.tournaments.pairing(tid, 1, 1)
    assert (pairing.places, pairing.games, pairing.decided_by) == ((2, 1), (1, 0), "drop")
    # Between games (none being played), a drop decides the pairing at once.
    await finish(store, await game(store, tid, 1, 2, (CY, DI)), {CY: 1, DI: 2})
    assert await store.tournaments.drop(tid, CY, by_user=9) is None
    assert (await store.tournaments.pairing(tid, 1, 2)).places == (2, 1)
    # Disqualifying someone who dropped marks them so; dropping again is refused.
    await store.tournaments.drop(tid, CY, by_user=9, disqualify=True, why="conduct")
    cy = await store.tournaments.entrant(tid, CY)
    assert (cy.dropped_after, cy.disqualified) == (1, True)
    await store.tournaments.add_round(tid, 2, [(1, (BO, DI), "")])
    await finish(store, await game(store, tid, 2, 1, (BO, DI)), {BO: 1, DI: 2})
    await finish(store, await game(store, tid, 2, 1, (DI, BO)), {BO: 1, DI: 2})
    await store.tournaments.drop(tid, DI, by_user=DI, between_rounds=True)  # round done
    assert (await store.tournaments.entrant(tid, DI)).dropped_after == 2


async def test_corrections_keep_an_append_only_audit(store):
    tid = await running(store)
    await finish(store, await game(store, tid, 1, 1, (ADA, BO)), {ADA: 1, BO: 2})
    await finish(store, await game(store, tid, 1, 2, (CY, DI)), {CY: 1, DI: 2})
    await store.tournaments.add_round(tid, 2, [(1, (ADA, CY), ""), (2, (BO, DI), "")])
    await store.tournaments.report(tid, 1, 1, places=(1, 1), games=(1, 1), drawn=1,
                                   by_user=9, why="a misclick")
    await refused(TooLate, store.tournaments.report(tid, 1, 2, places=(2, 1), games=(0, 1),
                                                    by_user=9, why="", past_rounds=False))
    row = (await store.tournaments.audit(tid))[-1]
    assert (row.action, row.by_user, row.round, row.table, row.why) == (
        "result", 9, 1, 1, "a misclick")
    assert row.old["places"] == [1, 2] and row.old["decided_by"] == "play"
    assert row.new == {"status": "done", "games": [1, 1], "drawn_games": 1, "places": [1, 1],
                       "both_lose": False, "decided_by": "organiser"}
    for sql in ("UPDATE tournament_audit SET why = 'x'", "DELETE FROM tournament_audit"):
        await refused_by_the_schema(store, sql, match="append-only")


def test_deciding_a_pairing():
    assert decide_pairing([0, 0], 0, 3, out=[True, True]) == ((2, 2), True)
    assert decide_pairing([0, 0], 1, 1) == ((1, 1), False)
    assert decide_pairing([1, 0], 2, 3) == ((1, 2), False)  # three games played
    assert decide_pairing([0, 0, 0, 0], 0, 1, [1, 2, 2, 4], [True, False, False, False]) == (
        (4, 1, 1, 3), False)


# -- reads after a restart -------------------------------------------------------------------
async def test_everything_reads_back_the_same_after_reopening(target: Path | str):
    store = await Store.open(target)
    try:
        tid = await running(store, best_of=3)
        match_id = await game(store, tid, 1, 1, (ADA, BO))
        await finish(store, match_id, {ADA: 1, BO: 2})
        await game(store, tid, 1, 2, (CY, DI), start=False)
        await store.tournaments.drop(tid, DI, by_user=9)
        before = (await store.tournaments.get(tid), await store.tournaments.entrants(tid),
                  await store.tournaments.pairings(tid), await store.tournaments.games(tid),
                  await store.tournaments.audit(tid), await store.tournaments.to_restore(),
                  await store.tournaments.of_player(G, ADA))
    finally:
        await store.close()
    again = await Store.open(target)
    try:
        after = (await again.tournaments.get(tid), await again.tournaments.entrants(tid),
                 await again.tournaments.pairings(tid), await again.tournaments.games(tid),
                 await again.tournaments.audit(tid), await again.tournaments.to_restore(),
                 await again.tournaments.of_player(G, ADA))
    finally:
        await again.close()
    assert after == before
    pairings = after[2]
    assert pairings[0].games == (1, 0) and pairings[0].needs_game
    assert pairings[1].in_play and pairings[1].match_id not in (None, match_id)
