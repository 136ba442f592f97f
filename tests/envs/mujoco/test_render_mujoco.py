"""MuJoCo and DeepMind Control frames: libmujoco's renderer in OSMesa, against gymnasium's and dm_control's.

Both references draw with the same library (MuJoCo's ``mjr_render``) through the same off-screen OpenGL
(``MUJOCO_GL=osmesa``, set in conftest), so from the same state the frames are expected to be equal pixel for
pixel; the tolerance stated below (``MAX_DIFFERENT``) only allows for a driver that rasterises an edge
differently. Pixel observations (``from_pixels``) are checked against the same frames.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from dmc_suite import require_suite
from test_mujoco import gym_env

import rlpool
from rlpool.envs.dmc.registration import DOMAINS, task_id

gym = pytest.importorskip("gymnasium")
pytest.importorskip("mujoco")

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
MAX_DIFFERENT = 0.001  # at most this fraction of pixels may differ from the reference's frame
SIZE = (160, 120)  # width, height: small frames keep the comparisons fast (the default size is checked once)

NAMES = ["Ant", "HalfCheetah", "Hopper", "Humanoid", "HumanoidStandup", "InvertedDoublePendulum",
         "InvertedPendulum", "Pusher", "Reacher", "Swimmer", "Walker2d"]
GYM_TASKS = [f"{n}-{v}" for n in NAMES for v in ("v4", "v5")]


def assert_same_frame(ours: np.ndarray, ref: np.ndarray, where: str) -> None:
    assert ours.shape == ref.shape and ours.dtype == ref.dtype == np.uint8, (where, ours.shape, ref.shape)
    different = float((ours != ref).any(axis=-1).mean())
    assert different <= MAX_DIFFERENT, f"{where}: {different:.2%} of the pixels differ from the reference"
    assert ours.std() > 1.0, f"{where}: a blank frame"  # a black frame on both sides would prove nothing


def _gym_state(env: gym.Env) -> bytes:
    data = env.unwrapped.data
    return np.concatenate([data.qpos, data.qvel]).tobytes()


@pytest.mark.parametrize("tid", GYM_TASKS if FULL else [t for t in GYM_TASKS if t.endswith("-v5")])
@pytest.mark.usefixtures("osmesa")
def test_gymnasium_mujoco_frames_equal_gymnasiums(tid):
    width, height = SIZE
    kwargs = {"width": width, "height": height}
    ref = gym_env(tid, render_mode="rgb_array", **kwargs)
    ref.reset(seed=1)
    env = rlpool.make_gymnasium(tid, num_envs=1, render_mode="rgb_array", render_width=width,
                                render_height=height)
    env.reset()
    env.set_state(0, _gym_state(ref))
    # The first frame sets gymnasium's free camera up (its lookat is the median geom position then).
    assert_same_frame(env.render()[0], ref.render(), f"{tid} after reset")
    rng = np.random.default_rng(0)
    space = ref.action_space
    for i in range(8):
        action = rng.uniform(space.low, space.high).astype(np.float32)
        _, _, terminated, truncated, _ = ref.step(action)
        env.step(action[None])
        if terminated or truncated:  # rlpool's pool resets it at once; gymnasium's waits
            break
        assert_same_frame(env.render()[0], ref.render(), f"{tid} step {i + 1}")
    ref.close()
    env.close()


@pytest.mark.usefixtures("osmesa")
def test_default_size_and_fixed_cameras_equal_gymnasiums():
    ref = gym.make("Humanoid-v5", render_mode="rgb_array")
    ref.reset(seed=3)
    env = rlpool.make_gymnasium("Humanoid-v5", num_envs=2, render_mode="rgb_array", render_env_id=[0, 1])
    env.reset()
    env.set_state(1, _gym_state(ref))
    frames = env.render()
    assert frames.shape == (2, 480, 480, 3)  # gymnasium's DEFAULT_SIZE
    assert_same_frame(frames[1], ref.render(), "Humanoid-v5 at 480 x 480")
    assert env.metadata["render_fps"] == ref.metadata["render_fps"] == 67
    # The model's own cameras: gymnasium's camera_id.
    ncam = ref.unwrapped.model.ncam
    assert ncam >= 1
    for cam in range(ncam):
        other = gym.make("Humanoid-v5", render_mode="rgb_array", camera_id=cam, width=96, height=64)
        other.reset(seed=3)
        mine = rlpool.make_gymnasium("Humanoid-v5", num_envs=1, render_mode="rgb_array", render_camera_id=cam,
                                     render_width=96, render_height=64)
        mine.reset()
        mine.set_state(0, _gym_state(other))
        assert_same_frame(mine.render()[0], other.render(), f"Humanoid-v5 camera {cam}")
        mine.close()
        other.close()
    with pytest.raises(ValueError, match=f"camera_id {ncam} is out of range: the model has {ncam} camera"):
        env.render(camera_id=ncam)
    env.close()
    ref.close()


# --- DeepMind Control -------------------------------------------------------------------------------------

dm_suite = require_suite()  # installed, or rlpool's copy of dm_control 1.0.50
from dm_control.mujoco import engine  # noqa: E402

# dmc_reference.load turns dm_control's rendering contexts off for the stepping comparisons; these tests
# render, so they load with the contexts dm_control has (captured at import, before any load).
_CONTEXTS = engine.Physics.__dict__["contexts"]


def load_rendering(domain: str, task: str, seed: int):
    """dm_control's ``domain``/``task`` with ``random=seed``, able to render."""
    engine.Physics.contexts = _CONTEXTS
    return dm_suite.load(domain, task, task_kwargs={"random": seed})

SAMPLED_DOMAINS = {"cheetah", "walker", "humanoid", "quadruped", "manipulator", "finger", "cartpole", "dog"}
DMC_TASKS = [(d.name, t) for d in DOMAINS for t in d.tasks if FULL or (d.name in SAMPLED_DOMAINS and t == d.tasks[0])]
if ("quadruped", "escape") not in DMC_TASKS:
    DMC_TASKS.append(("quadruped", "escape"))  # new terrain every episode: uploaded to the renderer again


def _dm_state(physics, domain: str) -> bytes:
    from dmc_reference import state_of

    return state_of(physics, domain)


@pytest.mark.parametrize(("domain", "task"), DMC_TASKS)
@pytest.mark.usefixtures("osmesa")
def test_dm_control_frames_equal_physics_render(domain, task):
    ref = load_rendering(domain, task, 0)
    ref.reset()
    physics = ref.physics
    env = rlpool.make_dm(task_id(domain, task), num_envs=1, render_mode="rgb_array", render_width=96,
                         render_height=72)
    env.reset()
    rng = np.random.default_rng(0)
    spec = ref.action_spec()
    for i in range(3):
        env.set_state(0, _dm_state(physics, domain))
        for cam in range(-1, min(physics.model.ncam, 2)):
            ours = env.render(camera_id=cam)[0]
            assert_same_frame(ours, physics.render(72, 96, camera_id=cam), f"{domain}/{task} camera {cam} #{i}")
        ref.step(rng.uniform(np.maximum(spec.minimum, -1), np.minimum(spec.maximum, 1)))
    # dm_control's default frame size.
    assert env.render().shape == (1, 72, 96, 3)
    native = rlpool.make_dm(task_id(domain, task), num_envs=1, render_mode="rgb_array")
    native.reset()
    assert native.render().shape == (1, 240, 320, 3)
    native.close()
    env.close()


# --- Pixel observations -----------------------------------------------------------------------------------


@pytest.mark.usefixtures("osmesa")
def test_pixel_observation_is_the_rendered_frame_channel_first():
    env = rlpool.make_dm("CheetahRun-v1", num_envs=2, from_pixels=True, frame_stack=3, render_mode="rgb_array",
                         render_env_id=[0, 1], render_camera_id=0, seed=5)
    spec = env.observation_spec()
    assert spec.pixels.shape == (9, 84, 84) and spec.pixels.dtype == np.uint8
    ts = env.reset()
    pixels = np.array(ts.observation.pixels)
    assert pixels.shape == (2, 9, 84, 84)
    frames = env.render()  # the same size, camera and state: the newest frame of the stack
    assert frames.shape == (2, 84, 84, 3)
    for k in range(3):  # the stack starts full of the first frame
        np.testing.assert_array_equal(pixels[:, 3 * k: 3 * k + 3].transpose(0, 2, 3, 1), frames)
    previous = pixels
    for _ in range(3):
        ts = env.step(np.full((2, 6), 0.5))
        pixels = np.array(ts.observation.pixels)
        np.testing.assert_array_equal(pixels[:, :6], previous[:, 3:])  # shifted by one frame
        np.testing.assert_array_equal(pixels[:, 6:].transpose(0, 2, 3, 1), env.render())
        previous = pixels
    assert not np.array_equal(pixels[:, :3], pixels[:, 6:])  # the cheetah moved
    env.close()


@pytest.mark.usefixtures("osmesa")
def test_pixel_observation_equals_dm_controls_render_of_the_same_state():
    domain, task = "walker", "walk"
    ref = load_rendering(domain, task, 2)
    ref.reset()
    env = rlpool.make_dm(task_id(domain, task), num_envs=1, from_pixels=True, render_width=64, render_height=48,
                         render_camera_id=0)
    env.reset()
    env.set_state(0, _dm_state(ref.physics, domain))
    action = np.full(ref.action_spec().shape, 0.3)
    ts = env.step(action[None])
    ref_ts = ref.step(action)
    frame = np.array(ts.observation.pixels)[0].transpose(1, 2, 0)
    assert_same_frame(frame, ref.physics.render(48, 64, camera_id=0), "walker/walk pixels")
    assert abs(float(ts.reward[0]) - ref_ts.reward) <= 1e-6  # the task goes on as without pixels
    env.close()


@pytest.mark.usefixtures("osmesa")
def test_gymnasium_pixel_observations_and_spaces():
    env = rlpool.make_gymnasium("HalfCheetah-v5", num_envs=3, from_pixels=True, frame_stack=2, seed=0)
    assert env.single_observation_space.shape == (6, 84, 84)
    assert env.single_observation_space.dtype == np.uint8
    obs, info = env.reset()
    assert obs.shape == (3, 6, 84, 84) and obs.dtype == np.uint8
    assert "x_position" in info  # the inner env's info is kept
    obs, reward, *_ = env.step(np.zeros((3, 6), np.float32))
    assert np.isfinite(reward).all() and obs.std() > 1.0
    env.close()
    state = rlpool.make_gymnasium("HalfCheetah-v5", num_envs=3, seed=0)
    state.reset()
    # Same seed, same physics: the rewards do not depend on what is observed.
    _, reward_state, *_ = state.step(np.zeros((3, 6), np.float32))
    np.testing.assert_array_equal(reward, reward_state)
    state.close()


@pytest.mark.usefixtures("osmesa")
def test_pixel_trajectories_do_not_depend_on_threads_or_batches():
    def run(num_threads: int, batch_size: int) -> list[np.ndarray]:
        env = rlpool.make_gymnasium("Hopper-v5", num_envs=4, batch_size=batch_size, num_threads=num_threads,
                                    from_pixels=True, render_width=32, render_height=32, seed=11)
        got: dict[int, list[np.ndarray]] = {i: [] for i in range(4)}  # each env's frames, in order
        obs, info = env.reset()
        for o, i in zip(obs, info["env_id"], strict=True):
            got[int(i)].append(o.copy())
        while min(len(v) for v in got.values()) < 6:  # async batches: any env may come back first
            env.send(np.full((len(info["env_id"]), 3), 0.2, np.float32), info["env_id"])
            obs, _, _, _, info = env.recv()
            for o, i in zip(obs, info["env_id"], strict=True):
                got[int(i)].append(o.copy())
        env.close()
        return [np.stack(got[i][:6]) for i in range(4)]

    base = run(1, 4)
    for threads, batch in ((2, 4), (2, 2)):
        for a, b in zip(base, run(threads, batch), strict=True):
            np.testing.assert_array_equal(a, b)


def test_pixel_options_are_checked():
    with pytest.raises(ValueError, match="frame_stack"):
        rlpool.make_gymnasium("Ant-v5", num_envs=1, from_pixels=True, frame_stack=0)
    with pytest.raises(ValueError, match="frame_stack"):
        rlpool.make_dm("CheetahRun-v1", num_envs=1, from_pixels=True, frame_stack=65)
    with pytest.raises(TypeError, match="from_pixels"):
        rlpool.make_gymnasium("Ant-v5", num_envs=1, from_pixels="yes")
    with pytest.raises(ValueError, match="render_camera_id 7 is out of range: Ant-v5 has 1 camera"):
        rlpool.make_gymnasium("Ant-v5", num_envs=1, from_pixels=True, render_camera_id=7)
    with pytest.raises(ValueError, match="render_camera_id 2 is out of range: CheetahRun-v1 has 2 camera"):
        rlpool.make_dm("CheetahRun-v1", num_envs=1, render_mode="rgb_array", render_camera_id=2)


def test_missing_osmesa_is_a_clear_error_and_only_mujoco_rendering_needs_it(tmp_path):
    """Without libOSMesa (here: RLPOOL_OSMESA_LIBRARY naming a file that is not there, in a child
    process) making a MuJoCo or DMC env that renders, or one with pixel observations, raises an error
    that names the package to install; the same envs without rendering, and other families' frames,
    still work in that process."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import numpy as np
        import rlpool
        for make in (lambda: rlpool.make("Ant-v5", num_envs=1, render_mode="rgb_array"),
                     lambda: rlpool.make("CheetahRun-v1", num_envs=1, from_pixels=True)):
            try:
                env = make()
                env.reset()
                env.render()
            except RuntimeError as e:
                print("REFUSED", e)
            else:
                print("NOT REFUSED")
        ant = rlpool.make("Ant-v5", num_envs=2)
        ant.reset(seed=0)
        ant.step(np.zeros((2, 8)))
        cartpole = rlpool.make("CartPole-v1", num_envs=1, render_mode="rgb_array")
        cartpole.reset(seed=0)
        print("CARTPOLE", cartpole.render().shape)
        """
    )
    env = {**os.environ, "RLPOOL_OSMESA_LIBRARY": str(tmp_path / "libOSMesa.so.8")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    refusals = [line for line in proc.stdout.splitlines() if line.startswith("REFUSED")]
    assert len(refusals) == 2, proc.stdout
    for line in refusals:
        assert "needs Mesa's off-screen OpenGL, libOSMesa (Debian/Ubuntu: apt install libosmesa6)" in line, line
        assert str(tmp_path / "libOSMesa.so.8") in line, line  # dlopen's own reason is kept
    assert "CARTPOLE (1, 400, 600, 3)" in proc.stdout, proc.stdout
