"""The MyoSuite tasks through rlpool.compat.envpool, against the EnvPool installed beside it (1.2.5 or 1.2.7).

EnvPool has MyoSuite from 1.2.5 (myosuite 2.11.6, rlpool's version; 1.2.7 follows myosuite 2.12.2) with the
same 796 ids, config, spaces, array specs and info entries in both. For a pose, a reach, a motorFinger and a
Sarc id, and an id in its ``MyoSuite/`` spelling, the test checks side by side in one process: the config
(keys in order and values, but ``base_path``), the observation and action spaces, the array specs (with
``frame_stack`` and ``from_pixels`` too), and on the gymnasium and dm faces the shapes and dtypes of every
observation, reward and info entry, with EnvPool's info keys in EnvPool's order where rlpool has them.

Values: EnvPool's MyoSuite is its own C++ port with its own random streams, so a ``*Random`` task's episodes
differ (and EnvPool 1.2.5 starts every env of every seed the same). A ``*Fixed`` task starts from the model's
initial state and a fixed target in both, so there the reset observation and a few steps of a constant action
are compared: equal up to float32 rounding (rlpool's observation is myosuite's float32, widened to EnvPool's
float64), rewards, ``sparse`` and ``solved`` too (after the reset, whose info EnvPool leaves at 0 where
rlpool gives myosuite's values of the reset state); a slightly different action is caught by the same check.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest
from lane import REPO

import rlpool.compat.envpool as compat

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        import envpool
        from envpool.registration import registry as envpool_registry
    except ImportError:
        envpool = None

needs_envpool = pytest.mark.skipif(envpool is None, reason="envpool is not installed")
FAMILY = "envpool.mujoco.myosuite"
ENVPOOL_IDS = sorted(t for t, entry in envpool_registry.specs.items() if entry[0] == FAMILY) if envpool else []
SHARED_IDS = REPO.parent / "shared" / "envpool-1.2.7-ids.json"
SAMPLE = ["myoHandPoseRandom-v0", "myoFingerReachFixed-v0", "motorFingerPoseRandom-v0",
          "myoSarcHandReachRandom-v0", "MyoSuite/myoElbowPose1D6MExoRandom-v0"]
FIXED = ["myoFingerReachFixed-v0", "motorFingerPoseFixed-v0", "myoSarcHandPoseFixed-v0"]
ENVPOOL_ONLY_INFO = {"task_id", "oracle_numpy2_broken", "model_nq", "model_nv", "model_na", "model_nu",
                     "model_nsite", "model_nbody", "model_ngeom", "model_nhfielddata", "model_nmocap"}
"""EnvPool's info entries that rlpool's layout does not give (its metadata and model sizes)."""


def _only_envpool(keys: list[str]) -> set[str]:
    return {k.removeprefix("info:") for k in keys if k.removeprefix("info:") in ENVPOOL_ONLY_INFO}


@needs_envpool
def test_the_ids_are_envpools() -> None:
    assert len(ENVPOOL_IDS) == 796
    assert {t for t in ENVPOOL_IDS if t.startswith("MyoSuite/")} == {f"MyoSuite/{t}" for t in ENVPOOL_IDS
                                                                      if not t.startswith("MyoSuite/")}
    if SHARED_IDS.is_file():
        assert ENVPOOL_IDS == sorted(k for k, v in json.loads(SHARED_IDS.read_text()).items() if v == FAMILY)
    ours = [t for t in compat.list_all_envs() if t in set(ENVPOOL_IDS)]
    assert set(SAMPLE + FIXED) <= set(ours)
    assert {t.removeprefix("MyoSuite/") for t in ours} == {t for t in ours if not t.startswith("MyoSuite/")}


def _same_specs(ours: Any, theirs: Any) -> None:
    a, b = ours.config._asdict(), theirs.config._asdict()
    assert list(a)[: len(b)] == list(b) or "from_pixels" in a
    assert {k: v for k, v in a.items() if k in b and k != "base_path"} == {
        k: v for k, v in b.items() if k in a and k != "base_path"}
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    mine, envpools = ours.state_array_spec, theirs.state_array_spec
    common = [k for k in envpools if k in mine]
    assert [k for k in mine if k in envpools] == common
    assert {k: repr(mine[k]) for k in common} == {k: repr(envpools[k]) for k in common}
    assert {k: repr(v) for k, v in ours.action_array_spec.items()} == {
        k: repr(v) for k, v in theirs.action_array_spec.items()}


@needs_envpool
@pytest.mark.parametrize("task_id", SAMPLE)
def test_specs_like_envpool(task_id: str) -> None:
    ours, theirs = compat.make_spec(task_id), envpool.make_spec(task_id)
    _same_specs(ours, theirs)
    assert list(ours.config._asdict()) == [*theirs.config._asdict(), "autoreset_mode"]
    assert ours.config.task_name == theirs.config.task_name == task_id.removeprefix("MyoSuite/")
    assert _only_envpool(list(theirs.state_array_spec)) == ENVPOOL_ONLY_INFO
    assert set(theirs.state_array_spec) - set(ours.state_array_spec) == {f"info:{k}" for k in ENVPOOL_ONLY_INFO}
    assert ours.observation_space.dtype == np.float64 and ours.action_space.dtype == np.float32
    _same_specs(compat.make_spec(task_id, frame_stack=3), envpool.make_spec(task_id, frame_stack=3))
    other = {"task_name": "myoHandPoseRandom-v0"}  # EnvPool runs the task a call names
    _same_specs(compat.make_spec(task_id, **other), envpool.make_spec(task_id, **other))
    # Pixels: the spec only (EnvPool 1.2.5 aborts the process where it finds no OpenGL). EnvPool's frames are
    # its state's "obs:pixels"; its config has the render size and camera where rlpool's has from_pixels.
    ours, theirs = compat.make_spec(task_id, from_pixels=True), envpool.make_spec(task_id, from_pixels=True)
    assert ours.observation_space == theirs.observation_space
    keys = list(theirs.config._asdict())
    assert list(ours.config._asdict()) == [*keys[: keys.index("task_name") + 1], "from_pixels", "autoreset_mode"]
    assert repr(ours.state_array_spec["obs"]) == repr(theirs.state_array_spec["obs:pixels"])


def _layout(value: Any) -> Any:
    if isinstance(value, dict):
        return [(k, _layout(v)) for k, v in value.items()]
    if hasattr(value, "_asdict"):
        return [(k, _layout(v)) for k, v in value._asdict().items()]
    return (np.asarray(value).dtype.str, np.shape(value))


def _common(layout: list[tuple[str, Any]], other: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    keys = {k for k, _ in other}
    return [(k, v) for k, v in layout if k in keys]


def _gymnasium(module: Any, task_id: str, action: float, steps: int = 3) -> list[tuple]:
    envs = module.make_gymnasium(task_id, num_envs=2, seed=4)
    obs, info = envs.reset()
    out = [(obs, info)]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = envs.step(
            np.full((2, *envs.action_space.shape), action, np.float32))
        out.append((obs, info, reward, terminated, truncated))
    envs.close()
    return out


@needs_envpool
@pytest.mark.parametrize("task_id", SAMPLE)
def test_steps_like_envpool(task_id: str) -> None:
    ours, theirs = _gymnasium(compat, task_id, 0.3), _gymnasium(envpool, task_id, 0.3)
    for mine, envpools in zip(ours, theirs, strict=True):
        assert _layout(mine[0]) == _layout(envpools[0])
        mine_info, envpools_info = _layout(mine[1]), _layout(envpools[1])
        assert _common(mine_info, envpools_info) == _common(envpools_info, mine_info)
        assert set(envpools[1]) - set(mine[1]) == ENVPOOL_ONLY_INFO
        assert [k for k in mine[1]][:4] == ["env_id", "players", "sparse", "solved"]
        assert list(mine[1])[-1] == list(envpools[1])[-1] == "elapsed_step"
        assert all(m.dtype == e.dtype and m.shape == e.shape for m, e in zip(mine[2:], envpools[2:], strict=True))
    for module in (compat, envpool):
        envs = module.make_dm(task_id, num_envs=2, seed=4)
        steps = [envs.reset(), envs.step(np.zeros((2, *envs.action_spec().shape), np.float32))]
        envs.close()
        if module is compat:
            ours = steps
    for mine, envpools in zip(ours, steps, strict=True):
        assert _common(_layout(mine.observation), _layout(envpools.observation)) == _common(
            _layout(envpools.observation), _layout(mine.observation))
        assert set(envpools.observation._fields) - set(mine.observation._fields) == ENVPOOL_ONLY_INFO
        for name in ("step_type", "reward", "discount"):
            assert _layout(getattr(mine, name)) == _layout(getattr(envpools, name)), name


def _assert_same_values(ours: list[tuple], theirs: list[tuple]) -> None:
    for step, (mine, envpools) in enumerate(zip(ours, theirs, strict=True)):
        np.testing.assert_allclose(mine[0], envpools[0], rtol=1e-6, atol=1e-7)
        np.testing.assert_array_equal(mine[1]["elapsed_step"], envpools[1]["elapsed_step"])
        if step == 0:  # EnvPool's reset info has sparse and solved 0; rlpool's, myosuite's values of the state
            np.testing.assert_array_equal(envpools[1]["sparse"], 0.0)
            continue
        np.testing.assert_allclose(mine[1]["sparse"], envpools[1]["sparse"], rtol=1e-6, atol=1e-7)
        np.testing.assert_array_equal(mine[1]["solved"], envpools[1]["solved"])
        for m, e in zip(mine[2:], envpools[2:], strict=True):
            np.testing.assert_allclose(m, e, rtol=1e-6, atol=1e-7)


@needs_envpool
@pytest.mark.parametrize("task_id", FIXED)
def test_fixed_tasks_give_envpools_values(task_id: str) -> None:
    _assert_same_values(_gymnasium(compat, task_id, 0.3), _gymnasium(envpool, task_id, 0.3))


@needs_envpool
def test_the_value_check_catches_a_difference() -> None:
    task_id = FIXED[0]
    with pytest.raises(AssertionError):
        _assert_same_values(_gymnasium(compat, task_id, 0.31, 1), _gymnasium(envpool, task_id, 0.3, 1))


def test_the_envpool_spelling_is_the_task() -> None:
    task_id = "myoFingerReachFixed-v0"
    plain, spelled = _gymnasium(compat, task_id, 0.5, 2), _gymnasium(compat, f"MyoSuite/{task_id}", 0.5, 2)
    for a, b in zip(plain, spelled, strict=True):
        np.testing.assert_array_equal(a[0], b[0])
        assert _layout(a[1]) == _layout(b[1])
    spec = compat.make_spec(f"MyoSuite/{task_id}")
    assert spec.config.task_name == task_id and spec.observation_space.shape == (19,)
    envs = compat.make_dm(f"MyoSuite/{task_id}", num_envs=1)
    assert envs.reset().observation.obs.shape == (1, 19)
    envs.close()
