"""Rendering: the render API every face shares, and the families that render so far.

- Atari: ``render()`` against ALE's own ``getScreenRGB`` in lockstep with gymnasium's
  ``ALE/<Game>-v5`` (same ROM, same actions), bitwise; a taller screen (top 210 rows at the
  default size, as EnvPool's crop) and other sizes (the whole screen resized, against OpenCV).
- The API: ``render_mode`` checks, ``render_env_id``, ``env_ids``, in-flight and never-reset envs
  refused, ``render_mode="human"`` through OpenCV's window calls (and its error without OpenCV), gymnasium's
  vector ``RecordVideo``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from lane import REPO

import rlpool

gym = pytest.importorskip("gymnasium")
ale_py = pytest.importorskip("ale_py")
cv2 = pytest.importorskip("cv2")
gym.register_envs(ale_py)


def reference(game: str) -> gym.Env:
    return gym.make(f"ALE/{game}-v5", frameskip=4, repeat_action_probability=0.0, full_action_space=False)


@pytest.mark.parametrize("game", ["Pong", "Breakout"])
def test_atari_frames_equal_ale_screen(game: str) -> None:
    ours = rlpool.make(f"{game}-v5", num_envs=2, seed=1, noop_max=0, use_fire_reset=False,
                       repeat_action_probability=0.0, render_mode="rgb_array", render_env_id=[0, 1])
    ref = reference(game)
    ale = ref.unwrapped.ale
    ours.reset()
    ref.reset(seed=1)
    rng = np.random.default_rng(0)
    for t in range(120):
        frames = ours.render()
        assert frames.shape == (2, 210, 160, 3) and frames.dtype == np.uint8
        np.testing.assert_array_equal(frames[0], ale.getScreenRGB(), err_msg=f"step {t}")
        np.testing.assert_array_equal(frames[1], frames[0])  # same actions, same console
        a = int(rng.integers(ref.action_space.n))
        ours.step(np.array([a, a]))
        ref.step(a)
    assert ale.getScreenRGB().std() > 0  # the screens compared were not blank
    ours.close()
    ref.close()


def test_atari_tall_screen_and_other_sizes() -> None:
    # Carnival's screen has more than 210 rows: the default frame is its top 210, a size of its own
    # height is the whole screen, any other size the whole screen resized (OpenCV's INTER_LINEAR).
    ref = reference("Carnival")
    ref.reset(seed=0)
    screen = ref.unwrapped.ale.getScreenRGB()
    assert screen.shape[0] > 210
    for size, expect in [
        ((160, 210), screen[:210]),
        ((160, screen.shape[0]), screen),
        ((84, 84), cv2.resize(screen, (84, 84), interpolation=cv2.INTER_LINEAR)),
        ((320, 500), cv2.resize(screen, (320, 500), interpolation=cv2.INTER_LINEAR)),
    ]:
        env = rlpool.make("Carnival-v5", noop_max=0, use_fire_reset=False, render_mode="rgb_array",
                          render_width=size[0], render_height=size[1])
        env.reset()
        frame = env.render()[0]
        assert frame.shape == (size[1], size[0], 3)
        if size[0] == 160 and size[1] <= screen.shape[0]:
            np.testing.assert_array_equal(frame, expect)
        else:  # bilinear arithmetic may round differently from OpenCV's fixed point by 1
            assert np.abs(frame.astype(int) - expect).max() <= 1
        env.close()
    ref.close()


def test_render_api_checks() -> None:
    env = rlpool.make("Pong-v5", num_envs=3, render_mode="rgb_array")
    with pytest.raises(ValueError, match="has not been reset"):
        env.render()
    env.reset()
    assert env.render().shape == (1, 210, 160, 3)  # render_env_id defaults to env 0
    assert env.render(env_ids=[2, 0]).shape == (2, 210, 160, 3)
    assert env.render(env_ids=1, camera_id=0).shape == (1, 210, 160, 3)
    with pytest.raises(ValueError, match="out of range|in \\[0, 2\\]"):
        env.render(env_ids=[3])
    with pytest.raises(TypeError, match="env_ids"):
        env.render(env_ids="0")
    with pytest.raises(ValueError, match="camera_id"):
        env.render(camera_id=-2)
    assert env.metadata["render_modes"] == ["rgb_array", "human"]
    env.close()
    with pytest.raises(RuntimeError, match="closed"):
        env._pool.render([0], 160, 210, -1)
    with pytest.raises(RuntimeError, match="render_mode"):
        rlpool.make("Pong-v5").render()
    with pytest.raises(ValueError, match="render_mode must be one of"):
        rlpool.make("Pong-v5", render_mode="rgb")
    with pytest.raises(ValueError, match="does not render"):
        rlpool.make("BusyWork-v0", render_mode="rgb_array")
    with pytest.raises(ValueError, match="render_width"):
        rlpool.make("Pong-v5", render_mode="rgb_array", render_width=0)
    with pytest.raises(ValueError, match="render_env_id"):
        rlpool.make("Pong-v5", num_envs=2, render_mode="rgb_array", render_env_id=2)
    with pytest.raises(ValueError, match="selects no env"):
        rlpool.make("Pong-v5", render_mode="rgb_array", render_env_id=[])
    with pytest.raises(TypeError, match="render_env_id"):
        rlpool.make("Pong-v5", render_mode="rgb_array", render_env_id="0")
    with pytest.raises(ValueError, match="render_camera_id"):
        rlpool.make("Pong-v5", render_mode="rgb_array", render_camera_id=-2)
    with pytest.raises(TypeError, match="render_height"):
        rlpool.make("Pong-v5", render_mode="rgb_array", render_height=84.0)


def test_render_refuses_envs_in_flight() -> None:
    env = rlpool.make("Pong-v5", num_envs=4, batch_size=2, render_mode="rgb_array")
    env.async_reset()
    env.recv()
    env.recv()
    env.send(np.zeros(2, dtype=np.int64), np.array([0, 1]))
    with pytest.raises(ValueError, match="in flight"):
        env.render(env_ids=[0])
    assert env.render(env_ids=[2, 3]).shape == (2, 210, 160, 3)
    env.recv()
    env.close()


def test_every_face_renders() -> None:
    kw = {"num_envs": 2, "render_mode": "rgb_array", "noop_max": 0}
    gym_face = rlpool.make_gym("Pong-v5", **kw)
    dm_face = rlpool.make_dm("Pong-v5", **kw)
    single = gym.make("rlpool/Pong-v5", render_mode="rgb_array", noop_max=0)
    gym_face.reset()
    dm_face.reset()
    single.reset(seed=0)
    assert gym_face.render().shape == dm_face.render().shape == (1, 210, 160, 3)
    frame = single.render()
    assert frame.shape == (210, 160, 3)
    np.testing.assert_array_equal(frame, gym_face.render()[0])
    for e in (gym_face, dm_face, single):
        e.close()


def test_human_mode_shows_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":0")  # a display to open the (stand-in) window on, on a headless machine too
    shown: list[tuple[str, np.ndarray]] = []
    monkeypatch.setattr(cv2, "imshow", lambda name, image: shown.append((name, image.copy())))
    monkeypatch.setattr(cv2, "waitKey", lambda delay: -1)
    monkeypatch.setattr(cv2, "destroyWindow", lambda name: shown.append((name, None)))
    env = rlpool.make("Pong-v5", num_envs=2, render_mode="human", render_env_id=1)
    env.reset()
    env.step(np.zeros(2, dtype=np.int64))
    assert len(shown) == 2  # gymnasium's human mode: drawn at reset and after every step
    assert env.render() is None
    rgb = rlpool.make("Pong-v5", num_envs=2, render_mode="rgb_array", render_env_id=1)
    rgb.reset()
    rgb.step(np.zeros(2, dtype=np.int64))
    np.testing.assert_array_equal(shown[-1][1], rgb.render()[0][:, :, ::-1])  # BGR for OpenCV
    with pytest.raises(ValueError, match="one env"):
        env.render(env_ids=[0, 1])
    env.close()
    assert shown[-1][1] is None  # close() closed the window
    rgb.close()


def test_human_mode_without_opencv_names_the_package() -> None:
    """Without OpenCV (hidden from a child Python), human mode fails at its first frame, naming what to install;
    rgb_array frames need no OpenCV."""
    code = textwrap.dedent("""
        import json, sys
        sys.modules["cv2"] = None  # import cv2 raises ImportError
        import rlpool

        env = rlpool.make("CartPole-v1", num_envs=2, render_mode="human")
        out = {}
        try:
            env.reset()  # gymnasium's human mode draws at reset
        except Exception as e:
            out.update(type=type(e).__name__, message=str(e), from_import_error=isinstance(e.__cause__, ImportError))
        env.close()
        rgb = rlpool.make("CartPole-v1", num_envs=2, render_mode="rgb_array")
        rgb.reset()
        out["rgb_shape"] = list(rgb.render().shape)
        rgb.close()
        print(json.dumps(out))
    """)
    env = {**os.environ, "DISPLAY": ":0"}  # a display: without one, human mode shows nothing (a warning)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out.get("type") == "RuntimeError", out
    assert "render_mode='human'" in out["message"] and "opencv-python" in out["message"], out["message"]
    assert "pip install '.[render]'" in out["message"], out["message"]
    assert out["from_import_error"] is True
    assert out["rgb_shape"] == [1, 400, 600, 3]


def test_human_mode_without_a_window_warns_once_and_shows_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """No display, or an OpenCV without a GUI: one RuntimeWarning saying why, then frames are not shown (as
    gymnasium's own envs run human mode headless); render() returns None as human mode does."""
    calls: list[str] = []
    monkeypatch.setattr(cv2, "imshow", lambda name, image: calls.append(name))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    if sys.platform in ("win32", "darwin"):
        pytest.skip("a window can always open here")
    env = rlpool.make("CartPole-v1", num_envs=2, render_mode="human")
    with pytest.warns(RuntimeWarning, match="shows no window: no display") as record:
        env.reset()
        env.step(np.zeros(2, dtype=np.int64))
        assert env.render() is None
    assert len(record) == 1 and calls == []
    env.close()

    def no_gui(name: str, image: np.ndarray) -> None:
        raise cv2.error("The function is not implemented. Rebuild the library with Windows, GTK+ 2.x or Cocoa")

    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(cv2, "imshow", no_gui)
    env = rlpool.make("CartPole-v1", num_envs=2, render_mode="human")
    with pytest.warns(RuntimeWarning, match="OpenCV could not open a window .*opencv-python-headless") as record:
        env.reset()
        env.step(np.zeros(2, dtype=np.int64))
    assert len(record) == 1
    env.close()


def test_gymnasium_record_video(tmp_path) -> None:
    pytest.importorskip("moviepy")
    from gymnasium.wrappers.vector import RecordVideo

    env = rlpool.make("Pong-v5", num_envs=2, render_mode="rgb_array", render_env_id=[0, 1])
    env = RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True, video_length=10)
    env.reset(seed=0)
    for _ in range(12):
        env.step(np.zeros(2, dtype=np.int64))
    env.close()
    assert list(tmp_path.glob("*.mp4"))


@pytest.mark.usefixtures("osmesa")
def test_record_video_example_writes_cartpole_pong_and_ant(tmp_path) -> None:
    """examples/record_video.py: a video of each of the three tasks, each frame rlpool's own."""
    pytest.importorskip("moviepy")
    import importlib.util

    path = REPO / "examples" / "record_video.py"
    spec = importlib.util.spec_from_file_location("record_video", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for task in ("CartPole-v1", "Pong-v5", "Ant-v5"):
        video = example.record(task, 4, tmp_path)
        assert video is not None and video.stat().st_size > 1000, task
