"""The typed spec every API face reads (rlpool.arrays): built once from the engine's description."""

import numpy as np
import pytest
from gymnasium import spaces
from lane import build_missing, require

import rlpool
import rlpool.registry
from rlpool.arrays import Arrays, ArraySpec, map_nested, nest


def _entry(name="obs", dtype="float32", shape=(2,), low=(), high=()):
    return {"name": name, "dtype": dtype, "shape": shape, "low": list(low), "high": list(high)}


def _core(obs, kind, action=None):
    action = action or _entry("action", "int64", (), [0], [3])
    render = {"render_width": 0, "render_height": 0, "render_any_size": False, "render_fps": 30.0,
              "render_cameras": 0}
    return {"obs": obs, "obs_kind": kind, "action": action, "info": [], "has_discount": False, **render}


def test_bounds_broadcast_and_unbounded_entries_are_infinite() -> None:
    a = ArraySpec.from_core(_entry(shape=(2, 3), low=[-1.0], high=[1, 2, 3, 4, 5, 6]))
    assert a.bounded and a.low.shape == (2, 3) and (a.low == -1).all()
    assert a.high[1, 2] == 6 and not a.high.flags.writeable
    b = ArraySpec.from_core(_entry())
    assert not b.bounded and np.isneginf(b.low).all() and np.isposinf(b.high).all()


def test_the_kind_is_read_never_inferred() -> None:
    one = [_entry("obs")]
    assert Arrays.from_core(_core(one, "dict")).obs_kind == "dict"  # one entry named obs can still be a dict
    with pytest.raises(ValueError, match="exactly one"):
        Arrays.from_core(_core([_entry("a"), _entry("b")], "array"))
    with pytest.raises(ValueError, match="unknown obs_kind"):
        Arrays.from_core(_core(one, "list"))
    with pytest.raises(ValueError, match="unknown dtype"):
        ArraySpec.from_core(_entry(dtype="float16"))


def test_every_task_has_typed_arrays_matching_its_spaces() -> None:
    for task_id in rlpool.list_all_envs():
        if rlpool.registry.unavailable(task_id):
            continue  # reported below
        spec = rlpool.make_spec(task_id)
        arrays = spec.arrays
        space = spec.observation_space
        if arrays.obs_kind == "array":
            # A bool array's space is MultiBinary (int8, as EnvPool and gymnasium have it), which holds bools.
            dtype = np.dtype(np.int8) if arrays.obs[0].dtype == np.bool_ else arrays.obs[0].dtype
            assert space.dtype == dtype and space.shape == arrays.obs[0].shape, task_id
        elif arrays.obs_kind == "dict":  # an entry per leaf, nested Dicts for "outer.inner" names
            leaves = [(k, i) for k, s in space.spaces.items()
                      for i in (s.spaces if isinstance(s, spaces.Dict) else [None])]
            assert [k if i is None else f"{k}.{i}" for k, i in leaves] == list(arrays.obs_names), task_id
        else:
            assert len(space.spaces) == len(arrays.obs), task_id
        if arrays.discrete_action and arrays.action.shape:  # one choice per agent, or a MultiDiscrete's choices
            assert (spec.action_space.nvec == arrays.action_nvec).all(), task_id
            if arrays.num_agents:
                assert (spec.action_space.nvec == arrays.num_actions).all(), task_id
        elif arrays.discrete_action:
            assert spec.action_space.n == arrays.num_actions, task_id
        else:
            assert spec.action_space.shape == arrays.action.shape, task_id
    require(build_missing())


def test_nested_entries_and_hidden_info() -> None:
    names = ["pos", "goal.b", "goal.a", "seen.x", "vel"]
    core = _core([_entry(n) for n in names], "dict")
    core["info"] = [_entry("count", "int32", ()), _entry("_distance", "float64", ())]
    arrays = Arrays.from_core(core)
    assert arrays.nested_obs and arrays.obs_names == tuple(names)
    tree = arrays.obs_tree
    assert list(tree) == ["pos", "goal", "seen", "vel"] and list(tree["goal"]) == ["b", "a"]  # not sorted
    assert tree["seen"]["x"].name == "seen.x"
    assert nest((n, i) for i, n in enumerate(names)) == {"pos": 0, "goal": {"b": 1, "a": 2}, "seen": {"x": 3},
                                                          "vel": 4}
    assert map_nested({"a": 1, "b": {"c": 2}}, lambda v: v * 10) == {"a": 10, "b": {"c": 20}}
    assert [a.name for a in arrays.info] == ["count", "_distance"]  # every entry the env writes
    assert arrays.info_names == ("count",) and [a.name for a in arrays.shown_info] == ["count"]
    flat = Arrays.from_core(_core([_entry("a"), _entry("b")], "dict"))
    assert not flat.nested_obs and list(flat.obs_tree) == ["a", "b"]
    assert not Arrays.from_core(_core([_entry("a.b"), _entry("c.d")], "tuple")).nested_obs  # a tuple has no keys
    with pytest.raises(ValueError, match="not a dict"):
        _ = Arrays.from_core(_core([_entry("a")], "array")).obs_tree


def test_an_unavailable_task_says_why_and_making_it_raises_that() -> None:
    # A build without a library an env type needs (ViZDoom without Boost) keeps its ids registered: making one
    # raises the reason, which names what to install. Where every type was built, none is unavailable.
    unavailable = {t: rlpool.registry.unavailable(t) for t in rlpool.list_all_envs()}
    for task_id, reason in unavailable.items():
        if reason is None:
            continue
        assert "install" in reason, reason
        with pytest.raises(RuntimeError) as e:
            rlpool.make_spec(task_id)
        assert str(e.value) == reason
    assert rlpool.registry.unavailable("CartPole-v1") is None
    with pytest.raises(ValueError, match="unknown"):
        rlpool.registry.unavailable("NoSuchTask-v0")
