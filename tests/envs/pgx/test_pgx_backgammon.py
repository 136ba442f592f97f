"""Backgammon-v1 beside pgx 2.6.0's backgammon, move by move, and rlpool's own dice against pgx's distribution."""

from __future__ import annotations

import numpy as np
import pytest
from lane import FULL
from pgx_reference import Mismatch, assert_states_refused, header, lockstep, set_byte

pgx = pytest.importorskip("pgx")
stats_mod = pytest.importorskip("scipy.stats")

NO_ROLL = bytes([0xFF, 0xFF])  # pending dice -1, -1: the env draws the next roll itself


def encode(s, pending: bytes = NO_ROLL) -> bytes:
    """rlpool's Backgammon state: board (int8 x 28), dice, playable dice, played number, turn, pending roll."""
    body = np.concatenate([s._board, s._dice, s._playable_dice, [s._played_dice_num, s._turn]]).astype(np.int8)
    return header(s) + body.tobytes() + pending


def with_pgx_roll(before, after) -> bytes:
    """The state before the step, with pgx's roll pending when the step passes the turn (a new roll)."""
    if int(after._turn) != int(before._turn):
        return encode(before, np.asarray(after._dice, np.int8).tobytes())
    return encode(before)


def test_backgammon_matches_pgx() -> None:
    # Random games last about 200 steps: an illegal move in one step of 500 leaves most games to their end.
    games = 2000 if FULL else 200
    stats = lockstep(
        "Backgammon-v1",
        pgx.make("backgammon"),
        encode,
        games=games,
        batch=256 if FULL else 128,
        seed=5,
        illegal_rate=0.002,
        before_step=with_pgx_roll,
    )
    assert stats.games >= games and stats.illegal > 0
    # Single wins, gammons, and +3: backgammons (a quarter of random games) or the other player's illegal move.
    assert {1.0, 2.0, 3.0} <= set(stats.terminal_rewards)


def test_illegal_moves_match_pgx() -> None:
    """pgx plays an illegal move as if legal (a checker from an empty point, a no-op that passes the turn and rolls),
    then ends the game with -3/+3: short games with many illegal moves compare those states."""
    stats = lockstep(
        "Backgammon-v1",
        pgx.make("backgammon"),
        encode,
        games=2000 if FULL else 300,
        batch=256 if FULL else 128,
        seed=9,
        illegal_rate=0.3,
        before_step=with_pgx_roll,
    )
    assert stats.illegal >= (1500 if FULL else 200)


def test_state_is_checked() -> None:
    """get_state/set_state round trip; set_state refuses each bad field (naming it) and changes nothing."""

    def bad_games(game: bytes) -> dict[str, bytes]:
        return {
            "board": set_byte(game, 3, 17),  # a count past 16
            "dice": set_byte(game, 28, 6),
            "playable": set_byte(game, 30, -2),
            "played": set_byte(game, 34, 5),
            "turn": set_byte(game, 35, 2),
            "pending": set_byte(game, 36, 3),  # half a roll: the other die is still -1
        }

    assert_states_refused("Backgammon-v1", bad_games)


def test_comparison_can_fail() -> None:
    """Without pgx's rolls rlpool draws its own dice, and the first turn change shows it."""
    with pytest.raises(Mismatch):
        lockstep(
            "Backgammon-v1",
            pgx.make("backgammon"),
            encode,
            games=20,
            batch=16,
            seed=6,
            before_step=lambda b, a: encode(b),
        )


# 21 unordered rolls: the six doubles (1/36 each), then the 15 pairs of different dice (2/36 each).
ROLLS = [(a, a) for a in range(6)] + [(a, b) for a in range(6) for b in range(a + 1, 6)]
ROLL_INDEX = np.full(36, -1)
for _k, (_a, _b) in enumerate(ROLLS):
    ROLL_INDEX[6 * _a + _b] = _k
LATER_P = np.array([1 / 36] * 6 + [2 / 36] * 15)
OPENING_P = np.array([0.0] * 6 + [1 / 15] * 15)  # pgx's opening: uniform over the 30 ordered pairs of different dice


def roll_indices(counts: np.ndarray) -> np.ndarray:
    """The unordered rolls (indices into ROLLS) of die counts (rows of 6: two dice, or a double's 4)."""
    held = counts > 0
    low = held.argmax(axis=1)
    high = 5 - held[:, ::-1].argmax(axis=1)
    return ROLL_INDEX[6 * low + high]


def fits(observed: np.ndarray, p: np.ndarray) -> bool:
    """Pearson's chi-square test of counts against probabilities p, at the 1e-4 level; impossible outcomes fail."""
    if observed[p == 0].sum() > 0:
        return False
    keep = p > 0
    return float(stats_mod.chisquare(observed[keep], observed.sum() * p[keep]).pvalue) > 1e-4


def rlpool_dice(steps: int, resets: int, batch: int = 256, seed: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rlpool's own draws: counts of the rolls at turn changes over random legal play, of the opening rolls and of
    the first players (over ``resets`` resets of the pool)."""
    import rlpool

    rng = np.random.default_rng(seed)
    rows = np.arange(batch)
    later, opening, first = np.zeros(21, int), np.zeros(21, int), np.zeros(2, int)
    pool = rlpool.make_gymnasium("Backgammon-v1", num_envs=batch, seed=seed)
    try:
        for _ in range(resets):
            obs, info = pool.reset()
            me = info["current_player"]
            np.add.at(opening, roll_indices(obs[rows, me, 28:]), 1)
            first += np.bincount(me, minlength=2)
        done = np.zeros(batch, bool)
        for _ in range(steps):
            before = info["current_player"].copy()
            mask = info["legal_action_mask"]
            obs, _, terminated, _, info = pool.step((rng.random(mask.shape) + mask).argmax(axis=1))
            me = info["current_player"]
            rolled = ~done & ~terminated[:, 0] & (me != before)  # the turn passed: the new player's fresh roll
            np.add.at(later, roll_indices(obs[rows, me, 28:])[rolled], 1)
            done = terminated[:, 0]
    finally:
        pool.close()
    return later, opening, first


def test_own_dice_follow_pgx() -> None:
    later, opening, first = rlpool_dice(steps=400, resets=40)
    assert later.sum() > 20000 and opening.sum() > 10000
    assert fits(later, LATER_P), later
    assert fits(opening, OPENING_P), opening
    assert fits(first, np.array([0.5, 0.5])), first
    # Power: the same check refuses a die loaded by 1/60 towards six, and openings that may be doubles.
    rng = np.random.default_rng(8)
    loaded = np.array([1 / 6 - 1 / 300] * 5 + [1 / 6 + 1 / 60])
    dice = np.sort(rng.choice(6, size=(later.sum(), 2), p=loaded), axis=1)
    assert not fits(np.bincount(ROLL_INDEX[6 * dice[:, 0] + dice[:, 1]], minlength=21), LATER_P)
    assert not fits(later, OPENING_P)
