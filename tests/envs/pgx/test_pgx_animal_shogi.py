"""AnimalShogi-v1 beside pgx 2.6.0's animal_shogi, move by move."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from lane import FULL
from pgx_reference import (
    assert_other_player_first_caught,
    assert_start_is_pgx,
    assert_start_repeats,
    assert_states_refused,
    header,
    lockstep,
    set_byte,
    start_state,
)

pgx = pytest.importorskip("pgx")

HEADER = 40  # pgx_reference.header's bytes
# The hash (uint64), then the history's 257 low words and 257 high words (uint32).
HASHES = slice(HEADER, HEADER + 8 + 257 * 8)
START_HASHES = start_state("AnimalShogi-v1")[HASHES]
"""rlpool's hash and hash history at a game's start (its own zobrist keys, not pgx's): the same in every game."""


def encode(s) -> bytes:
    """rlpool's AnimalShogi state: pgx's fields in its layouts, but for the hashes.

    Only a game's start is encoded: its hashes are rlpool's (its keys are not pgx's), the rest pgx's.
    """
    assert int(s._step_count) == 0, "only a start position can be encoded (rlpool's hashes are not pgx's)"
    return (
        header(s)
        + START_HASHES
        + np.asarray(s._rep_history, np.int32).tobytes()
        + struct.pack("<i", int(s._step_count))
        + np.asarray(s._board_history, np.int8).tobytes()
        + np.asarray(s._hand_history, np.int8).tobytes()
        + np.asarray(s._board, np.int8).tobytes()
        + np.asarray(s._hand, np.int8).tobytes()
        + bytes([int(s._turn), 0])
    )


def test_animal_shogi_matches_pgx() -> None:
    games = 2000 if FULL else 300
    # Few illegal moves here (the next test has many), so that most games end by the rules.
    stats = lockstep(
        "AnimalShogi-v1",
        pgx.make("animal_shogi"),
        encode,
        games=games,
        batch=256 if FULL else 64,
        seed=7,
        illegal_rate=0.002,
    )
    assert stats.games >= games and stats.illegal > 0
    assert set(stats.terminal_rewards) >= {0.0, 1.0}  # draws and wins both happened


def test_animal_shogi_illegal_moves_match_pgx() -> None:
    """pgx's _step on any label (off-board targets, moves of empty or enemy squares, drops from empty hands)."""
    games = 1000 if FULL else 150
    stats = lockstep(
        "AnimalShogi-v1", pgx.make("animal_shogi"), encode, games=games, batch=64, seed=8, illegal_rate=0.2
    )
    assert stats.illegal >= games // 2


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the color plane shows it)."""
    env = pgx.make("animal_shogi")
    assert_other_player_first_caught("AnimalShogi-v1", env, encode, batch=64, match="observation differs")


def test_repetition_matches_pgx_and_bad_hashes_are_caught() -> None:
    """The start position's third occurrence is pgx's draw (step 8); a state with zeroed hashes is caught (step 4)."""
    # Both sides' giraffe a step forward and back: direction * 12 + from, square 3 -> 2, 2 -> 3 (either side's view).
    out, back = 3 * 12 + 3, 4 * 12 + 2
    assert_start_repeats("AnimalShogi-v1", pgx.make("animal_shogi"), encode, (out, out, back, back), HASHES)


def test_bad_state_is_refused() -> None:
    """rlpool's start is pgx's (its own hashes aside); a state with the turn out of range is refused."""
    assert_start_is_pgx("AnimalShogi-v1", pgx.make("animal_shogi"), encode)
    assert_states_refused("AnimalShogi-v1", lambda game: {"turn": set_byte(game, len(game) - 2, 2)})
