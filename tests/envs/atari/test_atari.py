"""Atari (ALE) envs against the references users trust.

- Lockstep against gymnasium's ``ALE/<Game>-v5`` wrapped in ``AtariPreprocessing`` and
  ``FrameStackObservation`` (same ALE 0.12.1, same ROM, same actions): every observation, reward,
  flag, ``lives`` and the RAM over full episodes, including the reset into the next episode.
- The step that ends a game or, with ``episodic_life``, loses a life (gymnasium's
  ``terminal_on_life_loss``) stops the frame skip there and shows gymnasium's frame (what its pooling
  buffers kept); ``envpool_frame_skip`` gives EnvPool's frame skip instead, checked against raw ALE.
- Where the two define different things, ours is tested on its own terms against raw ALE:
  no-op starts (ours draws the count from the env's own generator) and fire reset (gymnasium has no
  such wrapper).
- The resize against OpenCV's ``cv2.resize`` on real frames, for INTER_AREA and INTER_LINEAR, gray
  and RGB, and sizes that take each of OpenCV's code paths.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rlpool

gym = pytest.importorskip("gymnasium")
ale_py = pytest.importorskip("ale_py")
cv2 = pytest.importorskip("cv2")
from ale_py import roms  # noqa: E402
from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation  # noqa: E402

gym.register_envs(ale_py)

FRAME_SKIP = 4


def make_reference(game: str, gray: bool = True) -> gym.Env:
    env = gym.make(f"ALE/{game}-v5", frameskip=1, repeat_action_probability=0.0, full_action_space=False)
    env = AtariPreprocessing(env, noop_max=0, frame_skip=FRAME_SKIP, screen_size=84, terminal_on_life_loss=False,
                             grayscale_obs=gray)
    return FrameStackObservation(env, 4)


def raw_ale(rom_id: str) -> ale_py.ALEInterface:
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path(rom_id))
    return ale


def area84(frame: np.ndarray) -> np.ndarray:
    return cv2.resize(frame, (84, 84), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize(
    ("game", "max_steps"),
    [
        ("Pong", 1400),  # one full episode (a random player loses 21 points) and the next reset
        ("Breakout", 700),  # lives; FIRE launches the ball
        ("SpaceInvaders", 900),  # lives; FIRE in the action set
    ],
)
def test_lockstep_with_gymnasium(game: str, max_steps: int) -> None:
    # noop_max=0 and use_fire_reset=False: gymnasium's wrappers have no fire reset, and their no-op
    # count comes from another generator (both are tested separately below).
    seed = 3
    ours = rlpool.make(f"{game}-v5", num_envs=1, seed=seed, noop_max=0, use_fire_reset=False)
    ref = make_reference(game)
    ale = ref.unwrapped.ale
    assert ours.single_action_space.n == ref.action_space.n

    obs, info = ours.reset()
    ref_obs, ref_info = ref.reset(seed=seed)
    np.testing.assert_array_equal(obs[0], ref_obs)
    assert info["lives"][0] == ale.lives()
    np.testing.assert_array_equal(info["ram"][0], ale.getRAM())

    rng = np.random.default_rng(seed)
    episodes_done = 0
    for _ in range(max_steps):
        action = int(rng.integers(ref.action_space.n))
        obs, reward, terminated, truncated, info = ours.step(np.array([action]))
        ref_obs, ref_reward, ref_terminated, ref_truncated, ref_info = ref.step(action)
        assert reward[0] == ref_reward
        assert info["reward"][0] == ref_reward
        assert terminated[0] == ref_terminated and truncated[0] == ref_truncated
        assert info["terminated"][0] == ref_terminated
        assert info["lives"][0] == ref_info["lives"]
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
        np.testing.assert_array_equal(obs[0], ref_obs)
        if not ref_terminated:
            continue
        episodes_done += 1
        # Next episode: gymnasium's reset() (no seed) resets the same console, as our autoreset does.
        obs, reward, terminated, truncated, info = ours.step(np.array([0]))
        ref_obs, ref_info = ref.reset()
        np.testing.assert_array_equal(obs[0], ref_obs)
        assert reward[0] == 0 and not terminated[0] and not truncated[0]
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
    assert episodes_done >= 1
    ours.close()
    ref.close()


@pytest.mark.parametrize(("frame_skip", "stack_num"), [(3, 2), (1, 3)])
def test_lockstep_other_skips_and_stacks(frame_skip: int, stack_num: int) -> None:
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=2, noop_max=0, use_fire_reset=False, frame_skip=frame_skip,
                       stack_num=stack_num)
    env = gym.make("ALE/Breakout-v5", frameskip=1, repeat_action_probability=0.0)
    ref = FrameStackObservation(AtariPreprocessing(env, noop_max=0, frame_skip=frame_skip), stack_num)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset(seed=2)
    np.testing.assert_array_equal(obs[0], ref_obs)
    rng = np.random.default_rng(2)
    for _ in range(150):
        a = int(rng.integers(4))
        obs, reward, terminated, _, _ = ours.step(np.array([a]))
        ref_obs, ref_reward, ref_terminated, _, _ = ref.step(a)
        assert reward[0] == ref_reward and terminated[0] == ref_terminated
        if ref_terminated:
            break
        np.testing.assert_array_equal(obs[0], ref_obs)


def gymnasium_skip(skip: int, stack: int, **options: object) -> gym.Env:
    env = gym.make("ALE/Breakout-v5", frameskip=1, repeat_action_probability=0.0)
    return FrameStackObservation(AtariPreprocessing(env, noop_max=0, frame_skip=skip, **options), stack)


@pytest.mark.parametrize(("skip", "gray"), [(7, True), (5, False), (1, True)])
def test_game_over_inside_the_frame_skip(skip: int, gray: bool) -> None:
    # Odd frame skips make games end before the last frame of a step as well as on it. The step's newest
    # frame is gymnasium's: its pooling buffers hold the previous step's frame and, where the game ended
    # on the last frame, this step's frame before the last. Several games in a row, gray and RGB.
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=0, noop_max=0, use_fire_reset=False, frame_skip=skip,
                       stack_num=2, gray_scale=gray)
    ref = gymnasium_skip(skip, 2, grayscale_obs=gray)
    obs, _ = ours.reset()
    ref_obs, info = ref.reset(seed=0)
    frame_number = info["episode_frame_number"]
    rng = np.random.default_rng(3)
    endings = []
    while len(endings) < 3:
        a = int(rng.integers(4))
        obs, reward, terminated, _, _ = ours.step(np.array([a]))
        ref_obs, ref_reward, ref_terminated, _, info = ref.step(a)
        assert reward[0] == ref_reward and terminated[0] == ref_terminated
        np.testing.assert_array_equal(obs[0], ref_obs.transpose(0, 3, 1, 2).reshape(obs.shape[1:]) if not gray
                                      else ref_obs, err_msg=f"ending {len(endings)}")
        frames, frame_number = info["episode_frame_number"] - frame_number, info["episode_frame_number"]
        if ref_terminated:
            endings.append(frames)
            obs, *_ = ours.step(np.array([0]))  # autoreset: gymnasium's reset() resets the same console
            ref_obs, info = ref.reset()
            frame_number = info["episode_frame_number"]
            np.testing.assert_array_equal(obs[0, -1:] if gray else obs[0, -3:],
                                          ref_obs[-1:] if gray else ref_obs[-1].transpose(2, 0, 1))
    if skip > 1:
        assert any(f < skip for f in endings), endings  # the case this test is for happened


def test_game_over_inside_the_frame_skip_envpool() -> None:
    # envpool_frame_skip: EnvPool's frame for a step that ends the game early: the max of the last two
    # frames where it ended on the last, the final screen where on the one before, else the previous
    # step's frame. Checked against raw ALE.
    skip = 7
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=0, noop_max=0, use_fire_reset=False, frame_skip=skip,
                       stack_num=1, envpool_frame_skip=True)
    ale = raw_ale("breakout")
    ale.reset_game()
    obs, _ = ours.reset()
    previous = ale.getScreenGrayscale()
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(3)
    endings = []
    while len(endings) < 4:
        a = int(rng.integers(len(actions)))
        reward, frames, before_last = 0, 0, None
        for f in range(skip):
            reward += ale.act(actions[a])
            frames += 1
            if ale.game_over():
                break
            if f == skip - 2:
                before_last = ale.getScreenGrayscale()
        screen = ale.getScreenGrayscale()
        if frames == skip:
            expected = np.maximum(before_last, screen)
        elif frames == skip - 1:
            expected = screen
        else:
            expected = previous
        previous = expected
        obs, r, terminated, _, info = ours.step(np.array([a]))
        assert r[0] == reward and terminated[0] == ale.game_over()
        np.testing.assert_array_equal(obs[0, 0], area84(expected))
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
        if ale.game_over():
            endings.append(frames)
            ale.reset_game()
            obs, *_ = ours.step(np.array([0]))  # autoreset
            previous = ale.getScreenGrayscale()
            np.testing.assert_array_equal(obs[0, 0], area84(previous))
    assert any(f < skip - 1 for f in endings), endings  # the case this test is for happened


@pytest.mark.parametrize("skip", [4, 7])
def test_life_loss_stops_the_frame_skip_as_gymnasiums(skip: int) -> None:
    # episodic_life against gymnasium's terminal_on_life_loss=True: the same frames, rewards and flags up to
    # and including the step that loses the first life (gymnasium then starts a new game, ours plays on).
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=0, noop_max=0, use_fire_reset=False, frame_skip=skip,
                       episodic_life=True)
    ref = gymnasium_skip(skip, 4, terminal_on_life_loss=True)
    obs, _ = ours.reset()
    ref_obs, _ = ref.reset(seed=0)
    np.testing.assert_array_equal(obs[0], ref_obs)
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(400):
        a = int(rng.integers(4))
        obs, reward, terminated, _, info = ours.step(np.array([a]))
        ref_obs, ref_reward, ref_terminated, _, ref_info = ref.step(a)
        assert reward[0] == ref_reward and terminated[0] == ref_terminated
        assert info["lives"][0] == ref_info["lives"]
        np.testing.assert_array_equal(obs[0], ref_obs)
        np.testing.assert_array_equal(info["ram"][0], ref.unwrapped.ale.getRAM())
        if ref_terminated:
            ends += 1
            break
    assert ends == 1


def test_lockstep_rgb_and_several_envs() -> None:
    # RGB observations (3 channels per frame, channel-first) and 3 envs stepped by threads.
    ours = rlpool.make("Breakout-v5", num_envs=3, seed=7, noop_max=0, use_fire_reset=False, gray_scale=False,
                       num_threads=2)
    refs = [make_reference("Breakout", gray=False) for _ in range(3)]
    obs, _ = ours.reset()
    assert obs.shape == (3, 12, 84, 84)
    for i, ref in enumerate(refs):
        ref_obs, _ = ref.reset(seed=i)
        np.testing.assert_array_equal(obs[i], ref_obs.transpose(0, 3, 1, 2).reshape(12, 84, 84))
    rng = np.random.default_rng(0)
    for _ in range(60):
        actions = rng.integers(4, size=3)
        obs, reward, terminated, _, info = ours.step(actions)
        for i, ref in enumerate(refs):
            ref_obs, ref_reward, ref_terminated, _, ref_info = ref.step(int(actions[i]))
            assert not ref_terminated
            np.testing.assert_array_equal(obs[i], ref_obs.transpose(0, 3, 1, 2).reshape(12, 84, 84))
            assert reward[i] == ref_reward and info["lives"][i] == ref_info["lives"]


def noop_trajectory(rom_id: str, n: int, fire: bool = False) -> list[tuple[np.ndarray, np.ndarray]]:
    """(RAM, gray screen) after reset_game and k = 0..n single-frame NOOPs (then FIRE if asked)."""
    ale = raw_ale(rom_id)
    ale.reset_game()
    out = []
    for k in range(n + 1):
        if k > 0:
            ale.act(ale_py.Action.NOOP)
        state = ale.cloneState()
        if fire:
            ale.act(ale_py.Action.FIRE)
        out.append((ale.getRAM().copy(), ale.getScreenGrayscale()))
        ale.restoreState(state)
    return out


def match_start(ram: np.ndarray, candidates: list[tuple[np.ndarray, np.ndarray]]) -> list[int]:
    return [k for k, (r, _) in enumerate(candidates) if np.array_equal(r, ram)]


def test_noop_reset_starts() -> None:
    # EnvPool's no-op starts: 1..noop_max single NOOP frames after the reset, count drawn per reset.
    noop_max = 8
    candidates = noop_trajectory("breakout", noop_max)
    ours = rlpool.make("Breakout-v5", num_envs=8, seed=0, noop_max=noop_max, use_fire_reset=False)
    obs, info = ours.reset()
    counts = []
    for i in range(8):
        ks = match_start(info["ram"][i], candidates)
        assert ks and all(1 <= k <= noop_max for k in ks), ks
        k = ks[0]
        counts.append(k)
        np.testing.assert_array_equal(obs[i, 3], area84(candidates[k][1]))
        np.testing.assert_array_equal(obs[i, 0], obs[i, 3])  # a new game fills the stack
    assert len(set(counts)) >= 3  # the count is drawn, not fixed
    # Same seeds, same starts; the draw does not depend on threads.
    again = rlpool.make("Breakout-v5", num_envs=8, seed=0, noop_max=noop_max, use_fire_reset=False, num_threads=1)
    _, info2 = again.reset()
    np.testing.assert_array_equal(info2["ram"], info["ram"])


def test_fire_reset() -> None:
    # Games whose action set has FIRE get one FIRE frame after the no-ops (EnvPool's fire reset);
    # it replaces the last no-op, so with noop_max=0 it is the only frame.
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=0, noop_max=0)
    obs, info = ours.reset()
    (ram, screen), = noop_trajectory("breakout", 0, fire=True)
    np.testing.assert_array_equal(info["ram"][0], ram)
    np.testing.assert_array_equal(obs[0, 3], area84(screen))
    # noop_max=4 with fire: 0..3 no-ops, then FIRE.
    candidates = noop_trajectory("breakout", 3, fire=True)
    ours = rlpool.make("Breakout-v5", num_envs=4, seed=1, noop_max=4)
    _, info = ours.reset()
    for i in range(4):
        assert match_start(info["ram"][i], candidates)
    # A game without FIRE in its action set gets no fire reset (Freeway's minimal set has no FIRE).
    ours = rlpool.make("Freeway-v5", num_envs=1, seed=0, noop_max=0)
    _, info = ours.reset()
    (ram, _), = noop_trajectory("freeway", 0)
    np.testing.assert_array_equal(info["ram"][0], ram)


@pytest.mark.parametrize(
    ("height", "width", "area", "gray"),
    [
        (84, 84, True, True),  # the default: OpenCV's general area path
        (84, 84, False, True),  # INTER_LINEAR, fixed point
        (84, 84, True, False),
        (84, 84, False, False),
        (105, 80, True, True),  # integer 2x2 area (and linear at 2x2 becomes area)
        (105, 80, False, False),
        (42, 32, True, True),  # integer 5x5 area
        (21, 16, True, True),  # integer 10x10 area
        (70, 80, True, True),  # integer 3x2 area
        (210, 160, True, True),  # same size: a copy
        (100, 100, True, True),  # area with an upscaled axis: OpenCV's linear stand-in
        (250, 200, False, True),  # linear upscale
        (96, 72, False, True),  # linear, a row width that leaves a scalar tail
    ],
)
def test_resize_matches_opencv(height: int, width: int, area: bool, gray: bool) -> None:
    # stack_num=1, frame_skip=2: each observation is resize(max(frame 1, frame 2)), compared with
    # cv2.resize of the same two frames from a raw ALE driven with the same actions.
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=0, noop_max=0, use_fire_reset=False, stack_num=1,
                       frame_skip=2, img_height=height, img_width=width, use_inter_area_resize=area,
                       gray_scale=gray)
    ale = raw_ale("breakout")
    ale.reset_game()
    interp = cv2.INTER_AREA if area else cv2.INTER_LINEAR

    def grab() -> np.ndarray:
        return ale.getScreenGrayscale() if gray else ale.getScreenRGB()

    def expected(frame: np.ndarray) -> np.ndarray:
        r = cv2.resize(frame, (width, height), interpolation=interp)
        return r[None] if gray else r.transpose(2, 0, 1)

    obs, _ = ours.reset()
    assert obs.shape == (1, 1 if gray else 3, height, width)
    np.testing.assert_array_equal(obs[0], expected(grab()))
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(1)
    for _ in range(25):
        a = int(rng.integers(len(actions)))
        ale.act(actions[a])
        first = grab()
        ale.act(actions[a])
        obs, *_ = ours.step(np.array([a]))
        np.testing.assert_array_equal(obs[0], expected(np.maximum(first, grab())))


def test_episodic_life() -> None:
    # episodic_life: a lost life ends the episode with terminated=True while the game goes on
    # (info["terminated"] is the real game over); the next reset continues the same game, and
    # elapsed_step keeps counting through it (per game, as EnvPool's).
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=0, episodic_life=True)
    _, info = ours.reset()
    lives = int(info["lives"][0])
    assert lives == 5
    rng = np.random.default_rng(0)
    for _ in range(2000):
        _, _, terminated, _, info = ours.step(rng.integers(4, size=1))
        if terminated[0]:
            assert info["lives"][0] == lives - 1 and not info["terminated"][0]
            break
    else:
        pytest.fail("no life was lost")
    ram, elapsed = info["ram"][0].copy(), int(info["elapsed_step"][0])
    _, reward, terminated, _, info = ours.step(np.array([0]))  # the autoreset step
    assert info["lives"][0] == lives - 1 and info["elapsed_step"][0] == elapsed and reward[0] == 0
    assert not np.array_equal(info["ram"][0], ram)  # it moved on (no-ops, FIRE) in the same game
    _, _, _, _, info = ours.step(np.array([0]))
    assert info["elapsed_step"][0] == elapsed + 1
    # Once that reset has happened, an explicit reset starts a new game.
    _, info = ours.reset()
    assert info["lives"][0] == lives and info["elapsed_step"][0] == 0


def test_episodic_life_time_limit_counts_per_game() -> None:
    # The time limit counts the steps of the whole game, across lost lives; when it cuts the
    # episode, the next reset starts a new game (even if a life was lost on that very step).
    limit = 60  # random Breakout loses a life every ~25 steps and the game in ~120
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=0, episodic_life=True, max_episode_steps=limit)
    ours.reset()
    rng = np.random.default_rng(0)
    lost, truncations = 0, 0
    for _ in range(5 * limit):
        _, _, terminated, truncated, info = ours.step(rng.integers(4, size=1))
        if terminated[0] and not info["terminated"][0]:
            lost += 1
        if truncated[0]:
            truncations += 1
            assert info["elapsed_step"][0] == limit
            _, _, terminated, truncated, info = ours.step(np.array([0]))  # the autoreset step: a new game
            assert info["lives"][0] == 5 and info["elapsed_step"][0] == 0
    assert lost >= 2 and truncations >= 2  # lives were lost inside games that the limit cut


def test_zero_discount_on_life_loss() -> None:
    # dm_env: discount 0 (step_type MID) on a step that loses a life; the gymnasium flags, the
    # observations and the info keys are those of a run without the option.
    kw = dict(num_envs=1, seed=3, max_episode_steps=400)
    dm = rlpool.make_dm("Breakout-v5", zero_discount_on_life_loss=True, **kw)
    plain = rlpool.make("Breakout-v5", **kw)
    flagged = rlpool.make("Breakout-v5", zero_discount_on_life_loss=True, **kw)
    lives = dm.reset().observation.lives[0]
    plain.reset()
    flagged.reset()
    rng = np.random.default_rng(0)
    zeros = 0
    for _ in range(800):
        a = rng.integers(4, size=1)
        ts = dm.step(a)
        obs, _, terminated, truncated, info = plain.step(a)
        obs_f, _, terminated_f, truncated_f, info_f = flagged.step(a)
        np.testing.assert_array_equal(ts.observation.obs, obs)
        np.testing.assert_array_equal(obs_f, obs)
        assert terminated_f[0] == terminated[0] and truncated_f[0] == truncated[0]
        assert sorted(info_f) == sorted(info)
        lost = ts.observation.lives[0] < lives if ts.step_type[0] != 0 else False
        lives = ts.observation.lives[0]
        if terminated[0]:
            assert ts.discount[0] == 0 and ts.step_type[0] == 2
        elif lost:
            zeros += 1
            assert ts.discount[0] == 0 and ts.step_type[0] == 1
        else:
            assert ts.discount[0] == 1
    assert zeros >= 3


def test_episodic_life_dm_first_step() -> None:
    # dm_env: the autoreset row after a lost life is FIRST although elapsed_step goes on.
    dm = rlpool.make_dm("Breakout-v5", num_envs=2, seed=0, episodic_life=True)
    dm.reset()
    rng = np.random.default_rng(0)
    last = np.zeros(2, dtype=bool)
    firsts = 0
    for _ in range(300):
        ts = dm.step(rng.integers(4, size=2))
        np.testing.assert_array_equal(ts.step_type == 0, last)
        firsts += int((last & (ts.observation.elapsed_step > 0)).sum())
        last = ts.step_type == 2
    assert firsts >= 2


@pytest.mark.parametrize("game", ["Breakout-v5", "SpaceInvaders-v5"])
def test_life_options_match_envpool(game: str) -> None:
    # EnvPool defines episodic_life and zero_discount_on_life_loss: with one no-op at reset (so
    # that the starts agree) both give the same observations, flags, lives and elapsed steps,
    # and the same dm step types and discounts (except on truncation, where EnvPool's discount
    # is 0 and ours 1; see rlpool.compat.envpool).
    envpool = pytest.importorskip("envpool")
    kw = dict(num_envs=1, seed=0, episodic_life=True, zero_discount_on_life_loss=True, noop_max=1,
              max_episode_steps=150)
    ref, ours = envpool.make_gymnasium(game, **kw), rlpool.make(game, envpool_frame_skip=True, **kw)
    ref_dm, ours_dm = envpool.make_dm(game, **kw), rlpool.make_dm(game, envpool_frame_skip=True, **kw)
    o1, _ = ref.reset()
    o2, _ = ours.reset()
    np.testing.assert_array_equal(o1, o2)
    ref_dm.reset()
    ours_dm.reset()
    rng = np.random.default_rng(1)
    n = ours.single_action_space.n
    for _ in range(400):
        a = rng.integers(n, size=1)
        o1, r1, te1, tr1, i1 = ref.step(a.astype(np.int32))
        o2, r2, te2, tr2, i2 = ours.step(a)
        np.testing.assert_array_equal(o1, o2)
        assert (r1[0], te1[0], tr1[0]) == (r2[0], te2[0], tr2[0])
        for k in ("lives", "elapsed_step", "terminated", "reward", "ram"):
            np.testing.assert_array_equal(i1[k], i2[k], err_msg=k)
        t1, t2 = ref_dm.step(a.astype(np.int32)), ours_dm.step(a)
        assert t1.step_type[0] == t2.step_type[0]
        if not tr2[0] or te2[0]:
            assert t1.discount[0] == t2.discount[0]


def test_reward_clip() -> None:
    # Same seed, same actions: clipped rewards are the sign of the raw ones, which stay in info.
    raw = rlpool.make("SpaceInvaders-v5", num_envs=1, seed=0)
    clipped = rlpool.make("SpaceInvaders-v5", num_envs=1, seed=0, reward_clip=True)
    raw.reset()
    clipped.reset()
    rng = np.random.default_rng(0)
    seen = []
    for _ in range(300):
        a = rng.integers(6, size=1)
        _, r, *_ = raw.step(a)
        _, rc, _, _, info = clipped.step(a)
        assert rc[0] == np.sign(r[0]) and info["reward"][0] == r[0]
        seen.append(r[0])
    assert max(seen) > 1  # an alien is worth 5 or more: the clip did something


def test_spec_and_options() -> None:
    assert len([t for t in rlpool.list_all_envs() if t.endswith("-v5") and "Pong" in t]) == 1
    spec = rlpool.make_spec("Pong-v5")
    c = spec.config
    defaults = dict(stack_num=4, frame_skip=4, noop_max=30, zero_discount_on_life_loss=False, episodic_life=False,
                    reward_clip=False, use_fire_reset=True, img_height=84, img_width=84, gray_scale=True, mode=-1,
                    difficulty=-1, full_action_space=False, repeat_action_probability=0.0,
                    use_inter_area_resize=True, max_episode_steps=27000)
    for k, v in defaults.items():
        assert c[k] == v, k
    assert spec.observation_space.shape == (4, 84, 84) and spec.observation_space.dtype == np.uint8
    assert spec.action_space.n == 6
    assert rlpool.make_spec("Pong-v5", full_action_space=True).action_space.n == 18
    assert rlpool.make_spec("Pong-v5", gray_scale=False, stack_num=2).observation_space.shape == (6, 84, 84)
    env = rlpool.make("Pong-v5", num_envs=2)
    _, info = env.reset()
    assert info["ram"].shape == (2, 128) and info["ram"].dtype == np.uint8
    # EnvPool's info dtypes.
    assert info["lives"].dtype == np.int32 and info["terminated"].dtype == np.int32
    assert info["reward"].dtype == np.float32


def test_modes_and_difficulties() -> None:
    # mode/difficulty reach ALE: compare with gymnasium's mode argument from the same state.
    ours = rlpool.make("SpaceInvaders-v5", num_envs=1, seed=0, noop_max=0, use_fire_reset=False, mode=1,
                       difficulty=1)
    ref = gym.make("ALE/SpaceInvaders-v5", frameskip=1, repeat_action_probability=0.0, mode=1, difficulty=1)
    ref.reset(seed=0)
    _, info = ours.reset()
    np.testing.assert_array_equal(info["ram"][0], ref.unwrapped.ale.getRAM())
    with pytest.raises(ValueError, match="mode 99 is not available"):
        rlpool.make("Pong-v5", mode=99)
    with pytest.raises(ValueError, match="difficulty 7 is not available"):
        rlpool.make("Pong-v5", difficulty=7)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stack_num": 0}, "stack_num must be in"),
        ({"frame_skip": 0}, "frame_skip must be in"),
        ({"noop_max": -1}, "noop_max must be in"),
        ({"img_height": 0}, "img_height must be in"),
        ({"img_width": 5000}, "img_width must be in"),
        ({"repeat_action_probability": 1.5}, "repeat_action_probability must be in"),
        ({"rom_path": "/nonexistent.bin"}, "is not a file"),
        ({"rom_path": __file__}, "not a ROM that ALE supports"),
        ({"rom_path": ""}, "install it"),
    ],
)
def test_bad_options(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rlpool.make("Pong-v5", **options)


def test_bad_option_types() -> None:
    with pytest.raises(TypeError):
        rlpool.make("Pong-v5", stack_num=4.0)
    with pytest.raises(TypeError):
        rlpool.make("Pong-v5", gray_scale=1)


def test_bad_actions() -> None:
    env = rlpool.make("Pong-v5", num_envs=2)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.array([0, 6]))
    with pytest.raises((TypeError, ValueError)):
        env.step(np.array([0.0, 1.0]))


def test_seeded_reset_matches_gymnasium_after_play() -> None:
    # reset(seed=...) puts the console back in its power-on state, as gymnasium's seeded reset (which
    # reloads the ROM) does -- here after a played episode part, compared step by step.
    ours = rlpool.make("Breakout-v5", num_envs=1, seed=5, noop_max=0, use_fire_reset=False)
    ours.reset()
    rng = np.random.default_rng(1)
    for _ in range(80):
        ours.step(rng.integers(4, size=1))
    obs, info = ours.reset(seed=11)
    ref = make_reference("Breakout")
    ref_obs, _ = ref.reset(seed=11)
    ale = ref.unwrapped.ale
    np.testing.assert_array_equal(obs[0], ref_obs)
    np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
    for _ in range(100):
        a = int(rng.integers(4))
        obs, reward, terminated, _, info = ours.step(np.array([a]))
        ref_obs, ref_reward, ref_terminated, _, _ = ref.step(a)
        assert not ref_terminated
        np.testing.assert_array_equal(obs[0], ref_obs)
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
        assert reward[0] == ref_reward


def test_reseed_gives_the_same_trajectory() -> None:
    env = rlpool.make("Breakout-v5", num_envs=1, seed=5)
    first, info0 = env.reset(seed=11)
    rng = np.random.default_rng(0)
    trajectory = [env.step(rng.integers(4, size=1))[0].copy() for _ in range(30)]
    again, info1 = env.reset(seed=11)
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(info0["ram"], info1["ram"])
    rng = np.random.default_rng(0)
    for expected in trajectory:
        np.testing.assert_array_equal(env.step(rng.integers(4, size=1))[0], expected)


def test_get_and_set_state() -> None:
    env = rlpool.make("SpaceInvaders-v5", num_envs=2, seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        env.step(rng.integers(6, size=2))
    state = env.get_state(0)
    actions = rng.integers(6, size=(30, 2))
    recorded = []
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        recorded.append((obs[0].copy(), reward[0], info["ram"][0].copy(), info["lives"][0]))
    # Back in the same env, and into env 1 (another console): the same continuation.
    for target in (0, 1):
        env.set_state(target, state)
        for a, (obs0, r0, ram0, lives0) in zip(actions, recorded, strict=True):
            step = np.array([a[0], a[0]])
            obs, reward, _, _, info = env.step(step)
            np.testing.assert_array_equal(obs[target], obs0)
            np.testing.assert_array_equal(info["ram"][target], ram0)
            assert reward[target] == r0 and info["lives"][target] == lives0
    # And into a fresh pool whose env was never reset.
    fresh = rlpool.make("SpaceInvaders-v5", num_envs=1, seed=3)
    fresh.set_state(0, state)
    obs, *_ = fresh.step(np.array([actions[0][0]]))
    np.testing.assert_array_equal(obs[0], recorded[0][0])
    with pytest.raises(ValueError, match="another game"):
        rlpool.make("Breakout-v5", num_envs=1).set_state(0, state)
    stacked = rlpool.make("SpaceInvaders-v5", num_envs=1, stack_num=2)
    with pytest.raises(ValueError, match="other observation options"):
        stacked.set_state(0, state)
    with pytest.raises(RuntimeError, match="reset the env before"):  # the refused state left it unreset
        stacked.get_state(0)
    with pytest.raises(ValueError, match="not an Atari env state"):
        env.set_state(0, b"garbage")


def test_async_pool_and_dm() -> None:
    env = rlpool.make("Pong-v5", num_envs=4, batch_size=2, seed=0)
    env.async_reset()
    seen = set()
    for _ in range(5000):  # first finished, first returned: an env still loading its ROM comes later
        obs, reward, terminated, truncated, info = env.recv()
        assert obs.shape == (2, 4, 84, 84)
        seen.update(info["env_id"].tolist())
        env.send(np.zeros(2, dtype=np.int64), info["env_id"])
        if seen == {0, 1, 2, 3}:
            break
    assert seen == {0, 1, 2, 3}
    env.close()
    pytest.importorskip("dm_env")
    dm = rlpool.make_dm("Pong-v5", num_envs=2)
    ts = dm.reset()
    assert ts.observation.obs.shape == (2, 4, 84, 84)
    assert ts.observation.lives.shape == (2,)
    dm.close()


def test_portable_kernels_match_opencv() -> None:
    # The AVX2 kernels are chosen at run time (the in-process tests above check them against OpenCV on a
    # machine that has AVX2); RLPOOL_ATARI_SIMD=portable forces the SSE2/scalar ones, read once per
    # process: a child process runs the same OpenCV comparisons with them (gray and RGB, area and
    # linear, the general and upscaling paths; the max-pool's portable lookup with every gray case).
    tests = Path(__file__).resolve().parent
    script = (
        "import test_atari as t\n"
        "for args in [(84, 84, True, True), (84, 84, False, True), (84, 84, True, False), (84, 84, False, False),\n"
        "             (105, 80, True, True), (100, 100, True, True), (250, 200, False, True), (96, 72, False, True)]:\n"
        "    t.test_resize_matches_opencv(*args)\n"
        "print('ok')\n"
    )
    env = dict(os.environ, RLPOOL_ATARI_SIMD="portable", PYTHONPATH=os.pathsep.join([str(tests), *sys.path]))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("ok")
