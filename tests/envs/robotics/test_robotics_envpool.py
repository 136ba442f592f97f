"""The Gymnasium-Robotics tasks through rlpool.compat.envpool, against EnvPool 1.2.5 where it is installed.

Every EnvPool robotics id: the same config (keys, order and values, but for the Fetch object tasks'
``initial_slide0``, which rlpool takes from gymnasium-robotics), spaces with EnvPool's key order, and
array specs. One id per env type steps on both faces with EnvPool's info keys and dtypes, and its
``distance`` is the same quantity as EnvPool's (checked on both from their own observations).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from lane import build_missing, require

import rlpool
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
ENVPOOL_IDS = sorted(t for t, entry in envpool_registry.specs.items() if "robotics" in entry[0]) if envpool else []
ONE_PER_TYPE = ["FetchReach-v4", "FetchPushDense-v4", "FetchSlide-v1", "FetchPickAndPlace-v4", "HandReach-v3",
                "HandManipulateBlockRotateZ_BooleanTouchSensors-v1", "HandManipulateEgg-v1", "HandManipulatePen-v0",
                "AdroitHandDoor-v1", "AdroitHandHammerSparse-v1", "AdroitHandPen-v1", "AdroitHandRelocate-v1",
                "PointMaze_Medium_Diverse_GRDense-v3", "FrankaKitchen-v1"]
# rlpool follows gymnasium-robotics' start of the arm's slide joint (0.405 for Push and PickAndPlace, 0.05
# for Slide); EnvPool's config says 0.4049 for every Fetch task. base_path is each library's own.
CONFIG_DIFFERS = ("base_path", "initial_slide0")


@pytest.fixture(autouse=True)
def _built():
    require(build_missing(["FetchReach-v4"]))


@needs_envpool
def test_every_envpool_robotics_id_is_there():
    assert len(ENVPOOL_IDS) == 157
    assert set(ENVPOOL_IDS) <= set(compat.list_all_envs())


@needs_envpool
@pytest.mark.parametrize("chunk", range(4))
def test_specs_like_envpool(chunk):
    """Config, spaces (and their key order) and array specs of every id, in four chunks."""
    for task_id in ENVPOOL_IDS[chunk::4]:
        ours, theirs = compat.make_spec(task_id), envpool.make_spec(task_id)
        a, b = ours.config._asdict(), theirs.config._asdict()
        assert [k for k in a if k in b] == list(b), task_id
        assert {k: v for k, v in a.items() if k in b and k not in CONFIG_DIFFERS} == {
            k: v for k, v in b.items() if k not in CONFIG_DIFFERS}, task_id
        assert set(a) - set(b) == {"from_pixels", "autoreset_mode"}, task_id
        assert ours.observation_space == theirs.observation_space, task_id
        assert repr(ours.observation_space) == repr(theirs.observation_space), task_id  # the keys' order
        assert ours.action_space == theirs.action_space, task_id
        for name in ("state_array_spec", "action_array_spec"):
            mine, envpools = getattr(ours, name), getattr(theirs, name)
            assert list(mine) == list(envpools), (task_id, name)
            assert {k: repr(v) for k, v in mine.items()} == {k: repr(v) for k, v in envpools.items()}, task_id


def _distance(task_id: str, obs: dict) -> np.ndarray | None:
    """``info["distance"]`` from the observation, where it is the goal distance of the obs' own entries."""
    ag, dg = obs["achieved_goal"], obs["desired_goal"]
    if task_id.startswith(("Fetch", "HandReach", "PointMaze")):
        return np.linalg.norm(ag - dg, axis=-1)
    if task_id.startswith("HandManipulate") and "Pen" not in task_id:  # (the pen's angle ignores z)
        d_pos = np.linalg.norm(ag[:, :3] - dg[:, :3], axis=-1) * ("Rotate" not in task_id)
        w = np.sum(ag[:, 3:] * dg[:, 3:], axis=-1)  # the real part of ag's quaternion times dg's conjugate
        return d_pos + 2 * np.arccos(np.clip(w, -1, 1))
    return None


def _run(module, task_id: str) -> list[tuple]:
    envs = module.make_gymnasium(task_id, num_envs=3, seed=4)
    obs, info = envs.reset()
    out = [(obs, info)]
    actions = np.zeros((3, *envs.action_space.shape), envs.action_space.dtype)
    for _ in range(3):
        obs, reward, _, _, info = envs.step(actions)
        out.append((obs, info, reward))
    envs.close()
    return out


def _layout(value):
    """Keys (in order), dtypes and shapes of a (nested) result."""
    if isinstance(value, dict):
        return [(k, _layout(v)) for k, v in value.items()]
    return (np.asarray(value).dtype.str, np.shape(value))


@needs_envpool
@pytest.mark.parametrize("task_id", ONE_PER_TYPE)
def test_steps_like_envpool(task_id):
    ours, theirs = _run(compat, task_id), _run(envpool, task_id)
    for mine, envpools in zip(ours, theirs, strict=True):
        if task_id == "FrankaKitchen-v1":  # 'players' is a dict in both
            assert _layout(mine[1]) == _layout(envpools[1])
        assert _layout(mine[0]) == _layout(envpools[0])
        assert _layout(mine[1]) == _layout(envpools[1])
        assert all(m.dtype == e.dtype for m, e in zip(mine[2:], envpools[2:], strict=True))
    for obs, info, *_ in (*ours, *theirs):
        expected = _distance(task_id, obs) if isinstance(obs, dict) and "achieved_goal" in obs else None
        if expected is not None:
            np.testing.assert_allclose(info["distance"], expected, rtol=1e-6, atol=1e-9, err_msg=task_id)


@needs_envpool
@pytest.mark.parametrize("task_id", ["AdroitHandDoor-v1", "AdroitHandHammer-v1", "AdroitHandPen-v1"])
def test_adroit_distance_is_envpools_measure(task_id):
    """The door's angle, the nail's and the pen's distances: fixed at reset, so the same after a still step.

    (After the step: EnvPool's reset info gives the hammer's 0, rlpool the nail's distance as after steps.)
    """
    ours, theirs = _run(compat, task_id), _run(envpool, task_id)
    np.testing.assert_allclose(ours[1][1]["distance"], theirs[1][1]["distance"], rtol=1e-3, atol=1e-6)


def test_frame_skip_is_n_substeps_and_facts_are_checked():
    spec = compat.make_spec("FetchPush-v4", frame_skip=10)
    assert spec.config.frame_skip == 10 and spec.rlpool_spec.config["n_substeps"] == 10
    assert compat.make_spec("HandManipulateEgg-v1", frame_skip=5).rlpool_spec.config["n_substeps"] == 5
    # EnvPool's facts of a task: its own value is taken, another refused by name.
    assert compat.make_spec("FetchPush-v4", xml_file="fetch/push.xml", has_object=True).config.has_object is True
    assert compat.make_spec("AdroitHandDoor-v1", frame_skip=5, obs_dim=39).config.obs_dim == 39
    assert compat.make_spec("PointMaze_UMaze-v3", maze_height=0.4).config.maze_height == 0.4
    cases = [("FetchPush-v4", {"xml_file": "fetch/slide.xml"}), ("FetchReach-v4", {"has_object": True}),
             ("AdroitHandDoor-v1", {"frame_skip": 2}), ("HandReach-v3", {"target_rotation": "xyz"}),
             ("HandManipulateBlock-v1", {"target_position_low0": -0.1}), ("PointMaze_UMaze-v3", {"maze_height": 1}),
             ("FetchReach-v4", {"has_object": 0})]
    for task_id, options in cases:
        (key,) = options
        with pytest.raises(EnvPoolError, match=f"{key}=.*only"):
            compat.make_spec(task_id, **options)


def test_touch_models_report_their_obs_and_visualisation():
    touch = compat.make_spec("HandManipulateBlock_ContinuousTouchSensors-v1").config
    assert (touch.xml_file, touch.obs_dim, touch.touch_visualisation) == (
        "hand/manipulate_block_touch_sensors.xml", 153, "on_touch")
    plain = compat.make_spec("HandManipulateBlock-v1").config
    assert (plain.xml_file, plain.obs_dim, plain.touch_visualisation) == ("hand/manipulate_block.xml", 61, "off")


def test_kitchen_some_tasks():
    """A list of tasks as EnvPool takes it; the goal dicts hold those tasks (gymnasium-robotics'), in kitchen order."""
    envs = compat.make_gymnasium("FrankaKitchen-v1", num_envs=2, tasks_to_complete=["kettle", "microwave"])
    assert envs.spec.config.tasks_to_complete == ["microwave", "kettle"]
    obs, info = envs.reset()
    assert list(obs) == ["observation", "desired_goal", "achieved_goal"]
    assert list(obs["desired_goal"]) == ["microwave", "kettle"]
    assert list(envs.observation_space["achieved_goal"].spaces) == ["microwave", "kettle"]
    assert info["tasks_to_complete"].dtype == np.int32
    np.testing.assert_array_equal(info["tasks_to_complete"], [[0, 0, 0, 0, 0, 1, 1]] * 2)
    dm = compat.make_dm("FrankaKitchen-v1", num_envs=2)
    step = dm.reset()
    assert step.observation.tasks_to_complete.dtype == np.int32
    envs.close()
    dm.close()


def test_goal_tasks_on_the_dm_face():
    env = compat.make_dm("FetchPush-v4", num_envs=2, seed=1)
    state = env.step(np.zeros((2, 4), np.float32)).observation
    assert state._fields[2:5] == ("observation", "achieved_goal", "desired_goal")
    assert state.is_success.dtype == np.float64 and state.distance.dtype == np.float64
    np.testing.assert_allclose(state.distance, np.linalg.norm(state.achieved_goal - state.desired_goal, axis=-1))
    env.close()


def test_rlpools_own_faces_keep_distance_hidden():
    envs = rlpool.make("FetchReach-v4", num_envs=2)
    _, info = envs.reset()
    assert "distance" not in info and "_distance" not in info and info["is_success"].dtype == np.float32
    envs.close()
