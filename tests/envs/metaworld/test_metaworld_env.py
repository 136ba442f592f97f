"""rlpool's MetaWorld tasks as a family: ids, benchmark pools, saved states, determinism, bad input, assets.

The step-by-step comparison with metaworld is test_metaworld_parity.py; the distributions of resets are
test_metaworld_distributions.py; EnvPool's face is test_metaworld_envpool.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import rlpool
from rlpool.envs import metaworld
from rlpool.envs.metaworld import benchmarks

IDS = json.loads((Path(__file__).resolve().parents[3].parent / "shared" / "envpool-1.2.7-ids.json").read_text()) \
    if (Path(__file__).resolve().parents[3].parent / "shared" / "envpool-1.2.7-ids.json").is_file() else None


def test_every_envpool_id_is_registered() -> None:
    ids = {f"MetaWorld/{benchmarks.envpool_name(t)}" for t in benchmarks.ALL_TASKS}
    assert len(ids) == 50
    assert ids <= set(rlpool.list_all_envs())
    if IDS is not None:
        envpool = {k for k, v in IDS.items() if v == "envpool.mujoco.metaworld"}
        assert envpool == ids


@pytest.mark.parametrize("task", benchmarks.ALL_TASKS)
def test_every_task_steps_through_every_face(task: str) -> None:
    task_id = f"MetaWorld/{benchmarks.envpool_name(task)}"
    env = rlpool.make(task_id, num_envs=2, seed=0)
    obs, info = env.reset()
    assert obs.shape == (2, 39) and obs.dtype == np.float64
    assert list(info["task_id"]) == [benchmarks.ALL_TASKS.index(task)] * 2
    obs, reward, terminated, truncated, info = env.step(np.zeros((2, 4), np.float32))
    assert np.all(np.isfinite(obs)) and np.all(np.isfinite(reward)) and not terminated.any()
    env.close()
    dm = rlpool.make_dm(task_id, num_envs=1, seed=0)
    step = dm.reset()
    assert step.observation.obs.shape == (1, 39)
    dm.close()


@pytest.mark.parametrize(("name", "tasks"), [("MT10", benchmarks.MT10), ("ML10-train", benchmarks.ML10_TRAIN),
                                              ("ML10-test", benchmarks.ML10_TEST)])
def test_a_benchmark_is_one_pool(name: str, tasks: tuple[str, ...]) -> None:
    """Env i runs the i-th task of the set; fixed goals are the same for every env of a task."""
    n = len(tasks)
    env = rlpool.make(f"MetaWorld/{name}-v3", num_envs=2 * n, seed=0, use_one_hot=True)
    obs, info = env.reset()
    assert obs.shape == (2 * n, 39 + n)
    index = np.arange(2 * n) % n
    np.testing.assert_array_equal(info["task_index"], index)
    np.testing.assert_array_equal(info["task_id"], [benchmarks.ALL_TASKS.index(tasks[i]) for i in index])
    np.testing.assert_array_equal(obs[:, 39:], np.eye(n)[index])
    observed = name.startswith("MT")
    assert np.any(obs[:, 36:39] != 0) == observed
    # 50 fixed goals per task: over many resets, env i and env i + n draw from the same set.
    goals: list[set[tuple[float, ...]]] = [set() for _ in range(2 * n)]
    for _ in range(30):
        obs, _ = env.reset()
        for i in range(2 * n):
            goals[i].add(tuple(np.round(obs[i, 4:7], 6)))
    for i in range(n):
        assert len(goals[i]) <= benchmarks.NUM_GOALS
        assert goals[i] & goals[i + n]
    env.close()


def test_goal_seed_picks_the_goal_set() -> None:
    def goal_sets(seed: int) -> list[set[tuple[float, ...]]]:
        env = rlpool.make("MetaWorld/MT10-v3", num_envs=10, seed=0, goal_seed=seed, num_goals=2)
        found: list[set[tuple[float, ...]]] = [set() for _ in range(10)]
        for _ in range(20):
            obs, _ = env.reset()
            for i in range(10):
                found[i].add(tuple(obs[i, 36:39]))
        env.close()
        return found

    a, b, c = goal_sets(0), goal_sets(0), goal_sets(1)
    assert a == b and a != c
    assert all(len(s) <= 2 for s in a)


@pytest.mark.parametrize("task_id", ["MetaWorld/PickPlace-v3", "MetaWorld/ML10-train-v3"])
def test_same_seed_same_trajectories_whatever_the_threads(task_id: str) -> None:
    def run(**kwargs: object) -> list[np.ndarray]:
        env = rlpool.make(task_id, num_envs=10, seed=7, max_episode_steps=40, **kwargs)
        rng = np.random.default_rng(0)
        out = [env.reset()[0]]
        for _ in range(60):
            obs, reward, *_ = env.step(rng.uniform(-1, 1, (10, 4)).astype(np.float32))
            out += [obs, reward]
        env.close()
        return out

    one = run(num_threads=1)
    for a, b in zip(one, run(num_threads=3), strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_saved_state_continues_exactly() -> None:
    env = rlpool.make("MetaWorld/Assembly-v3", num_envs=1, seed=3)
    env.reset()
    actions = np.random.default_rng(0).uniform(-1, 1, (40, 1, 4)).astype(np.float32)
    for a in actions[:20]:
        env.step(a)
    state = env.get_state(0)
    first = [env.step(a) for a in actions[20:]]
    env.set_state(0, state)
    again = [env.step(a) for a in actions[20:]]
    for x, y in zip(first, again, strict=True):
        np.testing.assert_array_equal(x[0], y[0])
        np.testing.assert_array_equal(x[1], y[1])
    env.close()


def test_bad_input_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown MetaWorld task 'pick-plaice-v3'"):
        rlpool.make("MetaWorld/MT10-v3", num_envs=1, task_name="reach-v3,pick-plaice-v3")
    with pytest.raises(ValueError, match="num_goals"):
        rlpool.make("MetaWorld/Reach-v3", num_envs=1, num_goals=-1)
    env = rlpool.make("MetaWorld/Reach-v3", num_envs=1, seed=0)
    env.reset()
    other = rlpool.make("MetaWorld/Push-v3", num_envs=1, seed=0)
    other.reset()
    with pytest.raises(ValueError, match="push-v3"):
        env.set_state(0, other.get_state(0))
    state = env.get_state(0)
    with pytest.raises(ValueError, match="shorter"):
        env.set_state(0, state[:-5])
    with pytest.raises(ValueError, match="not a MetaWorld env state"):
        env.set_state(0, b"x" + state)
    nan = bytearray(state)
    nan[-8:] = np.float64(np.nan).tobytes()
    with pytest.raises(ValueError, match="finite"):
        env.set_state(0, bytes(nan))
    env.step(np.zeros((1, 4), np.float32))
    env.close()
    other.close()


def test_missing_assets_raise_an_import_error_naming_what_to_do(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(metaworld, "_installed_assets", lambda: None)

    def no_network(wheel: object, folder: Path, **kwargs: object) -> Path:
        raise metaworld.MetaWorldUnavailableError("the MetaWorld tasks need metaworld 3.1.1's models (no network)")

    monkeypatch.setattr(metaworld.pinned_wheel, "download", no_network)
    with pytest.raises(ImportError, match=r"metaworld 3\.1\.1"):
        metaworld.assets_dir()
