"""rlpool's MARLGrid (EnvPool 1.2.7's envpool.marlgrid) on its own: shapes, rules from hand-made states, state
checks and determinism. The comparison with EnvPool itself is test_marlgrid_envpool.py's."""

from __future__ import annotations

import numpy as np
import pytest
from marlgrid_reference import state_blob

import rlpool

IDS = {  # id: (agents, observation side)
    "MarlGrid-1AgentCluttered15x15-v0": (1, 40),
    "MarlGrid-3AgentCluttered11x11-v0": (3, 56),
    "MarlGrid-3AgentCluttered15x15-v0": (3, 56),
    "MarlGrid-2AgentEmpty9x9-v0": (2, 56),
    "MarlGrid-3AgentEmpty9x9-v0": (3, 56),
    "MarlGrid-4AgentEmpty9x9-v0": (4, 56),
    "Goalcycle-demo-solo-v0": (1, 56),
}
SHADOW = np.array([35, 25, 30], np.uint8)
LEFT, RIGHT, FORWARD, NOOP = 0, 1, 2, 4


def empty_kinds(size: int = 9) -> np.ndarray:
    kinds = np.zeros((size, size), np.uint8)
    kinds[0, :] = kinds[-1, :] = kinds[:, 0] = kinds[:, -1] = 1
    kinds[size - 2, size - 2] = 2  # the goal
    return kinds


@pytest.mark.parametrize("task_id", IDS)
def test_shapes_and_steps(task_id: str) -> None:
    agents, side = IDS[task_id]
    pool = rlpool.make(task_id, num_envs=3, seed=1)
    obs, info = pool.reset()
    assert obs.shape == (3, agents, side, side, 3) and obs.dtype == np.uint8
    assert info["agent_pos"].shape == (3, agents, 2)
    rng = np.random.default_rng(0)
    for _ in range(120):  # past the 100-step limit
        obs, reward, term, trunc, info = pool.step(rng.integers(0, 7, (3, agents)))
        assert reward.shape == term.shape == trunc.shape == (3, agents)
        assert (reward[~info["agent_active"] & ~term] == 0).all()
    pool.close()


def test_goal_finishes_an_agent_then_the_episode() -> None:
    pool = rlpool.make("MarlGrid-2AgentEmpty9x9-v0", num_envs=1, seed=0)
    pool.reset()
    # agent 0 left of the goal facing it; agent 1 in the top-left corner facing down.
    pool.set_state(0, state_blob(empty_kinds(), np.zeros((9, 9)), [[6, 7], [1, 1]], [0, 1]))
    obs, reward, term, trunc, info = pool.step(np.array([[FORWARD, NOOP]]))
    np.testing.assert_allclose(reward[0], [np.float32(1 - 0.9 * 1 / 100), 0])
    assert term[0].tolist() == [True, False] and not trunc.any()
    assert info["agent_active"][0].tolist() == [False, True]
    assert (obs[0, 0] == SHADOW).all()  # a finished agent sees the shadow colour
    # Its actions are ignored and it gets nothing; agent 1 walks to the goal: the episode ends there.
    for t in range(2, 20):
        action = FORWARD if info["agent_pos"][0, 1, 1] < 7 or info["agent_dir"][0, 1] == 0 else LEFT
        obs, reward, term, trunc, info = pool.step(np.array([[FORWARD, action]]))
        assert reward[0, 0] == 0 and term[0, 0] and info["agent_pos"][0, 0].tolist() == [7, 7]
        if term[0, 1]:
            assert reward[0, 1] == np.float32(np.float32(1) - np.float32(0.9) * np.float32(t / 100))
            break
    else:
        pytest.fail("agent 1 never reached the goal")
    assert info["elapsed_step"][0] == t


def test_time_limit_truncates_every_agent() -> None:
    pool = rlpool.make("MarlGrid-3AgentEmpty9x9-v0", num_envs=1, seed=0, max_steps=5)
    assert pool.spec.max_episode_steps == 5
    pool.reset()
    for _ in range(4):
        _, _, term, trunc, _ = pool.step(np.full((1, 3), NOOP))
        assert not (term | trunc).any()
    _, _, term, trunc, _ = pool.step(np.full((1, 3), NOOP))
    assert trunc.all() and not term.any()


def test_goalcycle_rewards_the_cycle() -> None:
    kinds = empty_kinds(13)
    kinds[11, 11] = 0  # no goal
    bonus = np.zeros((13, 13), np.uint8)
    for x, b in ((2, 1), (3, 2), (4, 0), (5, 1)):  # tiles 1, 2, 0, 1 in a row
        kinds[1, x], bonus[1, x] = 4, b
    pool = rlpool.make("Goalcycle-demo-solo-v0", num_envs=1, seed=0, bonus_penalty=0.5)
    pool.reset()
    pool.set_state(0, state_blob(kinds, bonus, [[1, 1]], [0]))
    rewards = [pool.step(np.array([[FORWARD]]))[1][0, 0] for _ in range(4)]
    assert rewards == [1.0, 1.0, 1.0, 1.0]  # the first tile counts; then 2, 0, 1 follow it
    for _ in range(2):
        pool.step(np.array([[LEFT]]))
    rewards = [pool.step(np.array([[FORWARD]]))[1][0, 0] for _ in range(2)]
    assert rewards == [-0.5, 1.0]  # back on 0: out of order (the cycle stays at 1); then 2 follows 1


def test_without_ghosts_agents_block() -> None:
    pool = rlpool.make("MarlGrid-2AgentEmpty9x9-v0", num_envs=1, seed=0, ghost_mode=False)
    pool.reset()
    pool.set_state(0, state_blob(empty_kinds(), np.zeros((9, 9)), [[3, 3], [4, 3]], [0, 1]))
    *_, info = pool.step(np.array([[FORWARD, NOOP]]))
    assert info["agent_pos"][0].tolist() == [[3, 3], [4, 3]]
    ghosts = rlpool.make("MarlGrid-2AgentEmpty9x9-v0", num_envs=1, seed=0)
    ghosts.reset()
    ghosts.set_state(0, state_blob(empty_kinds(), np.zeros((9, 9)), [[3, 3], [4, 3]], [0, 1]))
    *_, info = ghosts.step(np.array([[FORWARD, NOOP]]))
    assert info["agent_pos"][0].tolist() == [[4, 3], [4, 3]]


def test_same_seed_same_episodes_and_state_round_trip() -> None:
    a = rlpool.make("MarlGrid-3AgentCluttered11x11-v0", num_envs=2, seed=7)
    b = rlpool.make("MarlGrid-3AgentCluttered11x11-v0", num_envs=2, seed=7)
    oa, _ = a.reset()
    ob, _ = b.reset()
    assert (oa == ob).all()
    rng = np.random.default_rng(1)
    for _ in range(10):
        act = rng.integers(0, 7, (2, 3))
        ra, rb = a.step(act), b.step(act)
        assert all(np.array_equal(x, y) for x, y in zip(ra[:4], rb[:4], strict=True))
    saved = a.get_state(0)
    assert b.get_state(0) == saved
    a.set_state(0, saved)
    assert a.get_state(0) == saved
    for _ in range(10):
        act = rng.integers(0, 7, (2, 3))
        ra, rb = a.step(act), b.step(act)
        assert all(np.array_equal(x, y) for x, y in zip(ra[:4], rb[:4], strict=True))


def test_bad_states_are_value_errors() -> None:
    pool = rlpool.make("MarlGrid-2AgentEmpty9x9-v0", num_envs=1, seed=0)
    pool.reset()
    good = state_blob(empty_kinds(), np.zeros((9, 9)), [[3, 3], [4, 3]], [0, 1])
    pool.set_state(0, good)
    walled = empty_kinds()
    walled[3, 3] = 1
    no_border = empty_kinds()
    no_border[0, 4] = 0
    bad = {
        "short": good[:-1],
        "long": good + b"\0",
        "magic": b"XLG1" + good[4:],
        "size": good[:4] + bytes([8]) + good[5:],
        "kind": good[:10] + bytes([9]) + good[11:],
        "on a wall": state_blob(walled, np.zeros((9, 9)), [[3, 3], [4, 3]], [0, 1]),
        "border": state_blob(no_border, np.zeros((9, 9)), [[3, 3], [4, 3]], [0, 1]),
        "direction": state_blob(empty_kinds(), np.zeros((9, 9)), [[3, 3], [4, 3]], [0, 4]),
        "outside": state_blob(empty_kinds(), np.zeros((9, 9)), [[3, 3], [9, 3]], [0, 1]),
        "bonus id": state_blob(empty_kinds(), np.ones((9, 9)), [[3, 3], [4, 3]], [0, 1]),
        "occupants": good[:-2] + bytes([0, 0]),
        "empty": b"",
    }
    for name, blob in bad.items():
        with pytest.raises(ValueError):
            pool.set_state(0, blob)
        assert pool.get_state(0) == good, name
    rng = np.random.default_rng(0)
    for _ in range(300):  # random damage: refused or a valid state, never a crash
        blob = bytearray(good)
        for i in rng.integers(0, len(blob), 3):
            blob[i] = int(rng.integers(0, 256))
        try:
            pool.set_state(0, bytes(blob))
        except ValueError:
            continue
        pool.step(np.zeros((1, 2), np.int64))
        pool.set_state(0, good)


def test_render() -> None:
    pool = rlpool.make("MarlGrid-3AgentEmpty9x9-v0", num_envs=1, seed=0, render_mode="rgb_array")
    pool.reset()
    frame = np.asarray(pool.render())
    assert frame.shape[-3:] == (9 * 32, 9 * 32, 3)
    assert (frame.reshape(-1, 3) == [74, 65, 42]).all(-1).any()  # the walls


def test_options_are_checked() -> None:
    for bad in ({"n_agents": 7}, {"env_name": "maze"}, {"observation_format": "rgb"}, {"view_offset": 7},
                {"n_clutter": 100}, {"prestige_scale": 0.0}):
        with pytest.raises(ValueError):
            rlpool.make("MarlGrid-2AgentEmpty9x9-v0", num_envs=1, **bad)
