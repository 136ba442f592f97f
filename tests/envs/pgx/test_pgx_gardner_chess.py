"""GardnerChess-v1 beside pgx 2.6.0's gardner_chess, move by move."""

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
HASHES = slice(HEADER, HEADER + 257 * 8)  # the hash ring: pgx's MAX_TERMINATION_STEPS + 1 slots of uint64
START_HASHES = start_state("GardnerChess-v1")[HASHES]
"""rlpool's hash ring at a game's start (its own zobrist keys, not pgx's): the same in every game."""


def encode(s) -> bytes:
    """rlpool's GardnerChess state: hash ring (uint64 x 257), step and halfmove counts, history, board, turn.

    Only a game's start is encoded: its hashes are rlpool's (its keys are not pgx's), the rest pgx's.
    """
    steps, turn = int(s._step_count), int(s._turn)
    assert steps == 0, "only a start position can be encoded (rlpool's hashes are not pgx's)"
    history = np.asarray(s._board_history, np.int8).reshape(8, 5, 5)
    if turn == 1:  # pgx keeps it in the mover's view; rlpool in white's
        history = -history[:, :, ::-1]
    return (
        header(s)
        + START_HASHES
        + struct.pack("<ii", steps, int(s._halfmove_count))
        + np.ascontiguousarray(history, np.int8).tobytes()
        + np.asarray(s._board, np.int8).tobytes()
        + bytes([turn])
        + bytes(6)
    )


def test_gardner_chess_matches_pgx() -> None:
    games = 1000 if FULL else 200
    # Few illegal moves here (the next test has many), so that most games end by the rules.
    stats = lockstep(
        "GardnerChess-v1",
        pgx.make("gardner_chess"),
        encode,
        games=games,
        batch=256 if FULL else 64,
        seed=5,
        illegal_rate=0.002,
    )
    assert stats.games >= games and stats.illegal > 0
    assert set(stats.terminal_rewards) >= {0.0, 1.0}  # draws and wins both happened


def test_gardner_chess_illegal_moves_match_pgx() -> None:
    """pgx's _step on any label (off-board targets, empty or enemy squares, odd underpromotions) is followed."""
    games = 500 if FULL else 150
    stats = lockstep(
        "GardnerChess-v1", pgx.make("gardner_chess"), encode, games=games, batch=64, seed=6, illegal_rate=0.2
    )
    assert stats.illegal >= games // 2


def test_comparison_can_fail() -> None:
    """Games started with the other player to move are caught (the color plane shows it)."""
    env = pgx.make("gardner_chess")
    assert_other_player_first_caught("GardnerChess-v1", env, encode, batch=64, match="observation differs")


def test_repetition_matches_pgx_and_bad_hashes_are_caught() -> None:
    """The start position's third occurrence is pgx's draw (step 8); a state with zeroed hashes is caught (step 4)."""
    # White's knight b1-c3, black's b5-a3 (in its view), both back: from * 49 + plane in the mover's view (pgx's
    # TO_MAP), 5 -> 12, 5 -> 2, 12 -> 5, 2 -> 5.
    moves = (5 * 49 + 48, 5 * 49 + 44, 12 * 49 + 43, 2 * 49 + 47)
    assert_start_repeats("GardnerChess-v1", pgx.make("gardner_chess"), encode, moves, HASHES)


def test_bad_state_is_refused() -> None:
    """rlpool's start is pgx's (its own hashes aside); a state with the turn out of range is refused."""
    assert_start_is_pgx("GardnerChess-v1", pgx.make("gardner_chess"), encode)
    assert_states_refused("GardnerChess-v1", lambda game: {"turn": set_byte(game, len(game) - 7, 2)})
