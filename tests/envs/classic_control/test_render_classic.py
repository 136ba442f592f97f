"""Rendering of the classic control tasks against gymnasium's own ``rgb_array`` frames.

rlpool draws gymnasium's pygame picture in C++ (``_core/gfx/draw.h``: pygame-ce's gfxdraw and draw
arithmetic), so the frames are compared bitwise: each task is stepped in lockstep with gymnasium from
the same state with the same actions, with states near the edges of the picture injected into both
(cart far off and half out of the window, pole far tilted, car at the walls, links upright), Pendulum
with its torque arrow (gymnasium's ``clockwise.png``, scaled and blitted as pygame does) at many sizes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from render_reference import assert_alias_renders_as_target, assert_frames_equal, gym_rendering

import rlpool
from rlpool import registry
from rlpool.compat import envpool  # noqa: F401 (registers EnvPool's aliases: phys2d/CartPole-v1, ...)

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pygame")

CLASSIC_TYPES = ("CartPole", "MountainCar", "MountainCarContinuous", "Pendulum", "Acrobot")
TASKS = [t for t in registry.list_all_envs() if registry.task(t).env_type in CLASSIC_TYPES]

# States injected into both envs (then stepped from), per env type: gymnasium's state layout. rlpool's
# Acrobot takes a state whose angles are float32 values for a reset one (gymnasium holds that as float32):
# the angles here are not.
EDGE_STATES = {
    "CartPole": [(2.3, 0.0, 0.2, 0.0), (-2.35, 0.0, -0.2, 0.0), (2.6, 0.0, 1.2, 0.0), (-2.7, 0.0, -1.5, 0.0),
                 (0.0, 0.0, math.pi / 2, 0.0), (1.0, 0.0, -math.pi, 0.0),
                 # a pole edge clipped to a 45-degree line (SDL_gfx draws it at alpha 254, not as a plain line)
                 (2.4374137668033766, -0.2136979458753594, 2.663344322820355, 0.36082886250488677)],
    "MountainCar": [(-1.2, 0.0), (0.6, 0.0), (0.5, 0.01), (-0.5236, 0.0), (0.2, -0.05)],
    "MountainCarContinuous": [(-1.2, 0.0), (0.6, 0.0), (0.45, 0.01), (-0.5236, 0.0), (0.2, -0.05)],
    "Pendulum": [(0.0, 0.0), (math.pi, 0.0), (-math.pi / 2, 8.0), (1e-9, 0.0), (3.0, -8.0)],
    "Acrobot": [(math.pi, 0.0, 0.0, 0.0), (math.pi / 2, math.pi / 2, 0.0, 0.0), (-3.1, 3.05, 1.0, -1.0),
                (0.0, math.pi, 0.0, 0.0)],
}
STEPS = 40
INJECT_EVERY = 5


def copy_state(env, g: gym.Env) -> None:
    env.set_state(0, np.asarray(g.unwrapped.state, dtype=np.float64).tobytes())


def inject(env, g: gym.Env, state) -> None:
    g.unwrapped.state = np.asarray(state, dtype=np.float64)
    copy_state(env, g)


@pytest.mark.parametrize("task_id", TASKS)
def test_frames_equal_gymnasium(task_id: str) -> None:
    env_type = registry.task(task_id).env_type
    g = gym_rendering(task_id)
    env = rlpool.make(task_id, num_envs=1, render_mode="rgb_array")
    assert env.metadata["render_fps"] == g.metadata["render_fps"]
    g.reset(seed=3)
    env.reset()
    copy_state(env, g)  # gymnasium's Acrobot keeps it float32 until its first step, and so does its picture
    rng = np.random.default_rng(0)
    edges = iter(EDGE_STATES[env_type])
    for t in range(STEPS):
        if t % INJECT_EVERY == INJECT_EVERY - 1 and (edge := next(edges, None)) is not None:
            inject(env, g, edge)
        assert_frames_equal(env.render()[0], g.render(), f"{task_id} step {t}")
        if env_type in ("Pendulum", "MountainCarContinuous"):
            a = rng.uniform(-2.0, 2.0, size=(1,)).astype(np.float32)
        else:
            a = int(rng.integers(g.action_space.n))
        _, _, terminated, truncated, _ = g.step(a)
        env.step(np.array([a]).reshape(1, *np.shape(a)))
        if terminated or truncated:  # rlpool resets on its next step; start both from gymnasium's reset
            g.reset(seed=t)
            env.step(np.array([a]).reshape(1, *np.shape(a)))
            copy_state(env, g)
        assert env.get_state(0) == np.asarray(g.unwrapped.state, dtype=np.float64).tobytes(), (task_id, t)
    env.close()
    g.close()


def test_frames_are_not_blank_and_differ_by_state() -> None:
    # The comparison above could pass on two blank pictures: the frames show the cart and the pole
    # in gymnasium's colours, and move with the state.
    env = rlpool.make("CartPole-v1", num_envs=2, render_mode="rgb_array", render_env_id=[0, 1])
    env.reset()
    env.set_state(0, np.array([0.0, 0.0, 0.0, 0.0]).tobytes())
    env.set_state(1, np.array([1.0, 0.0, 0.5, 0.0]).tobytes())
    frames = env.render()
    assert frames.shape == (2, 400, 600, 3)
    colours = {tuple(c) for c in frames[0].reshape(-1, 3)}
    assert {(255, 255, 255), (0, 0, 0), (202, 152, 101), (129, 132, 203)} <= colours
    assert (frames[0] != frames[1]).any(axis=-1).mean() > 0.005
    np.testing.assert_array_equal(env.render(env_ids=[1])[0], frames[1])
    env.close()


@pytest.mark.parametrize(("task_id", "size"), [("CartPole-v1", (600, 400)), ("MountainCar-v0", (600, 400)),
                                               ("MountainCarContinuous-v0", (600, 400)), ("Pendulum-v1", (500, 500)),
                                               ("Acrobot-v1", (500, 500))])
def test_render_size(task_id: str, size: tuple[int, int]) -> None:
    spec = rlpool.make_spec(task_id)
    assert spec.arrays.render_size == size


@pytest.mark.parametrize("alias", [a for a in registry.list_aliases() if registry.resolve_alias(a)[0] in TASKS])
def test_envpool_aliases_render(alias: str) -> None:
    assert_alias_renders_as_target(alias)


def test_pendulum_arrow_follows_the_torque() -> None:
    # The arrow is mirrored with the torque's sign and scaled with its size (none for a tiny torque).
    g = gym_rendering("Pendulum-v1")
    env = rlpool.make("Pendulum-v1", num_envs=1, render_mode="rgb_array")
    g.reset(seed=0)
    env.reset()
    frames = []
    for u in (2.0, -2.0, -0.7, 0.01):
        inject(env, g, (0.3, 0.0))
        g.step(np.array([u], dtype=np.float32))
        env.step(np.array([[u]], dtype=np.float32))
        frames.append(env.render()[0])
        assert_frames_equal(frames[-1], g.render(), f"torque {u}")
    # Grey pixels (black blended on white): the arrow's, and the axle's few (a disc of radius 5).
    grey = [int(((f[..., 0] == f[..., 1]) & (f[..., 1] == f[..., 2]) & (f[..., 0] < 255)).sum()) for f in frames]
    assert grey[0] > 500 and grey[1] > 500 and 100 < grey[2] < grey[0] and grey[3] < 150, grey
    assert not np.array_equal(frames[0][200:300, 200:300], frames[1][200:300, 200:300])  # mirrored
    env.close()
    g.close()
