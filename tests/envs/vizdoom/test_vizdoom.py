"""ViZDoom tasks against vizdoom's own ``DoomGame`` (Python), step by step.

Both sides load the same scenario cfg with the same engine, base WAD and seeds and take the same actions:
the screen buffers (ours at the engine's resolution, so that no resize is involved), rewards, termination
and game variables must be equal at every step, across episode ends. Each of our resets draws the engine
seed from the env's xoshiro256++ (``rng.next() >> 32``), mirrored here. CI runs every scenario
for 120 steps (several episodes of the short ones); ``RLPOOL_FULL_REFERENCE=1`` for 1500.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from lane import require, vizdoom_missing
from xoshiro import MASK, XoshiroGenerator

import rlpool
from rlpool.envs.vizdoom.registration import SCENARIOS, doomgame, scenario_paths, task_name

vzd = pytest.importorskip("vizdoom")
require(vizdoom_missing())  # rlpool built without the controller library: the package to install

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
STEPS = 1500 if FULL else 120


def splitmix_words(seed: int) -> tuple[int, int, int, int]:
    """The four words rlpool's ``Rng::seed_with(seed)`` starts from."""
    words = []
    for _ in range(4):
        seed = (seed + 0x9E3779B97F4A7C15) & MASK
        z = seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        words.append(z ^ (z >> 31))
    return tuple(words)  # type: ignore[return-value]


@pytest.fixture(autouse=True)
def _engines_write_into_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """vizdoom's own engines write _vizdoom.ini and a _vizdoom/ folder into the working folder: tmp_path."""
    monkeypatch.chdir(tmp_path)


def reference_game(scenario: str) -> vzd.DoomGame:
    """vizdoom's DoomGame configured as our env configures its own (engine not started)."""
    return doomgame(f"{task_name(scenario)}-v1")


def test_our_engines_leave_no_files_behind(tmp_path: Path) -> None:
    ours = f"rlpool-vizdoom-{os.getpid()}-*"  # this process's (the other xdist worker makes its own)
    before = set(Path(tempfile.gettempdir()).glob(ours))
    env = rlpool.make("Basic-v1", num_envs=2)
    env.reset()
    assert set(Path(tempfile.gettempdir()).glob(ours)) - before  # the pattern sees them
    env.close()
    assert list(tmp_path.iterdir()) == []  # nothing in the working folder
    assert set(Path(tempfile.gettempdir()).glob(ours)) == before  # private folders removed


def raw_screen(game: vzd.DoomGame) -> np.ndarray:
    """The reference screen as our channel-first frame: CRCGCB is already planar, GRAY8 one plane."""
    buf = np.asarray(game.get_state().screen_buffer)
    if buf.ndim == 2:
        return buf[None]
    if game.get_screen_format() in (vzd.ScreenFormat.CRCGCB, vzd.ScreenFormat.CBCGCR):
        return buf
    return np.moveaxis(buf, -1, 0)


def random_actions(game: vzd.DoomGame, rng: np.random.Generator, n: int) -> np.ndarray:
    """n action vectors: binary buttons 0/1, delta buttons a small signed amount."""
    buttons = game.get_available_buttons()
    acts = np.zeros((n, len(buttons)))
    for j, b in enumerate(buttons):
        acts[:, j] = rng.integers(-10, 11, n) if "DELTA" in b.name else rng.integers(0, 2, n)
    return acts


def lockstep(ref: vzd.DoomGame, task: str, steps: int, seed: int = 5, changed_step: int | None = None,
             reference_seed: int | None = None) -> int:
    """Our ``task`` and vizdoom's DoomGame ``ref`` (same cfg, seeds, actions) step by step; the episodes played.

    Screens, rewards, episode ends and game variables must be equal at every step. ``ref`` is closed here. For
    the check that this can fail: ``changed_step``, the reference takes another action at that step;
    ``reference_seed``, the reference draws its engine seeds as our env would from that seed.
    """
    height, width = ref.get_screen_height(), ref.get_screen_width()
    # No time limit of ours: only the engine's own episode ends (the cfg's episode_timeout) cut episodes.
    ours = rlpool.make(task, num_envs=1, seed=seed, stack_num=1, img_height=height, img_width=width,
                       max_episode_steps=10**6)
    draws = XoshiroGenerator(splitmix_words(seed if reference_seed is None else reference_seed))
    names = [v.name for v in ref.get_available_game_variables()]
    try:
        acts = random_actions(ref, np.random.default_rng(1), steps)
        theirs = acts.copy()
        if changed_step is not None:
            theirs[changed_step] = 1 - theirs[changed_step]  # every button the other way
        obs, info = ours.reset()
        ref.set_seed(draws.next() >> 32)
        ref.init()
        ref.new_episode()
        np.testing.assert_array_equal(obs[0], raw_screen(ref))
        episodes, ended = 1, False
        for t, a in enumerate(acts):
            obs, reward, term, trunc, info = ours.step(a[None])
            if ended:  # our autoreset step: a new episode with the next seed
                ref.set_seed(draws.next() >> 32)
                ref.new_episode()
                episodes += 1
                ended = False
                assert reward[0] == 0 and not term[0]
            else:
                r = ref.make_action(list(theirs[t]), 4)
                assert reward[0] == r, (t, reward[0], r)
                ended = ref.is_episode_finished()
                assert bool(term[0]) == ended, t
            for name in names:
                assert info[name][0] == ref.get_game_variable(getattr(vzd.GameVariable, name)), (t, name)
            if not ended:
                np.testing.assert_array_equal(obs[0], raw_screen(ref), err_msg=f"step {t}")
            assert not trunc[0]
        return episodes
    finally:
        ours.close()
        ref.close()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_lockstep_with_doomgame(scenario: str) -> None:
    lockstep(reference_game(scenario), f"{task_name(scenario)}-v1", STEPS)


def test_spec_follows_the_cfg() -> None:
    env = rlpool.make("HealthGathering-v1", num_envs=2)
    try:
        # health_gathering.cfg: GRAY8? (no: CRCGCB by default), 3 buttons, HEALTH.
        ref = reference_game("health_gathering")
        channels = ref.get_screen_channels()
        assert env.single_observation_space.shape == (4 * channels, 84, 84)
        assert env.single_observation_space.dtype == np.uint8
        assert env.single_action_space.shape == (len(ref.get_available_buttons()),)
        obs, info = env.reset()
        for v in ref.get_available_game_variables():
            assert info[v.name].dtype == np.float64
        # After a reset every slot holds the first frame.
        np.testing.assert_array_equal(obs[:, :channels], obs[:, -channels:])
    finally:
        env.close()


def test_custom_takes_a_cfg() -> None:
    with pytest.raises(ValueError, match="cfg_path"):
        rlpool.make("VizdoomCustom-v1", cfg_path="")
    with pytest.raises(ValueError, match="cfg_path '/nonexistent.cfg' is not a file"):
        rlpool.make("VizdoomCustom-v1", cfg_path="/nonexistent.cfg")
    # rocket_basic: GRAY8 screens, so one channel per frame.
    env = rlpool.make("VizdoomCustom-v1", **scenario_paths("rocket_basic"))
    try:
        obs, _ = env.reset()
        assert obs.shape == (1, 4, 84, 84)
    finally:
        env.close()


def test_bad_lmp_save_dir_is_refused() -> None:
    with pytest.raises(ValueError, match="lmp_save_dir"):
        rlpool.make("Basic-v1", lmp_save_dir="/nonexistent/folder")


def test_same_seed_same_trajectory_any_threads() -> None:
    def run(num_threads: int) -> list[np.ndarray]:
        env = rlpool.make("DefendTheCenter-v1", num_envs=3, seed=11, num_threads=num_threads)
        try:
            out = [env.reset()[0]]
            acts = np.random.default_rng(0).integers(0, 2, (25, 3, env.single_action_space.shape[0])).astype(float)
            for a in acts:
                obs, r, *_ = env.step(a)
                out += [obs, r]
            return out
        finally:
            env.close()

    for x, y in zip(run(1), run(3), strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("scenario", ["basic", "health_gathering"])
def test_render_is_the_engines_screen(scenario: str) -> None:
    """render(): the engine's screen at its own resolution, RGB, as vizdoom's own screen buffer shows it."""
    seed = 3
    ref = reference_game(scenario)
    height, width = ref.get_screen_height(), ref.get_screen_width()
    ours = rlpool.make(f"{task_name(scenario)}-v1", num_envs=1, seed=seed, render_mode="rgb_array")
    draws = XoshiroGenerator(splitmix_words(seed))
    try:
        ours.reset()
        ref.set_seed(draws.next() >> 32)
        ref.init()
        ref.new_episode()

        def reference_rgb() -> np.ndarray:
            screen = raw_screen(ref)  # channel first
            if screen.shape[0] == 1:
                screen = np.repeat(screen, 3, axis=0)
            if ref.get_screen_format() == vzd.ScreenFormat.CBCGCR:
                screen = screen[::-1]
            return np.ascontiguousarray(screen.transpose(1, 2, 0))

        frame = ours.render()
        assert frame.shape == (1, height, width, 3)
        np.testing.assert_array_equal(frame[0], reference_rgb())
        for t, a in enumerate(random_actions(ref, np.random.default_rng(2), 12)):
            ours.step(a[None])
            ref.make_action(list(a), 4)
            if ref.is_episode_finished():
                break
            np.testing.assert_array_equal(ours.render()[0], reference_rgb(), err_msg=f"step {t}")
        assert ours.metadata["render_fps"] == 35
    finally:
        ours.close()
        ref.close()
