"""What every game state shares (rules/core.py): copies and their RNG."""

from __future__ import annotations

from rules.nails import GAME as NAILS


def test_copies_share_no_randomness_however_they_are_drawn_from() -> None:
    """A copy draws what its original would have drawn, and drawing from either
    (in any order, copies of copies too) never changes what the other draws."""
    state = NAILS.new({}, 2, 7)
    expected = state.copy()
    first = [expected.rng.random() for _ in range(3)]

    copy = state.copy()
    assert [state.rng.random() for _ in range(3)] == first  # the original draws first
    assert [copy.rng.random() for _ in range(3)] == first   # … and the copy still can

    again = state.copy()
    grandchild = again.copy()
    drawn = [grandchild.rng.random() for _ in range(2)]
    assert [again.rng.random() for _ in range(2)] == drawn
    assert [state.rng.random() for _ in range(2)] == drawn
    assert state.rng is not again.rng is not grandchild.rng
