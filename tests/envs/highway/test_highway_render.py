"""Rendering of the highway family against highway-env 1.12.1's own ``rgb_array`` frames and GrayscaleObservation.

rlpool draws highway-env's pygame picture in C++ (``envs/highway/render.h``: the lanes' striped and continuous
lines, road objects, vehicles with their headlights, outline and -- for plain kinematic and bicycle vehicles --
tyres turned by the steering, all rotated with pygame's nearest-neighbour ``transform.rotate``, the lidar's
polyline, the transparent trajectory history), centred and scaled as EnvViewer does. Each scenario is stepped in
lockstep with highway-env from the same random draws (``use_words`` below) and every frame must be
equal bitwise; so must GrayscaleObservation's stacked frames. The default run compares a few steps of each case;
``RLPOOL_FULL_REFERENCE=1`` runs more episodes, longer.
"""

from __future__ import annotations

import importlib.util
import warnings
from typing import Any

import numpy as np
import pytest
from highway_reference import import_highway_env, parse_state, reference
from lane import FULL
from render_reference import assert_frames_equal
from test_intersection import Generator

import rlpool
from rlpool.envs.highway.registration import HIGHWAY_ENV_IDS

pytest.importorskip("pygame")

# (task, rlpool options (also highway-env's config), steps compared per episode): six scenarios (highway, merge,
# roundabout, intersection, parking, racetrack), the continuous intersection (plain vehicles with tyres), lane
# keeping (a bicycle vehicle on a sine lane), the lidar's overlay, and viewers other than the scenario's (thick
# 2- and 3-pixel lines, another centring).
CASES = [
    ("Highway-v0", {}, 4),
    ("Merge-v0", {}, 8),
    ("Roundabout-v0", {}, 5),
    ("Intersection-v0", {}, 8),
    ("Intersection-v1", {}, 6),
    ("Parking-v0", {}, 6),
    ("Racetrack-v0", {}, 6),
    ("LaneKeeping-v0", {}, 6),
    ("Highway-v0", {"observation_type": "LidarObservation"}, 3),
    ("Parking-v0", {"scaling": 13.0, "screen_width": 320, "screen_height": 240}, 4),
    ("Roundabout-v0", {"scaling": 3.0, "centering_position_x": 0.2, "centering_position_y": 0.8}, 3),
]
VIEWER = ("screen_width", "screen_height", "scaling", "centering_position_x", "centering_position_y")


def renders() -> bool:
    return rlpool.make_spec("Highway-v0").arrays.render_size != (0, 0)


pytestmark = pytest.mark.skipif(not renders(), reason="the highway family's render() is not wired to render.h")


@pytest.fixture(autouse=True)
def _behavior_classes_restored():
    """highway-env's IntersectionEnv sets DISTANCE_WANTED, COMFORT_ACC_MAX and COMFORT_ACC_MIN on its other
    vehicles' class for the whole process: put them back after each test, so that every scenario's reference
    drives with highway-env's own defaults."""
    if importlib.util.find_spec("highway_env") is None:
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from highway_env.vehicle import behavior
    classes = [behavior.IDMVehicle, behavior.LinearVehicle, behavior.AggressiveVehicle, behavior.DefensiveVehicle]
    saved = {(cls, name): cls.__dict__.get(name, _MISSING) for cls in classes
             for name in ("DISTANCE_WANTED", "COMFORT_ACC_MAX", "COMFORT_ACC_MIN")}
    yield
    for (cls, name), value in saved.items():
        if value is _MISSING:
            if name in cls.__dict__:
                delattr(cls, name)
        else:
            setattr(cls, name, value)


_MISSING = object()


def use_words(ref: Any, words: tuple[int, int, int, int]) -> None:
    """highway-env draws what rlpool's env started from ``words`` draws (numpy's choice without replacement too,
    which the intersection's spawns use: ``test_intersection.Generator``)."""
    ref._np_random = Generator(words)


def rendering_reference(task_id: str, options: dict[str, Any]) -> Any:
    """highway-env's env of ``task_id`` drawing ``rgb_array`` frames with rlpool's viewer options."""
    ref = reference(HIGHWAY_ENV_IDS[task_id], {k: v for k, v in options.items() if k not in VIEWER})
    ref.render_mode = "rgb_array"  # set on the env itself: some classes (LaneKeepingEnv) take no render_mode
    viewer = dict(rlpool.make_spec(task_id, **options).config)
    ref.config.update(screen_width=viewer["screen_width"], screen_height=viewer["screen_height"],
                      scaling=viewer["scaling"],
                      centering_position=[viewer["centering_position_x"], viewer["centering_position_y"]])
    return ref


def policy(env: Any, seed: int):
    space = env.single_action_space
    rng = np.random.default_rng(seed)
    if hasattr(space, "n"):
        return lambda: int(rng.integers(space.n))
    return lambda: rng.uniform(-1, 1, space.shape).astype(np.float32)


def lockstep(task_id: str, options: dict[str, Any], seed: int, steps: int, check, render: bool = True) -> int:
    """Resets rlpool's env and highway-env's from the same draws, then steps both with the same random actions;
    after the reset and each step calls ``check(ours, theirs, where)`` with both frames (``render``) or both
    observations. Returns how many were compared."""
    import_highway_env()
    env = rlpool.make(task_id, num_envs=1, seed=seed, **({"render_mode": "rgb_array"} if render else {}), **options)
    ref = rendering_reference(task_id, options) if render else reference(HIGHWAY_ENV_IDS[task_id], options)
    act = policy(env, seed)
    obs, _ = env.reset()
    use_words(ref, parse_state(env.get_state(0))[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref_obs, _ = ref.reset()
        where = f"{task_id} {options} seed {seed}"
        compared = 1
        if render:
            check(env.render()[0], ref.render(), f"{where} reset")
        else:
            check(obs[0], ref_obs, f"{where} reset")
        for step in range(1, steps + 1):
            action = act()
            obs, _, terminated, truncated, _ = env.step(np.asarray(action)[None])
            ref_obs = ref.step(action)[0]
            if render:
                check(env.render()[0], ref.render(), f"{where} step {step}")
            else:
                check(obs[0], ref_obs, f"{where} step {step}")
            compared += 1
            if terminated[0] or truncated[0]:
                break
    env.close()
    ref.close()
    return compared


@pytest.mark.parametrize(("task_id", "options", "steps"), CASES)
def test_frames_match_highway_env(task_id: str, options: dict[str, Any], steps: int) -> None:
    for seed in range(2 if FULL else 1):
        lockstep(task_id, options, seed, 3 * steps if FULL else steps, assert_frames_equal)


@pytest.mark.parametrize("task_id", sorted({case[0] for case in CASES}))
def test_frame_size_and_fps_are_highway_envs(task_id: str) -> None:
    ref = rendering_reference(task_id, {})
    assert rlpool.make_spec(task_id).arrays.render_size == (ref.config["screen_width"], ref.config["screen_height"])
    env = rlpool.make(task_id, num_envs=1, render_mode="rgb_array")
    assert env.metadata["render_fps"] == ref.metadata["render_fps"]
    env.close()


def test_the_comparison_fails_on_another_view() -> None:
    """A reference drawn 2% larger (or one step behind) is told apart."""
    import_highway_env()
    env = rlpool.make("Highway-v0", num_envs=1, seed=3, render_mode="rgb_array")
    ref = rendering_reference("Highway-v0", {})
    ref.config["scaling"] = 5.5 * 1.02
    env.reset()
    use_words(ref, parse_state(env.get_state(0))[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref.reset()
        with pytest.raises(pytest.fail.Exception, match="of pixels equal"):
            assert_frames_equal(env.render()[0], ref.render(), "scaled")
        ref.viewer.sim_surface.scaling = 5.5
        before = ref.render()
        assert_frames_equal(env.render()[0], before, "same view")
        env.step(np.array([1]))
        with pytest.raises(pytest.fail.Exception, match="of pixels equal"):
            assert_frames_equal(env.render()[0], before, "a step behind")


def test_rendering_leaves_the_episode_alone_and_states_restore_the_frame() -> None:
    drawn = rlpool.make("Intersection-v0", num_envs=1, seed=5, render_mode="rgb_array")
    plain = rlpool.make("Intersection-v0", num_envs=1, seed=5)
    a, b = drawn.reset()[0], plain.reset()[0]
    np.testing.assert_array_equal(a, b)
    rng = np.random.default_rng(0)
    for _ in range(6):
        drawn.render()
        action = np.array([rng.integers(3)])
        a, b = drawn.step(action)[0], plain.step(action)[0]
        np.testing.assert_array_equal(a, b)
    frame = drawn.render()
    state = drawn.get_state(0)
    drawn.step(np.array([1]))
    assert not np.array_equal(drawn.render(), frame)
    drawn.set_state(0, state)
    np.testing.assert_array_equal(drawn.render(), frame)


# (task, GrayscaleObservation options, steps): highway-env's documented example, a square stack on the
# intersection's own viewer, another centring and weights. (highway-env has no default shape, stack or weights:
# the cases give them.)
GRAYSCALE = [
    ("Highway-v0", {"observation_observation_shape": (128, 64), "observation_stack_size": 4,
                    "observation_weights": [0.2989, 0.5870, 0.1140], "observation_scaling": 1.75}, 4),
    ("Intersection-v0", {"observation_observation_shape": (84, 84), "observation_stack_size": 3,
                         "observation_weights": [0.2989, 0.5870, 0.1140]}, 6),
    ("Roundabout-v0", {"observation_observation_shape": (96, 72), "observation_stack_size": 2,
                       "observation_weights": [0.3, 0.6, 0.1], "observation_scaling": 2.5,
                       "observation_centering_position": [0.4, 0.6]}, 6),
]


@pytest.mark.parametrize(("task_id", "options", "steps"), GRAYSCALE)
def test_grayscale_observation_matches_highway_env(task_id: str, options: dict[str, Any], steps: int) -> None:
    options = {"observation_type": "GrayscaleObservation", **options}
    import_highway_env()
    assert rlpool.make_spec(task_id, **options).observation_space == reference(HIGHWAY_ENV_IDS[task_id],
                                                                                options).observation_space

    def equal(ours: np.ndarray, theirs: np.ndarray, where: str) -> None:
        assert ours.dtype == theirs.dtype == np.uint8, where
        for k in range(ours.shape[0]):
            assert_frames_equal(ours[k][..., None], theirs[k][..., None], f"{where} frame {k}")

    for seed in range(3 if FULL else 1):
        lockstep(task_id, options, seed, 3 * steps if FULL else steps, equal, render=False)


def test_grayscale_stack_starts_from_zeros_and_rolls() -> None:
    env = rlpool.make("Highway-v0", num_envs=1, seed=1, observation_type="GrayscaleObservation",
                      observation_observation_shape=(64, 32), observation_stack_size=3)
    obs, _ = env.reset()
    assert obs.shape == (1, 3, 64, 32) and obs.dtype == np.uint8
    assert not obs[0, :2].any() and obs[0, 2].any()
    nxt = env.step(np.array([1]))[0]
    np.testing.assert_array_equal(nxt[0, :2], obs[0, 1:])


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"scaling": 0.0}, "scaling"),
        ({"screen_width": 0}, "screen_width"),
        ({"observation_type": "GrayscaleObservation", "observation_observation_shape": "84"}, "observation_shape"),
        ({"observation_type": "GrayscaleObservation", "observation_weights": "1,2"}, "observation_weights"),
        ({"observation_type": "GrayscaleObservation", "observation_scaling": -1.0}, "observation_scaling"),
    ],
)
def test_bad_viewer_options_are_refused(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        rlpool.make("Highway-v0", num_envs=1, **options)
