"""The MetaWorld tasks through rlpool.compat.envpool, against EnvPool 1.2.5 where it is installed.

Every EnvPool MetaWorld id: the same config (keys, order and values, but each library's ``base_path``),
observation and action spaces and array specs. A sample steps on both faces with EnvPool's info keys,
dtypes and shapes, and EnvPool's facts of a task (frame_skip, frame_stack, task_name) are taken when they
are the task's and refused by name otherwise.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import rlpool.compat.envpool as compat
from rlpool.compat.envpool import EnvPoolError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        import envpool
        from envpool.registration import registry as envpool_registry
    except ImportError:
        envpool = None

needs_envpool = pytest.mark.skipif(envpool is None, reason="envpool is not installed")
ENVPOOL_IDS = sorted(t for t, entry in envpool_registry.specs.items() if "metaworld" in entry[0]) if envpool else []
SAMPLE = ["MetaWorld/PickPlace-v3", "MetaWorld/DoorOpen-v3", "MetaWorld/Assembly-v3"]


@needs_envpool
def test_every_envpool_metaworld_id_is_there() -> None:
    assert len(ENVPOOL_IDS) == 50
    assert set(ENVPOOL_IDS) <= set(compat.list_all_envs())


@needs_envpool
def test_specs_like_envpool() -> None:
    for task_id in ENVPOOL_IDS:
        ours, theirs = compat.make_spec(task_id), envpool.make_spec(task_id)
        a, b = ours.config._asdict(), theirs.config._asdict()
        assert [k for k in a if k in b] == list(b), task_id
        assert {k: v for k, v in a.items() if k in b and k != "base_path"} == {
            k: v for k, v in b.items() if k != "base_path"}, task_id
        assert set(a) - set(b) == {"from_pixels", "autoreset_mode", "use_one_hot", "num_goals", "goal_seed"}, task_id
        assert ours.observation_space == theirs.observation_space, task_id
        assert ours.action_space == theirs.action_space, task_id
        for name in ("state_array_spec", "action_array_spec"):
            mine, envpools = getattr(ours, name), getattr(theirs, name)
            assert list(mine) == list(envpools), (task_id, name)
            assert {k: repr(v) for k, v in mine.items()} == {k: repr(v) for k, v in envpools.items()}, task_id


def _run(module: object, task_id: str) -> list[tuple]:
    envs = module.make_gymnasium(task_id, num_envs=3, seed=4)  # type: ignore[attr-defined]
    obs, info = envs.reset()
    out = [(obs, info)]
    for _ in range(3):
        obs, reward, _, _, info = envs.step(np.zeros((3, 4), np.float32))
        out.append((obs, info, reward))
    envs.close()
    return out


def _layout(value: object) -> object:
    if isinstance(value, dict):
        return [(k, _layout(v)) for k, v in value.items()]
    return (np.asarray(value).dtype.str, np.shape(value))


@needs_envpool
@pytest.mark.parametrize("task_id", SAMPLE)
def test_steps_like_envpool(task_id: str) -> None:
    ours, theirs = _run(compat, task_id), _run(envpool, task_id)
    for mine, envpools in zip(ours, theirs, strict=True):
        assert _layout(mine[0]) == _layout(envpools[0])
        assert _layout(mine[1]) == _layout(envpools[1])
        assert all(m.dtype == e.dtype for m, e in zip(mine[2:], envpools[2:], strict=True))
        np.testing.assert_array_equal(mine[1]["task_id"], envpools[1]["task_id"])


def test_envpools_facts_are_checked() -> None:
    spec = compat.make_spec("MetaWorld/DoorOpen-v3", frame_skip=5, frame_stack=1, task_name="door-open-v3")
    assert (spec.config.frame_skip, spec.config.task_name) == (5, "door-open-v3")
    assert compat.make_spec("MetaWorld/DoorOpen-v3", partially_observable=False).config.partially_observable is False
    for options in ({"frame_skip": 4}, {"task_name": "reach-v3"}, {"frame_stack": 2}):
        (key,) = options
        with pytest.raises(EnvPoolError, match=f"{key}=.*only"):
            compat.make_spec("MetaWorld/DoorOpen-v3", **options)
