"""Go beside pgx 2.6.0's go (rules="pgx"), move by move, and beside EnvPool 1.2.7's Go (both rules).

EnvPool 1.2.7 ships with a wheel for other Pythons than this one, so that comparison runs it in a child
interpreter (``envpool127.envpool_python()``: a cached CPython 3.13 virtualenv with envpool 1.2.7): the child
plays random games and prints, per step, the action and every output; rlpool replays the actions and compares.
It is skipped where no such interpreter is found.
"""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess

import numpy as np
import pytest
from envpool127 import envpool_python
from lane import FULL
from pgx_reference import Mismatch, header, lockstep

pgx = pytest.importorskip("pgx")
go = pytest.importorskip("pgx.go")

import rlpool  # noqa: E402

# rlpool's Go state after the PgxEnv header (go.cc's Saved): board_size, history_length, max_steps, step_count,
# consecutive_pass_count, ko, num_captured (black, white); is_psk, black player, 2 unused bytes.
SAVED = "<8i4B"


def encode(s) -> bytes:
    """rlpool's Go state of a pgx game that has not started (its position hashes are rlpool's own)."""
    x = s._x
    assert int(x.step_count) == 0, "only a new game's state maps onto rlpool's (the hashes differ)"
    size = int(round(np.sqrt(x.board.shape[0])))
    fields = struct.pack(
        SAVED,
        size,
        x.board_history.shape[0],
        x.hash_history.shape[0],
        int(x.step_count),
        int(x.consecutive_pass_count),
        int(x.ko),
        *(int(c) for c in x.num_captured),
        int(x.is_psk),
        int(s._player_order[0]),
        0,
        0,
    )
    board = np.sign(np.asarray(x.board)).astype(np.int8)
    return header(s) + fields + board.tobytes() + np.asarray(x.board_history, np.int8).tobytes()


# (board size, games, batch) per lane; illegal moves (1%) end many 19x19 games early, so the 19x19 runs add
# whole games without them.
CASES = {
    9: (1000, 256) if FULL else (60, 30),
    13: (300, 64) if FULL else (8, 8),
    19: (100, 50) if FULL else (2, 2),
}


@pytest.mark.parametrize("size", sorted(CASES))
def test_go_matches_pgx(size: int) -> None:
    if size == 13 and not FULL:
        pytest.skip("13x13 runs in the full lane (each comparison compiles pgx for ~10 s)")
    games, batch = CASES[size]
    env = go.Go(size=size, komi=7.5)
    stats = lockstep(f"Go{size}x{size}-v1", env, encode, games=games, batch=batch, seed=size)
    assert stats.games >= games and stats.illegal > 0
    if size == 19 and FULL:
        whole = lockstep("Go19x19-v1", env, encode, games=20, batch=20, seed=190, illegal_rate=0.0)
        assert whole.games >= 20


def test_comparison_can_fail() -> None:
    """Scoring with another komi than pgx's is caught (at the end of some game: rewards)."""
    with pytest.raises(Mismatch, match="rewards"):
        lockstep("Go9x9-v1", go.Go(size=9, komi=7.5), encode, games=16, batch=16, seed=5, illegal_rate=0.0, komi=0.5)


def test_options_and_states_are_checked() -> None:
    with pytest.raises(ValueError, match="rules"):
        rlpool.make_gymnasium("Go9x9-v1", num_envs=1, rules="japanese")
    with pytest.raises(ValueError, match="board_size"):
        rlpool.make_gymnasium("Go9x9-v1", num_envs=1, board_size=20)
    pool = rlpool.make_gymnasium("Go9x9-v1", num_envs=1, seed=0)
    try:
        pool.reset()
        state = pool.get_state(0)
        head = len(header_of_new_game())
        with pytest.raises(ValueError, match="bytes"):
            pool.set_state(0, state[:-1])
        board = head + struct.calcsize(SAVED)
        with pytest.raises(ValueError, match="board"):
            pool.set_state(0, state[:board] + bytes([5]) + state[board + 1 :])
        with pytest.raises(ValueError, match="board_size"):
            pool.set_state(0, state[:head] + struct.pack("<i", 13) + state[head + 4 :])
        assert pool.get_state(0) == state  # refused states changed nothing
    finally:
        pool.close()


def header_of_new_game() -> bytes:
    return struct.pack("<4di??2x", 0.0, 0.0, 0.0, 0.0, 0, False, False)


# ---- EnvPool 1.2.7, in a child interpreter -------------------------------------------------------------------

INFO = ("board", "ko", "is_psk", "consecutive_pass_count", "black_area", "white_area")

# The child: random games of one task; for ChineseGo a pgx-rules twin in lockstep shows the moves that the
# superko rule refuses, and half the time one of them is played (an illegal move there).
DRIVER = f"""
import hashlib, json, sys
import numpy as np
import envpool

args = json.loads(sys.argv[1])
seed, illegal_rate = args["seed"], args["illegal_rate"]
rng = np.random.default_rng(seed)
INFO = {INFO!r}


def record(obs, info, reward=None, term=None):
    out = {{k: np.asarray(info[k][0]).tolist() for k in INFO}}
    out["current_player"] = int(info["current_player"][0])
    out["mask"] = np.packbits(info["legal_action_mask"][0]).tobytes().hex()
    out["obs"] = hashlib.blake2b(np.ascontiguousarray(obs[:2], dtype=bool).tobytes(), digest_size=16).hexdigest()
    if reward is not None:
        out["reward"] = np.asarray(reward[:2], dtype=float).tolist()
        out["terminated"] = bool(term[0])
    return out


def play(env, twin):
    obs, info = env.reset()
    game = {{"reset": record(obs, info), "steps": []}}
    tinfo = None
    if twin is not None:
        _, tinfo = twin.reset()
        if int(tinfo["current_player"][0]) != int(info["current_player"][0]):
            tinfo = None
    while True:
        mask = info["legal_action_mask"][0]
        refused = np.flatnonzero(tinfo["legal_action_mask"][0] & ~mask) if tinfo is not None else []
        if len(refused) and rng.random() < 0.5:
            action = int(rng.choice(refused))
        elif rng.random() < illegal_rate and not mask.all():
            action = int(rng.choice(np.flatnonzero(~mask)))
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, term, trunc, info = env.step(np.array([action]))
        if tinfo is not None:
            tinfo = twin.step(np.array([action]))[4]
        step = record(obs, info, reward, term)
        step["action"] = action
        game["steps"].append(step)
        if term[0]:
            return game


for task, games in args["tasks"]:
    env = envpool.make_gymnasium(task, num_envs=1, seed=seed)
    twin = envpool.make_gymnasium(task.replace("Chinese", ""), num_envs=1, seed=seed) if "Chinese" in task else None
    for _ in range(games):
        print(json.dumps({{"task": task, **play(env, twin)}}), flush=True)
"""


def _ours(obs, info, reward=None, terminated=None) -> dict:
    out = {k: np.asarray(info[k][0]).tolist() for k in INFO}
    out["current_player"] = int(info["current_player"][0])
    out["mask"] = np.packbits(info["legal_action_mask"][0]).tobytes().hex()
    out["obs"] = hashlib.blake2b(np.ascontiguousarray(obs[0], dtype=bool).tobytes(), digest_size=16).hexdigest()
    if reward is not None:
        out["reward"] = np.asarray(reward[0], dtype=float).tolist()
        out["terminated"] = bool(terminated[0][0])
    return out


def _new_game(size: int, black_player: int) -> bytes:
    cells = size * size
    fields = struct.pack(SAVED, size, 8, 2 * cells, 0, 0, -1, 0, 0, 0, black_player, 0, 0)
    head = struct.pack("<4di??2x", 0.0, 0.0, 0.0, 0.0, black_player, False, False)
    return head + fields + bytes(cells) + bytes([2]) * (8 * cells)


ENVPOOL_CASES = {
    "ChineseGo9x9-v1": 300 if FULL else 40,
    "Go9x9-v1": 150 if FULL else 10,
    "ChineseGo13x13-v1": 30 if FULL else 2,
    "ChineseGo19x19-v1": 20 if FULL else 1,
}


def test_go_matches_envpool() -> None:
    """Every output and info entry of EnvPool 1.2.7's Go (ChineseGo: superko in the legal mask), step by step."""
    python = envpool_python()
    args = json.dumps({"tasks": list(ENVPOOL_CASES.items()), "seed": 7, "illegal_rate": 0.003})
    run = subprocess.run([str(python), "-c", DRIVER, args], capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr[-2000:]
    games = [json.loads(line) for line in run.stdout.splitlines()]
    for task_id, count in ENVPOOL_CASES.items():
        played, illegal = _replay(task_id, [g for g in games if g["task"] == task_id])
        assert played == count and (illegal > 0 or count < 20), task_id


def _replay(task_id: str, games: list[dict]) -> tuple[int, int]:
    """EnvPool's games in rlpool: (games, illegal moves) after comparing every step."""
    size = int(task_id.split("x")[-1].split("-")[0])
    pool = rlpool.make_gymnasium(task_id, num_envs=1, seed=0)
    played = illegal = 0
    try:
        for g, game in enumerate(games):
            obs, info = pool.reset()
            ours = _ours(obs, info)
            for key in INFO:  # the first player is EnvPool's draw, set below
                assert ours[key] == game["reset"][key], f"{task_id} game {g}: reset {key}"
            pool.set_state(0, _new_game(size, game["reset"]["current_player"]))
            mask = np.unpackbits(np.frombuffer(bytes.fromhex(game["reset"]["mask"]), np.uint8)).astype(bool)
            for i, step in enumerate(game["steps"]):
                illegal += int(not mask[step["action"]])
                obs, reward, terminated, _, info = pool.step(np.array([step["action"]]))
                ours = _ours(obs, info, reward, terminated)
                for key, value in ours.items():
                    if value != step[key]:
                        raise Mismatch(
                            f"{task_id} game {g} step {i} (action {step['action']}): {key} differs\n"
                            f"rlpool:   {value!r}\nEnvPool: {step[key]!r}"
                        )
                mask = np.unpackbits(np.frombuffer(bytes.fromhex(step["mask"]), np.uint8)).astype(bool)
            played += 1
    finally:
        pool.close()
    return played, illegal
