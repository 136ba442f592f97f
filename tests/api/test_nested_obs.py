"""Nested dict observations and hidden info entries on every face of rlpool.

NestedDict-v0 (the testing family) has a dict observation whose entries named ``"outer.inner"`` form
nested dicts, and a hidden info entry ``_distance`` beside the shown ``count``. Its element j of entry k
(in entry order) is 1000 k + 10 j + start + t, so every value says which entry it came from; the checks
read each face's output against that formula and against the flat arrays of the pool itself.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

import rlpool
import rlpool.registry

TASK = "NestedDict-v0"
# NestedDict's default obs_names: entry k is the k-th name, of shape (k + 1,).
NAMES = ("observation", "desired_goal.b", "desired_goal.a", "achieved_goal.b", "achieved_goal.a")


def _box(k: int) -> spaces.Box:
    return spaces.Box(-np.inf, np.inf, (k + 1,), np.float64)


def expected_space() -> spaces.Dict:
    """The single-env space by hand: outer keys in first-appearance order, inner keys in entry order."""
    return spaces.Dict(OrderedDict([
        ("observation", _box(0)),
        ("desired_goal", spaces.Dict(OrderedDict([("b", _box(1)), ("a", _box(2))]))),
        ("achieved_goal", spaces.Dict(OrderedDict([("b", _box(3)), ("a", _box(4))]))),
    ]))


def leaves(obs: dict[str, Any]) -> dict[str, Any]:
    """A nested observation's arrays by their entry names ("outer.inner")."""
    out = {}
    for k, v in obs.items():
        if isinstance(v, dict):
            out.update({f"{k}.{inner}": a for inner, a in v.items()})
        else:
            out[k] = v
    return out


def check_values(obs: dict[str, Any], count: Any) -> None:
    """``obs`` (a batch, or one env's with ``count`` a scalar) holds NestedDict's values, each entry its own."""
    flat = leaves(obs)
    assert tuple(flat) == NAMES
    base = np.asarray(flat["observation"])[..., 0] - np.asarray(count)  # start, per row
    for k, name in enumerate(NAMES):
        value = np.asarray(flat[name])
        assert value.shape[-1] == k + 1, name
        want = 1000 * k + 10 * np.arange(k + 1) + np.asarray(base + count)[..., None]
        np.testing.assert_array_equal(value, want, err_msg=name)


def test_spaces_are_nested_dicts_in_entry_order():
    spec = rlpool.make_spec(TASK)
    space = spec.observation_space
    assert space == expected_space()
    assert list(space.spaces) == ["observation", "desired_goal", "achieved_goal"]  # first appearance, not sorted
    assert list(space["desired_goal"].spaces) == ["b", "a"]  # entry order
    assert spec.arrays.obs_names == NAMES and spec.arrays.nested_obs
    assert list(spec.arrays.obs_tree["achieved_goal"]) == ["b", "a"]
    env = rlpool.make(TASK, num_envs=3)
    assert env.single_observation_space == expected_space()
    assert isinstance(env.observation_space["achieved_goal"], spaces.Dict)
    assert env.observation_space["achieved_goal"]["a"].shape == (3, 5)
    env.close()


def test_a_flat_dict_is_unchanged():
    spec = rlpool.make_spec(TASK, obs_names="x,y")
    assert not spec.arrays.nested_obs
    assert spec.observation_space == spaces.Dict(OrderedDict([("x", _box(0)), ("y", _box(1))]))
    env = rlpool.make(TASK, num_envs=2, obs_names="x,y")
    obs, _ = env.reset()
    assert list(obs) == ["x", "y"] and obs["y"].shape == (2, 2)
    env.close()


@pytest.mark.parametrize("batch_size", [4, 2])
def test_vector_face_gives_nested_views(batch_size):
    env = rlpool.make(TASK, num_envs=4, batch_size=batch_size, seed=1, num_threads=2)
    if batch_size == 4:
        obs, info = env.reset()
    else:
        env.async_reset()
        obs, _, _, _, info = env.recv()
    assert list(obs) == ["observation", "desired_goal", "achieved_goal"]
    assert list(obs["achieved_goal"]) == ["b", "a"]
    check_values(obs, info["count"])
    assert env.observation_space.contains(obs)
    for t in range(7):
        if batch_size == 4:
            obs, reward, terminated, truncated, info = env.step(np.full(4, t % 3))
        else:
            env.send(np.full(batch_size, t % 3), info["env_id"])
            obs, reward, terminated, truncated, info = env.recv()
        check_values(obs, info["count"])
        # Views of the pool's own buffers, no copies: every array is a view of a batch block.
        for value in leaves(obs).values():
            assert value.base is not None and not value.flags.owndata
        assert "_distance" not in info and "_rlpool_final" not in info
    env.close()


def test_same_step_final_obs_are_nested_per_env_copies():
    env = rlpool.make(TASK, num_envs=3, seed=4, autoreset_mode="SameStep", episode_length=3)
    env.reset()
    ended = 0
    for _ in range(7):
        obs, _, terminated, truncated, info = env.step(np.zeros(3, np.int64))
        check_values(obs, info["count"])
        if not (terminated | truncated).any():
            continue
        assert "_distance" not in info["final_info"] and "count" in info["final_info"]
        for i in np.flatnonzero(info["_final_obs"]):
            final = info["final_obs"][i]
            assert isinstance(final["desired_goal"], dict) and list(final["desired_goal"]) == ["b", "a"]
            check_values(final, info["final_info"]["count"][i])
            assert env.single_observation_space.contains(final)
            assert final["achieved_goal"]["a"].flags.owndata  # a copy, not a view of the batch
            ended += 1
    assert ended > 0
    env.close()


def test_single_env_rows_are_nested_and_in_the_space():
    env = gymnasium.make(f"rlpool/{TASK}")
    assert env.observation_space == expected_space()
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    check_values(obs, info["count"])
    assert set(info) == {"env_id", "elapsed_step", "count"}
    for _ in range(3):
        obs, _, _, _, info = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs)
        check_values(obs, info["count"])
    env.close()
    check_env(gymnasium.make(f"rlpool/{TASK}").unwrapped, skip_render_check=True)
    vec = gymnasium.make_vec(f"rlpool/{TASK}", num_envs=2, vectorization_mode="sync")
    obs, _ = vec.reset(seed=0)
    assert vec.observation_space.contains(obs)
    vec.close()


def test_gym_face():
    env = rlpool.make_gym(TASK, num_envs=2)
    obs, info = env.reset()
    check_values(obs, info["count"])
    obs, _, _, info = env.step(np.ones(2, np.int64))
    check_values(obs, info["count"])
    assert env.observation_space == expected_space() and "_distance" not in info
    env.close()


def test_dm_face_nests_ordered_dicts():
    env = rlpool.make_dm(TASK, num_envs=2)
    spec = env.observation_spec()
    assert spec._fields == ("observation", "desired_goal", "achieved_goal", "env_id", "elapsed_step", "count")
    assert isinstance(spec.achieved_goal, OrderedDict) and list(spec.achieved_goal) == ["b", "a"]
    assert spec.achieved_goal["a"].shape == (5,) and spec.observation.shape == (1,)
    for ts in (env.reset(), env.step(np.ones(2, np.int64))):
        o = ts.observation
        assert type(o).__name__ == "Observation" and isinstance(o.desired_goal, OrderedDict)
        check_values({k: getattr(o, k) for k in ("observation", "desired_goal", "achieved_goal")}, o.count)
        for name in ("desired_goal", "achieved_goal"):
            for key, s in getattr(spec, name).items():
                s.validate(getattr(o, name)[key][0])
    env.close()


def test_hidden_info_is_left_out_by_every_face():
    spec = rlpool.make_spec(TASK)
    assert [a.name for a in spec.arrays.info] == ["count", "_distance"]  # what the env writes
    assert spec.arrays.info_names == ("count",) and [a.name for a in spec.arrays.shown_info] == ["count"]
    env = rlpool.make(TASK, num_envs=2)
    assert env._pool.info_keys == [("env_id", "env_id"), ("elapsed_step", "elapsed_step"), ("count", "count")]
    _, info = env.reset()
    assert set(info) == {"env_id", "elapsed_step", "count"}
    assert "_distance" not in rlpool.make_dm(TASK).observation_spec()._fields
    env.close()


def test_a_layer_shows_hidden_info_under_its_own_key():
    env = rlpool.make(TASK, num_envs=2, seed=0)
    env._pool.info_keys = [("env_id", "env_id"), ("distance", "_distance"), ("more.steps", "count")]
    env.reset()
    for t in range(1, 4):
        _, _, _, _, info = env.step(np.zeros(2, np.int64))
        assert set(info) == {"env_id", "distance", "more"}
        np.testing.assert_array_equal(info["distance"], np.full(2, 0.5 * t))
        np.testing.assert_array_equal(info["more"]["steps"], np.full(2, t))
    # The hidden field is named by its name; an unknown one is refused, listing the fields (hidden ones too).
    with pytest.raises(ValueError, match=r"'distance', which is not a field.*_distance"):
        env._pool.info_keys = [("env_id", "env_id"), ("d", "distance")]
    with pytest.raises(ValueError, match="_rlpool"):
        env._pool.info_keys = [("_rlpool_x", "_distance")]
    env._pool.info_keys = [("env_id", "env_id"), ("_distance", "_distance")]  # under its own name, if asked
    assert set(env.step(np.zeros(2, np.int64))[4]) == {"env_id", "_distance"}
    env.close()


@pytest.mark.parametrize(("names", "match"), [
    ("a.b.c", "more than one '.'"),
    ("a,.b", "empty"),
    ("a.", "empty"),
    ("x,x", "declared twice"),
    ("a,a.b", "'a' is both an observation entry and a nested dict"),
    ("a.b,a", "'a' is both an observation entry and a nested dict"),
])
def test_bad_observation_names_are_refused_when_the_spec_is_made(names, match):
    with pytest.raises(ValueError, match=rf"env type 'NestedDict': observation entry .*{match}"):
        rlpool.make_spec(TASK, obs_names=names)
    # The engine's own pool refuses them too (a pool made without a spec).
    config = dict(rlpool.make_spec(TASK).env_config, obs_names=names)
    with pytest.raises(ValueError, match=match):
        rlpool._rlpool_core.Pool("NestedDict", config, 1, 1, 1, -1, [0], 10, "NextStep")


def test_franka_kitchen_is_nested():
    task = "FrankaKitchen-v1"
    if task not in rlpool.list_all_envs() or rlpool.registry.unavailable(task):
        pytest.skip(f"{task} is not built")
    env = rlpool.make(task, num_envs=2)
    obs, _ = env.reset()
    assert set(obs) == {"observation", "achieved_goal", "desired_goal"}
    assert isinstance(obs["achieved_goal"], dict) and obs["achieved_goal"]["kettle"].shape == (2, 7)
    space = env.single_observation_space
    assert isinstance(space["desired_goal"], spaces.Dict) and space["desired_goal"]["kettle"].shape == (7,)
    assert env.observation_space.contains(obs)
    env.close()
