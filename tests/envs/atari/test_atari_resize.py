"""The Atari INTER_AREA resize on its incremental path, against OpenCV.

After the first step of a game, a gray env hands the resize the rows of the pooled frame that changed,
and the resize recomputes only the output rows that read them, keeping the others from the last step.
Each observation here is checked against ``cv2.resize`` of the max-pooled raw ALE frames (same ROM, same
actions) over hundreds of steps of games where few rows change per step, for sizes that take each of
the resize's kernels (tap counts, the row kernel and its block fallback, a partial last group of 8), and
again with the portable (SSE2) kernels forced. ``test_any_size_matches_opencv``: every kind of output
size (up- and downscaling each axis, INTER_AREA and INTER_LINEAR, gray and RGB) against ``cv2.resize``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rlpool

pytest.importorskip("ale_py")
cv2 = pytest.importorskip("cv2")
from test_atari import raw_ale  # noqa: E402

FRAME_SKIP = 4

# (height, width): what each exercises with AVX2 (taps per output column / row from 160 x 210).
SIZES = [
    (84, 84),  # 3 / 3 taps; row kernel; 84 = 10 x 8 + 4 (partial last group)
    (60, 50),  # 4 / 4 taps
    (64, 30),  # 6 / 5 taps: 4 outputs span > 16 source columns (block kernel), generic vertical
    (150, 159),  # 2 / 3 taps; 159 = 19 x 8 + 7
    (105, 84),  # integer 2 on y only (not OpenCV's integer fast path): 2 taps per row
    (84, 40),  # integer 4 on x only: 4 equal taps per column
]


def check_against_opencv(game: str, rom_id: str, height: int, width: int, steps: int, seed: int) -> int:
    """Steps env and raw ALE with the same random actions; returns how many observations matched.

    Fails on the first observation that differs from cv2.resize(max(frame 3, frame 4), INTER_AREA).
    Stops early at a game over (the env's autoreset is not followed here).
    """
    env = rlpool.make(f"{game}-v5", num_envs=1, seed=0, noop_max=0, use_fire_reset=False, stack_num=1,
                      frame_skip=FRAME_SKIP, img_height=height, img_width=width, episodic_life=False)
    ale = raw_ale(rom_id)
    ale.reset_game()

    def expected(frame: np.ndarray) -> np.ndarray:
        return cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)

    obs, _ = env.reset()
    np.testing.assert_array_equal(obs[0, 0], expected(ale.getScreenGrayscale()))
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(seed)
    checked = 1
    for step in range(steps):
        a = int(rng.integers(len(actions)))
        for _ in range(FRAME_SKIP - 1):
            ale.act(actions[a])
        before_last = ale.getScreenGrayscale()
        ale.act(actions[a])
        obs, _, terminated, truncated, _ = env.step(np.array([a]))
        want = expected(np.maximum(before_last, ale.getScreenGrayscale()))
        if not np.array_equal(obs[0, 0], want):
            rows = np.flatnonzero((obs[0, 0] != want).any(axis=1))
            pytest.fail(f"{game} {height}x{width}: step {step + 1} differs from OpenCV in output rows {rows}")
        checked += 1
        if terminated[0] or truncated[0] or ale.game_over():
            break
    env.close()
    return checked


@pytest.mark.parametrize(("height", "width"), SIZES)
def test_incremental_area_resize_matches_opencv(height: int, width: int) -> None:
    # Pong: ~35 of 210 source rows change per step (paddles, ball, score).
    assert check_against_opencv("Pong", "pong", height, width, steps=250, seed=height * 1000 + width) > 200
    # Breakout: other rows (bricks, a ball crossing the whole screen).
    assert check_against_opencv("Breakout", "breakout", height, width, steps=120, seed=width) > 20


def test_incremental_area_resize_matches_opencv_portable_kernels() -> None:
    # RLPOOL_ATARI_SIMD=portable is read once per process: run the same check in a child process.
    tests = Path(__file__).resolve().parent
    script = (
        "import test_atari_resize as t\n"
        "for h, w in [(84, 84), (64, 30), (150, 159)]:\n"
        "    assert t.check_against_opencv('Pong', 'pong', h, w, steps=150, seed=w) > 100\n"
        "print('ok')\n"
    )
    path = os.pathsep.join([str(tests), *sys.path])
    env = dict(os.environ, RLPOOL_ATARI_SIMD="portable", PYTHONPATH=path)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("ok")


# Output sizes against the 210 x 160 frame: down, up and equal on each axis, odd and prime sizes,
# integer and non-integer ratios (264 x 631 upscales both axes).
ANY_SIZES = [
    (264, 631), (420, 320), (211, 161), (630, 480), (300, 100), (100, 300), (210, 84), (84, 160),
    (1, 1), (2, 700), (700, 3), (97, 161), (263, 159), (210, 160), (105, 80), (53, 41), (1024, 1024),
    (419, 17), (13, 333),
]


def first_frames(game: str, rom_id: str, steps: int, gray: bool) -> list[np.ndarray]:
    """The pooled raw frames the env resizes at reset and after each of `steps` steps of action 1."""
    ale = raw_ale(rom_id)
    ale.reset_game()
    grab = ale.getScreenGrayscale if gray else ale.getScreenRGB
    frames = [grab()]
    for _ in range(steps):
        for _ in range(FRAME_SKIP - 1):
            ale.act(ale.getMinimalActionSet()[1])
        before_last = grab()
        ale.act(ale.getMinimalActionSet()[1])
        frames.append(np.maximum(before_last, grab()))
    return frames


@pytest.mark.parametrize("gray", [True, False], ids=["gray", "rgb"])
@pytest.mark.parametrize("area", [True, False], ids=["area", "linear"])
def test_any_size_matches_opencv(area: bool, gray: bool) -> None:
    steps = 3
    frames = first_frames("Breakout", "breakout", steps, gray)
    interpolation = cv2.INTER_AREA if area else cv2.INTER_LINEAR
    bad = []
    for height, width in ANY_SIZES:
        env = rlpool.make("Breakout-v5", num_envs=1, seed=0, noop_max=0, use_fire_reset=False, stack_num=1,
                          frame_skip=FRAME_SKIP, img_height=height, img_width=width, episodic_life=False,
                          gray_scale=gray, use_inter_area_resize=area)
        observations = [env.reset()[0][0]] + [env.step(np.array([1]))[0][0] for _ in range(steps)]
        env.close()
        for k, (obs, frame) in enumerate(zip(observations, frames, strict=True)):
            want = cv2.resize(frame, (width, height), interpolation=interpolation)
            want = want[None] if gray else want.transpose(2, 0, 1)  # planar, as the env's observation
            if not np.array_equal(obs, want):
                bad.append(f"{height}x{width} frame {k}: {int((obs != want).sum())} values differ")
    assert not bad, "\n".join(bad)
