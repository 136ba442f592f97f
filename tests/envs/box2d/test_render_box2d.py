"""Rendering of the Box2D tasks against gymnasium's own ``rgb_array`` frames.

rlpool draws gymnasium's pygame picture in C++ (``_core/gfx/draw.h``: pygame-ce's draw and SDL_gfx's gfxdraw
arithmetic). Each task is stepped in lockstep with gymnasium from the same random draws
(``box2d_reference.start_pair``) with the same actions -- gymnasium's heuristic controllers, which land
the lander between the flags and walk the walker (hardcore obstacles in view), mixed with random bursts
that fire every engine, crash, fall and step backwards (the walker's scroll below 0) -- and every frame is
compared bitwise. LunarLander's flame particles (bodies in the world while rendering, aged by each frame
drawn) and BipedalWalker's scrolled surface and turning lidar ray are part of the picture.

CarRacing's ``rgb_array`` frame (the 1000x800 window with the skid marks, shrunk to 600x400 by
``smoothscale``) is drawn the same way except for the score, which gymnasium writes with pygame's font
(FreeType): every pixel outside the digits' box must be equal, and at least 99% of all of them (about
99.7% are: the digits cover ~0.3% of the frame).
"""

from __future__ import annotations

import numpy as np
import pytest
from box2d_reference import start_pair
from render_reference import assert_frames_equal, gym_rendering

import rlpool
from rlpool import registry

gym = pytest.importorskip("gymnasium")
pytest.importorskip("pygame")
pytest.importorskip("Box2D")
from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics  # noqa: E402
from gymnasium.envs.box2d.lunar_lander import heuristic  # noqa: E402
from test_box2d_car_racing import policy_action  # noqa: E402

# (task, options of both envs, episodes (seeds), steps per episode at most, steps that take random actions
# instead of the heuristic's: early ones fire every engine high up, later ones crash and fall)
CASES = [
    ("LunarLander-v3", {}, (1, 2), 400, (5, 25)),
    ("LunarLanderContinuous-v3", {}, (3,), 400, (5, 25)),
    ("LunarLander-v3", {"enable_wind": True, "wind_power": 18.0}, (4,), 200, (40, 200)),
    ("LunarLander-v2", {}, (5,), 120, (5, 25)),
    ("LunarLanderContinuous-v2", {}, (6,), 120, (40, 120)),
    ("BipedalWalker-v3", {}, (7, 8), 220, (40, 70)),
    ("BipedalWalkerHardcore-v3", {}, (9,), 260, (40, 50)),
]


def policy(task_id: str, g, obs: np.ndarray, random: bool, rng: np.random.Generator,
           walker: BipedalWalkerHeuristics):
    continuous = "Continuous" in task_id or "Bipedal" in task_id
    if random:
        if "Bipedal" in task_id:
            return rng.uniform(-1, 1, 4).astype(np.float32)
        return rng.uniform(-1, 1, 2).astype(np.float32) if continuous else int(rng.integers(4))
    if "Bipedal" in task_id:
        return np.asarray(walker.step_heuristic(obs), np.float32)
    a = heuristic(g, obs)
    return np.asarray(a, np.float32) if continuous else int(a)


@pytest.mark.parametrize(("task_id", "options", "seeds", "steps", "burst"), CASES)
def test_frames_equal_gymnasium(task_id: str, options: dict, seeds: tuple[int, ...], steps: int,
                                burst: tuple[int, int]) -> None:
    gym_id = registry.task(task_id).gymnasium_id or task_id
    hardcore = {"hardcore": True} if "Hardcore" in task_id else {}
    for seed in seeds:
        env = rlpool.make(task_id, num_envs=1, seed=seed, render_mode="rgb_array", **options)
        g = gym_rendering(task_id, **hardcore, **options)
        assert env.metadata["render_fps"] == g.metadata["render_fps"]
        _, obs = start_pair(env, g, gym_id, {**hardcore, **options}, seed, rl_to_gym=True)
        rng = np.random.default_rng(seed)
        walker = BipedalWalkerHeuristics()
        for t in range(steps):
            assert_frames_equal(env.render()[0], g.render(), f"{task_id} {options} seed {seed} step {t}")
            a = policy(task_id, g, obs, burst[0] <= t < burst[1], rng, walker)
            obs, _, terminated, truncated, _ = g.step(a)
            env.step(np.asarray([a]))
            if terminated or truncated:
                assert_frames_equal(env.render()[0], g.render(), f"{task_id} seed {seed} last step {t}")
                break
        env.close()
        g.close()


def test_lander_particles_are_drawn_and_age() -> None:
    # The comparison above could pass with no particles on either side: firing the main engine puts
    # flame-coloured discs under the lander, and frames drawn without stepping age them (they fade to
    # gymnasium's dark red, then go), as in gymnasium.
    env = rlpool.make("LunarLander-v3", num_envs=1, render_mode="rgb_array")
    env.reset()
    for _ in range(5):
        env.step(np.array([2]))
    frames = [env.render()[0] for _ in range(12)]
    flame = [int(((f[:, :, 0] > 200) & (f[:, :, 1] < 200) & (f[:, :, 1] > 50) & (f[:, :, 2] < 200)).sum())
             for f in frames]
    assert flame[0] > 0
    assert flame[-1] == 0  # all expired after 12 frames (ttl at most 1, 0.15 a frame)
    plain = rlpool.make("LunarLander-v3", num_envs=1)
    with pytest.raises(RuntimeError, match="render_mode"):
        plain.render()
    env.close()
    plain.close()


def test_lander_particles_leave_physics_and_states_alone() -> None:
    # Particles are bodies in the lander's world: an env that renders steps as one that does not, and a
    # state restored into a rendering env (the particles rebuilt by the replay) draws what the env it
    # came from draws when that one has drawn no frame.
    drawn, plain, quiet = (rlpool.make("LunarLander-v3", num_envs=1, seed=11, render_mode=mode)
                           for mode in ("rgb_array", None, "rgb_array"))
    for env in (drawn, plain, quiet):
        env.reset()
    rng = np.random.default_rng(0)
    for _ in range(50):
        a = np.array([int(rng.choice(4, p=[0.1, 0.2, 0.5, 0.2]))])
        drawn.render()
        obs = [env.step(a)[0] for env in (drawn, plain, quiet)]
        np.testing.assert_array_equal(obs[0], obs[1])
        np.testing.assert_array_equal(obs[0], obs[2])
    restored = rlpool.make("LunarLander-v3", num_envs=1, render_mode="rgb_array")
    restored.reset()
    restored.set_state(0, quiet.get_state(0))
    np.testing.assert_array_equal(restored.render(), quiet.render())
    for env in (drawn, plain, quiet, restored):
        env.close()


def test_walker_frame_follows_the_scroll() -> None:
    env = rlpool.make("BipedalWalker-v3", num_envs=2, render_mode="rgb_array", render_env_id=[0, 1])
    env.reset()
    for _ in range(60):
        env.step(np.array([[1.0, -1.0, -1.0, 1.0], [0.0, 0.0, 0.0, 0.0]], np.float32))
    frames = env.render()
    assert frames.shape == (2, 400, 600, 3)
    colours = {tuple(c) for c in frames[0].reshape(-1, 3)}
    assert {(215, 215, 255), (102, 153, 76), (127, 51, 229), (230, 51, 0)} <= colours
    assert (frames[0] != frames[1]).any(axis=-1).mean() > 0.01
    env.close()


@pytest.mark.parametrize(("task_id", "size"), [("LunarLander-v3", (600, 400)), ("BipedalWalker-v3", (600, 400)),
                                               ("BipedalWalkerHardcore-v3", (600, 400)), ("CarRacing-v3", (600, 400))])
def test_render_size(task_id: str, size: tuple[int, int]) -> None:
    assert rlpool.make_spec(task_id).arrays.render_size == size


# Where gymnasium's score digits land in the 600x400 frame (rows, columns): not drawn by rlpool.
DIGITS = (slice(360, 386), slice(0, 76))
MIN_EQUAL_PIXELS = 0.99


@pytest.mark.parametrize(("task_id", "options", "kind", "seed", "steps"), [
    ("CarRacing-v3", {}, "drive", 1, 140),  # laps at speed: tiles turn, skid marks in the corners
    ("CarRacing-v3", {}, "random", 2, 90),  # spins on the grass: mud marks
    ("CarRacing-v2", {"continuous": False, "domain_randomize": True}, "random", 3, 60),
])
def test_car_racing_frames_equal_gymnasium(task_id: str, options: dict, kind: str, seed: int, steps: int) -> None:
    env = rlpool.make(task_id, num_envs=1, seed=seed, render_mode="rgb_array", **options)
    g = gym_rendering(task_id, **options)
    assert env.metadata["render_fps"] == g.metadata["render_fps"]
    start_pair(env, g, "CarRacing-v3", options, seed, rl_to_gym=True)
    rng = np.random.default_rng(seed)
    outside = np.ones((400, 600), bool)
    outside[DIGITS] = False
    marks = 0
    for t in range(steps):
        ours, ref = env.render()[0], g.render()
        assert ours.shape == ref.shape == (400, 600, 3)
        differ = (ours != ref).any(axis=-1)
        where = f"{task_id} {options} seed {seed} step {t}"
        assert not differ[outside].any(), f"{where}: {int(differ[outside].sum())} pixels differ outside the score"
        assert 1 - differ.mean() >= MIN_EQUAL_PIXELS, where
        a = policy_action(kind, options.get("continuous", True), rng, g)
        _, _, terminated, truncated, _ = g.step(a)
        env.step(np.asarray([a]))
        marks = max(marks, len(g.unwrapped.car.particles))
        if terminated or truncated:
            break
    if kind == "random" and options.get("continuous", True):
        assert marks > 0  # the frames compared show skid marks
    env.close()
    g.close()
