"""The Jumanji tasks through rlpool's EnvPool layer beside EnvPool 1.2.7 itself (in a CPython 3.13 child).

EnvPool 1.2.7 draws its instances with generators of its own (not from jumanji's keys), so its episodes are
not jumanji's and are not compared; what a script written for EnvPool sees is: the ids (``Jumanji/<id>``,
``Connector-v2``), the observation keys, shapes and dtypes, the action space (a multi-discrete action as an
int32 box), the info keys, the config's keys in EnvPool's order, and the values where rlpool follows EnvPool.
Where EnvPool 1.2.7 differs from jumanji 1.1.2, rlpool follows jumanji; ``DIFFERENT`` lists those, each checked
here. The multi-agent tasks, which EnvPool gives as one env, are checked against rlpool's own pool of the same
seed: the shared entries once, the one reward from the agents', per-env flags.
"""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest
from envpool127 import envpool_python

import rlpool
import rlpool.compat.envpool as envpool
from rlpool.envs.jumanji.envpool import MULTI_AGENT
from rlpool.envs.jumanji.registration import TASKS as ALL_TASKS

TASKS = ALL_TASKS

DIFFERENT: dict[str, dict[str, object]] = {
    "CVRP-v1": {"cvrp_max_capacity": (30, 20)},  # jumanji's UniformGenerator(max_capacity=30)
    "RubiksCube-partly-scrambled-v0": {"rubiks_cube_num_scrambles": (7, 20)},  # jumanji's registration: 7
}
"""Task -> config key -> (rlpool's value, which is jumanji's; EnvPool 1.2.7's)."""

OPTIONS: dict[str, dict[str, object]] = {"Sokoban-v0": {"generator": "toy"}}
"""Options a task is made with here: Sokoban's default Boxoban levels are not on this machine, and neither
are EnvPool's (its own wheel's copy of the test split); the toy levels give the same spaces."""

BOUNDS_DIFFER: dict[str, set[str]] = {
    "Snake-v1": {"step_count"},  # jumanji's spec: 0..time_limit (4001 values); EnvPool's Discrete(4000)
}
"""Observation entries whose bounds are jumanji's observation_spec's where EnvPool declares others."""

DRIVER = """
import json, sys
import envpool
from gymnasium import spaces

def describe(space):
    if isinstance(space, spaces.Dict):
        return {k: describe(v) for k, v in space.spaces.items()}
    if isinstance(space, spaces.Discrete):
        return ["Discrete", "int64", [], int(space.start), int(space.start + space.n - 1)]
    if isinstance(space, spaces.MultiBinary):
        return ["MultiBinary", "bool", list(space.shape), 0, 1]
    return [type(space).__name__, str(space.dtype), list(space.shape), space.low.tolist(), space.high.tolist()]

from envpool.registration import registry

out = {"_ids": [i for i in envpool.list_all_envs() if registry.specs[i][0] == "envpool.jumanji"]}
for task in json.loads(sys.argv[1]):
    spec = envpool.make_spec(task)
    config = {k: v for k, v in spec.config._asdict().items() if k != "base_path"}
    env = envpool.make_gymnasium(task, num_envs=1)
    _, info = env.reset()
    out[task] = {"config": config, "obs": describe(env.observation_space), "action": describe(env.action_space),
                 "info": list(info)}
    if "shelf_positions" in info:
        out[task]["shelf_positions"] = info["shelf_positions"][0].tolist()
    env.close()
print(json.dumps(out))
"""


def describe(space: object) -> object:
    """A space as the driver describes EnvPool's (class, dtype, shape, bounds; a Dict by key)."""
    from gymnasium import spaces

    if isinstance(space, spaces.Dict):
        return {k: describe(v) for k, v in space.spaces.items()}
    if isinstance(space, spaces.Discrete):
        return ["Discrete", "int64", [], int(space.start), int(space.start + space.n - 1)]
    if isinstance(space, spaces.MultiBinary):
        return ["MultiBinary", "bool", list(space.shape), 0, 1]
    assert isinstance(space, spaces.Box), space
    return [type(space).__name__, str(space.dtype), list(space.shape), space.low.tolist(), space.high.tolist()]


@pytest.fixture(scope="module")
def theirs() -> dict:
    python = envpool_python()
    run = subprocess.run([str(python), "-c", DRIVER, json.dumps(sorted(TASKS))], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.splitlines()[-1])


def _flat(tree: object, prefix: str = "") -> dict[str, list]:
    if isinstance(tree, dict):
        out: dict[str, list] = {}
        for key, value in tree.items():
            out.update(_flat(value, f"{prefix}.{key}" if prefix else key))
        return out
    return {prefix: tree}  # type: ignore[dict-item]


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_spaces_and_config_are_envpools(task_id: str, theirs: dict) -> None:
    ref = theirs[task_id]
    env = envpool.make_gymnasium(task_id, num_envs=1, **OPTIONS.get(task_id, {}))
    try:
        ours_obs, ref_obs = _flat(describe(env.observation_space)), _flat(ref["obs"])
        assert list(ours_obs) == list(ref_obs)  # the keys, in EnvPool's order
        for key, (kind, dtype, shape, low, high) in ref_obs.items():
            got = ours_obs[key]
            assert got[1:3] == [dtype, shape], (task_id, key, got, ref_obs[key])
            if key not in BOUNDS_DIFFER.get(task_id, set()):
                assert got == [kind, dtype, shape, low, high], (task_id, key, got, ref_obs[key])
        assert describe(env.action_space) == ref["action"]
        _, info = env.reset()
        assert [k for k in info if k in ref["info"]] == ref["info"]  # in order; jumanji's other extras too
        if "shelf_positions" in ref:  # the warehouse's layout, which no seed changes
            assert np.asarray(info["shelf_positions"])[0].tolist() == ref["shelf_positions"]
        config = envpool.make_spec(task_id, **OPTIONS.get(task_id, {})).config._asdict()
        expected = dict(ref["config"])
        for key, (ours, _) in DIFFERENT.get(task_id, {}).items():
            assert expected[key] == DIFFERENT[task_id][key][1]
            expected[key] = ours
        tail = list(expected)[list(expected).index("max_episode_steps"):]
        got = list(config)[list(config).index("max_episode_steps"):]
        assert [k for k in got if k in expected] == tail
        for key in tail:
            assert np.asarray(config[key]).tolist() == np.asarray(expected[key]).tolist(), (task_id, key)
    finally:
        env.close()


def test_every_envpool_id_is_here(theirs: dict) -> None:
    ids = set(envpool.list_all_envs())
    assert len(theirs["_ids"]) == 54
    assert [i for i in theirs["_ids"] if i not in ids] == []
    for task_id in TASKS:
        assert f"Jumanji/{task_id}" in ids


def test_envpool_keys_refused_or_mapped() -> None:
    task_id = sorted(TASKS)[0]
    key = next(k for k, v in envpool.make_spec(task_id).config._asdict().items()
               if v == "" and k not in ("env_seed",))
    with pytest.raises(envpool.EnvPoolError, match=key):
        envpool.make_gymnasium(task_id, num_envs=1, **{key: "1,2"})
    envpool.make_gymnasium(task_id, num_envs=1, **{key: ""}).close()
    if "CVRP-v1" in TASKS:
        env = envpool.make_gymnasium("CVRP-v1", num_envs=1, cvrp_max_capacity=20)
        try:
            assert env.spec.config.cvrp_max_capacity == 20
            obs, _ = env.reset()
            assert np.allclose(obs["demands"][0] * 20, np.round(obs["demands"][0] * 20))
        finally:
            env.close()


@pytest.mark.parametrize("task_id", sorted(set(MULTI_AGENT) & set(ALL_TASKS)))
def test_multi_agent_tasks_as_one_env(task_id: str) -> None:
    form = MULTI_AGENT[task_id]
    ours = envpool.make_gymnasium(task_id, num_envs=3, seed=5)
    native = rlpool.make_gymnasium(task_id, num_envs=3, seed=5)
    try:
        obs, info = ours.reset()
        nobs, _ = native.reset()
        rng = np.random.default_rng(0)
        key = form.get("agent_rewards")
        for _ in range(30):
            action = native.action_space.sample()
            mask = nobs.get("action_mask")
            if mask is not None:  # legal choices, so that episodes move on
                action = np.array([[rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env] for env in mask])
            obs, reward, terminated, truncated, info = ours.step(action.astype(ours.action_space.dtype))
            nobs, nreward, nterm, ntrunc, _ = native.step(action)
            for name, value in flatten(obs).items():
                theirs = flatten(nobs)[name]
                want = theirs[:, 0] if name in form["shared"] else theirs
                if name in form["shared"]:
                    assert (theirs == theirs[:, :1]).all(), name
                np.testing.assert_array_equal(value, want, err_msg=name)
            combine = form.get("reward", "sum")
            want = {"sum": nreward.sum(1), "mean": nreward.mean(1), "shared": nreward[:, 0]}[combine]
            np.testing.assert_allclose(reward, want.astype(np.float32), rtol=1e-6, atol=1e-7)
            assert reward.shape == terminated.shape == truncated.shape == (3,)
            np.testing.assert_array_equal(terminated, nterm.all(1))
            np.testing.assert_array_equal(truncated, ntrunc.any(1) & (nterm | ntrunc).all(1))
            if key:
                np.testing.assert_array_equal(info[key], nreward.astype(np.float32))
        if form.get("reward", "sum") == "shared":  # the check can fail: a per-agent sum would differ
            assert not np.allclose(nreward.sum(1), nreward[:, 0]) or not nreward.any()
        with pytest.raises(RuntimeError, match="agents as one env"):
            ours.xla()
        with pytest.raises(ValueError, match="SameStep"):
            envpool.make_gymnasium(task_id, num_envs=1, autoreset_mode="SameStep")
        dm = envpool.make_dm(task_id, num_envs=2, seed=5)
        step = dm.step(np.stack([ours.action_space.sample() for _ in range(2)]))
        assert step.reward.shape == step.discount.shape == (2,)
        dm.close()
    finally:
        ours.close()
        native.close()


def flatten(tree: dict, prefix: str = "") -> dict[str, np.ndarray]:
    """A nested dict observation's arrays by dotted name."""
    out: dict[str, np.ndarray] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = np.asarray(value)
    return out


def test_connector_v2_is_connector_v3() -> None:
    assert "Connector-v2" in envpool.list_all_envs() and "Jumanji/Connector-v2" in envpool.list_all_envs()
    env = envpool.make_gymnasium("Connector-v2", num_envs=1, seed=1)
    other = envpool.make_gymnasium("Connector-v3", num_envs=1, seed=1)
    try:
        np.testing.assert_array_equal(env.reset()[0]["grid"], other.reset()[0]["grid"])
    finally:
        env.close()
        other.close()
