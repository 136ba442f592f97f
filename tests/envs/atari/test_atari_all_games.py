"""Every Atari game against gymnasium's ``ALE/<Game>-v5`` + ``AtariPreprocessing``, side by side.

- The game list is gymnasium's: every ``ALE/<Game>-v5`` id it registers is an rlpool ``<Game>-v5``
  task and the other way round.
- For every game: reset plus a few hundred steps of the same random actions from the same seed give
  the same observations (the whole screen resized, whatever its height: 210 rows for most games,
  214 to 250 for some), rewards, flags, lives and RAM, up to and including the step that ends the
  game; with ``episodic_life``, up to and including the step that loses the first life, against
  gymnasium's ``terminal_on_life_loss``. The default run takes the games with taller screens and a
  sample of the others (every sixth) for 150 steps; ``RLPOOL_FULL_REFERENCE=1`` (CI) every game for
  long enough that each one ends a game or loses a life.
- Options side by side with gymnasium's AtariEnv: ``full_action_space``, ``mode``, ``difficulty``; sticky
  actions (``repeat_action_probability > 0``) and no-op starts with fire reset (the defaults), with
  gymnasium's env given the draws rlpool makes from the same seed (ALE's seed, the no-op count).
- ``crop_210`` (EnvPool's behaviour, set by ``rlpool.compat.envpool``): only the top 210 rows are
  resized. Checked against raw ALE for ours and EnvPool 1.2.5, and side by side with EnvPool.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from gym_reference import cache_dir
from xoshiro import MASK, XoshiroGenerator

import rlpool
from rlpool.cache import write_atomically
from rlpool.envs.atari.registration import GAMES, task_name

gym = pytest.importorskip("gymnasium")
ale_py = pytest.importorskip("ale_py")
cv2 = pytest.importorskip("cv2")
from ale_py import roms  # noqa: E402
from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation  # noqa: E402

gym.register_envs(ale_py)

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"
STEPS = 4000 if FULL else 150
FRAME_SKIP = 4


def screen_height(rom_id: str) -> int:
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.loadROM(roms.get_rom_path(rom_id))
    return int(ale.getScreenDims()[0])


def screen_heights() -> dict[str, int]:
    """ALE's own screen heights (not a list copied by hand), asked of ale-py once per ale-py release and kept in
    rlpool's cache: loading the 104 ROMs would add about 10 s to collecting the tests in every process."""
    path = cache_dir() / f"ale-py-{ale_py.__version__}-screen-heights.json"
    try:
        kept = json.loads(path.read_text())
        if isinstance(kept, dict) and sorted(kept) == sorted(GAMES):
            return {rom: int(h) for rom, h in kept.items()}
    except (OSError, ValueError):
        pass
    heights = {rom: screen_height(rom) for rom in GAMES}
    write_atomically(path, json.dumps(heights).encode())
    return heights


HEIGHTS = screen_heights()
TALL = sorted(rom for rom, h in HEIGHTS.items() if h != 210)
SAMPLED = GAMES if FULL else tuple(sorted(set(TALL) | set(GAMES[::6])))


def test_game_list_is_gymnasiums() -> None:
    theirs = {k.removeprefix("ALE/") for k in gym.registry if k.startswith("ALE/") and k.endswith("-v5")}
    ours = {f"{task_name(rom)}-v5" for rom in GAMES}
    # ale-py names one game TicTacToe3D, as rlpool does.
    assert ours == theirs
    assert all(t in rlpool.list_all_envs() for t in ours)


def test_some_games_have_taller_screens() -> None:
    # The point of the whole-screen test: without these the crop would not matter.
    assert len(TALL) >= 10 and all(HEIGHTS[rom] > 210 for rom in TALL)


def lockstep(rom: str, steps: int, **options: object) -> bool:
    """Our ``<Game>-v5`` and gymnasium's, same seed, same random actions, up to the first end of an episode
    (a game over; with ``episodic_life``, a lost life too): whether one came within ``steps``."""
    task = f"{task_name(rom)}-v5"
    seed = 7
    ours = rlpool.make(task, num_envs=1, seed=seed, noop_max=0, use_fire_reset=False, **options)
    env = gym.make(f"ALE/{task}", frameskip=1, repeat_action_probability=0.0,
                   full_action_space=bool(options.get("full_action_space", False)),
                   mode=options.get("mode"), difficulty=options.get("difficulty"))
    ref = FrameStackObservation(
        AtariPreprocessing(env, noop_max=0, frame_skip=FRAME_SKIP, screen_size=84,
                           terminal_on_life_loss=bool(options.get("episodic_life", False))),
        4,
    )
    ale = ref.unwrapped.ale
    assert ours.single_action_space.n == ref.action_space.n
    obs, info = ours.reset()
    ref_obs, _ = ref.reset(seed=seed)
    np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task}: reset")
    np.testing.assert_array_equal(info["ram"][0], ale.getRAM())
    rng = np.random.default_rng(seed)
    ended = False
    for t in range(steps):
        action = int(rng.integers(ref.action_space.n))
        obs, reward, terminated, truncated, info = ours.step(np.array([action]))
        ref_obs, ref_reward, ref_terminated, ref_truncated, ref_info = ref.step(action)
        assert reward[0] == ref_reward, (task, t)
        assert terminated[0] == ref_terminated and truncated[0] == ref_truncated, (task, t)
        assert info["lives"][0] == ref_info["lives"], (task, t)
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM(), err_msg=f"{task}: RAM at step {t}")
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task}: step {t}")
        if ref_terminated:
            ended = True
            break
    ours.close()
    ref.close()
    return ended


# The games whose random play (this seed) neither ends the game within 4000 steps, nor, with episodic_life,
# loses a life: board and card games, and games without lives or a game over. Every other game's last step is
# reached and compared; for these the test says so instead of passing silently.
NO_GAME_OVER = {
    "adventure", "backgammon", "blackjack", "darkchambers", "earthworld", "elevator_action", "entombed", "et",
    "haunted_house", "keystone_kapers", "miniature_golf", "othello", "pitfall2", "solaris", "space_war",
    "superman", "video_checkers", "video_chess", "video_cube",
}
NO_LIFE_LOST = NO_GAME_OVER - {"haunted_house", "keystone_kapers", "solaris"}


@pytest.mark.parametrize("rom", SAMPLED)
def test_lockstep_every_game(rom: str) -> None:
    ended = lockstep(rom, STEPS)
    if FULL:
        assert ended != (rom in NO_GAME_OVER), f"{rom}: game over reached: {ended} (within {STEPS} steps)"


@pytest.mark.parametrize("rom", SAMPLED)
def test_lockstep_every_game_episodic_life(rom: str) -> None:
    # The step that loses a life ends the frame skip and the episode, as gymnasium's terminal_on_life_loss.
    ended = lockstep(rom, STEPS, episodic_life=True)
    if FULL:
        assert ended != (rom in NO_LIFE_LOST), f"{rom}: life lost or game over: {ended} (within {STEPS} steps)"


@pytest.mark.parametrize(
    ("rom", "options"),
    [
        ("breakout", {"full_action_space": True}),
        ("pong", {"full_action_space": True}),
        ("space_invaders", {"mode": 2, "difficulty": 1}),
        ("breakout", {"mode": 12}),
        ("freeway", {"mode": 3, "difficulty": 1}),
        ("pong", {"difficulty": 1}),
    ],
)
def test_lockstep_options(rom: str, options: dict) -> None:
    # full_action_space, mode and difficulty as gymnasium's AtariEnv takes them, stepped side by side.
    lockstep(rom, 300 if FULL else 120, **options)


def fire_start_screen(rom: str) -> tuple[np.ndarray, bool]:
    """ALE's gray screen after a reset and, where the game's action set has FIRE, one FIRE frame."""
    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setFloat("repeat_action_probability", 0.0)
    ale.loadROM(roms.get_rom_path(rom))
    ale.reset_game()
    fire = ale_py.Action.FIRE in ale.getMinimalActionSet()
    if fire:
        ale.act(ale_py.Action.FIRE)
    return ale.getScreenGrayscale(), fire


@pytest.mark.parametrize("rom", TALL)
def test_crop_210_reads_the_top_rows(rom: str) -> None:
    task = f"{task_name(rom)}-v5"
    screen, _ = fire_start_screen(rom)
    top = cv2.resize(screen[:210], (84, 84), interpolation=cv2.INTER_AREA)
    whole = cv2.resize(screen, (84, 84), interpolation=cv2.INTER_AREA)
    cropped = rlpool.make(task, num_envs=1, seed=0, noop_max=0, crop_210=True).reset()[0][0, -1]
    plain = rlpool.make(task, num_envs=1, seed=0, noop_max=0).reset()[0][0, -1]
    np.testing.assert_array_equal(cropped, top)
    np.testing.assert_array_equal(plain, whole)
    # The compat module is EnvPool's: it crops unless told otherwise.
    from rlpool.compat import envpool as compat

    env = compat.make_gymnasium(task, num_envs=1, seed=0, noop_max=0)
    np.testing.assert_array_equal(env.reset()[0][0, -1], top)
    assert "crop_210" not in env.spec.config._fields
    env.close()


def test_envpool_crops_as_crop_210_does() -> None:
    # EnvPool 1.2.5 itself, against raw ALE (its noop_max=1 draws no no-op; games with FIRE get its fire
    # reset), then side by side with rlpool.compat.envpool for a few hundred steps.
    envpool = pytest.importorskip("envpool")
    from rlpool.compat import envpool as compat

    checked = 0
    for rom in TALL:
        screen, fire = fire_start_screen(rom)
        if not fire:
            continue
        task = f"{task_name(rom)}-v5"
        theirs = envpool.make_gymnasium(task, num_envs=1, seed=0, noop_max=1)
        ours = compat.make_gymnasium(task, num_envs=1, seed=0, noop_max=1)
        their_obs, _ = theirs.reset()
        our_obs, _ = ours.reset()
        top = cv2.resize(screen[:210], (84, 84), interpolation=cv2.INTER_AREA)
        np.testing.assert_array_equal(their_obs[0, -1], top, err_msg=f"EnvPool {task}")
        np.testing.assert_array_equal(our_obs[0], their_obs[0], err_msg=task)
        rng = np.random.default_rng(1)
        for t in range(100):
            a = rng.integers(ours.single_action_space.n, size=1)
            our_obs, our_rew, our_term, _, _ = ours.step(a)
            their_obs, their_rew, their_term, _, _ = theirs.step(a)
            assert our_rew[0] == their_rew[0] and our_term[0] == their_term[0], (task, t)
            if their_term[0]:
                break
            np.testing.assert_array_equal(our_obs[0], their_obs[0], err_msg=f"{task} step {t}")
        theirs.close()
        ours.close()
        checked += 1
    assert checked >= 5


def our_draws(seed: int) -> XoshiroGenerator:
    """Env 0's generator of a pool made with ``seed``, as rlpool's C++ ``Rng::seed_with`` seeds it (splitmix64)."""
    words, state = [], seed
    for _ in range(4):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        words.append(z ^ (z >> 31))
    return XoshiroGenerator(tuple(words))


class InjectedStart(gym.Wrapper):
    """gymnasium's AtariEnv whose seeded reset uses the draws rlpool's env makes from the same seed.

    rlpool's first reset draws ALE's own seed (the sticky-action repeats) and then, with ``noop_max``, the
    no-op count (1..noop_max; FIRE takes the last no-op's place in games with FIRE, as EnvPool does).
    gymnasium draws both from other generators: here they are set to rlpool's values, so both run the same
    ALE from the same state and the rest is compared as it is.
    """

    def __init__(self, env: gym.Env, seed: int, noop_max: int, fire_reset: bool) -> None:
        super().__init__(env)
        draws = our_draws(seed)
        self.ale_seed = draws.next() >> 33
        self.noops = draws._integer(noop_max) + 1 if noop_max > 0 else 0
        self.fire = fire_reset and ale_py.Action.FIRE in self.env.unwrapped.ale.getMinimalActionSet()
        if self.fire:
            self.noops = max(self.noops - 1, 0)

    def reset(self, **kwargs):  # type: ignore[no-untyped-def]
        base = self.env.unwrapped
        original = base.seed_game

        def seed_game(seed: int | None = None) -> tuple[int, int]:
            seeds = original(seed)
            base.ale.setInt("random_seed", int(self.ale_seed))  # before gymnasium loads the ROM
            return seeds

        base.seed_game = seed_game
        try:
            obs, info = self.env.reset(**kwargs)
        finally:
            base.seed_game = original
        for _ in range(self.noops):
            obs, _, terminated, truncated, info = self.env.step(0)
            assert not (terminated or truncated)
        if self.fire:
            obs, _, _, _, info = self.env.step(list(base.ale.getMinimalActionSet()).index(ale_py.Action.FIRE))
        return obs, info


@pytest.mark.parametrize(
    ("rom", "options"),
    [
        ("breakout", {"repeat_action_probability": 0.25, "noop_max": 0, "use_fire_reset": False}),
        ("pong", {"repeat_action_probability": 0.5, "noop_max": 0, "use_fire_reset": False}),
        ("space_invaders", {}),  # the defaults: noop_max=30 with fire reset
        ("breakout", {"noop_max": 30, "repeat_action_probability": 0.25}),
        ("ms_pacman", {"noop_max": 10}),  # no FIRE in its minimal set: no-ops only
    ],
)
def test_sticky_actions_and_noop_starts_match_gymnasium(rom: str, options: dict) -> None:
    task = f"{task_name(rom)}-v5"
    seed = 11
    ours = rlpool.make(task, num_envs=1, seed=seed, **options)
    cfg = ours.config
    env = gym.make(f"ALE/{task}", frameskip=1, repeat_action_probability=cfg["repeat_action_probability"],
                   full_action_space=False)
    start = InjectedStart(env, seed, cfg["noop_max"], cfg["use_fire_reset"])
    ref = FrameStackObservation(
        AtariPreprocessing(start, noop_max=0, frame_skip=FRAME_SKIP, screen_size=84, terminal_on_life_loss=False),
        4,
    )
    ale = ref.unwrapped.ale
    obs, info = ours.reset()
    ref_obs, _ = ref.reset(seed=seed)
    np.testing.assert_array_equal(info["ram"][0], ale.getRAM(), err_msg=f"{task}: reset ({start.noops} no-ops)")
    np.testing.assert_array_equal(obs[0], ref_obs)
    rng = np.random.default_rng(seed)
    for t in range(400 if FULL else 150):
        action = int(rng.integers(ref.action_space.n))
        obs, reward, terminated, _, info = ours.step(np.array([action]))
        ref_obs, ref_reward, ref_terminated, _, _ = ref.step(action)
        np.testing.assert_array_equal(info["ram"][0], ale.getRAM(), err_msg=f"{task}: RAM at step {t}")
        assert reward[0] == ref_reward and terminated[0] == ref_terminated, (task, t)
        if ref_terminated:
            break
        np.testing.assert_array_equal(obs[0], ref_obs, err_msg=f"{task}: step {t}")
    ours.close()
    ref.close()


def test_sticky_actions_change_the_game() -> None:
    # The comparison above can fail: with repeats the game goes elsewhere than without them.
    rams = []
    for p in (0.0, 0.25):
        env = rlpool.make("Breakout-v5", num_envs=1, seed=11, noop_max=0, repeat_action_probability=p)
        env.reset()
        rng = np.random.default_rng(0)
        for _ in range(100):
            *_, info = env.step(rng.integers(4, size=1))
        rams.append(info["ram"][0].copy())
    assert not np.array_equal(rams[0], rams[1])
