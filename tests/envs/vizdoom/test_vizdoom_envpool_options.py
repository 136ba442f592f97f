"""EnvPool 1.2.5's ViZDoom options: combined actions, force_speed, reward_config and EnvPool's info.

Combined actions: the action counts and the button vector behind each action index against EnvPool itself
(both sides record a demo, replayed here with vizdoom's ``DoomGame``, whose ``get_last_action`` says which
buttons each tic held). The reward: against vizdoom's ``DoomGame`` driven here with the same cfg, seeds and
actions, with EnvPool's formula (``EnvpoolReward`` below, written from EnvPool's vizdoom_env.h) applied to
its game variables; where EnvPool is installed the same reference also reproduces EnvPool's own rewards.
The EnvPool parts skip without envpool (CI); the DoomGame ones do not.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from lane import require, vizdoom_missing
from test_vizdoom import random_actions, reference_game, splitmix_words
from xoshiro import XoshiroGenerator

import rlpool
from rlpool.envs.vizdoom.registration import ENVPOOL_INFO, SCENARIOS, task_name

vzd = pytest.importorskip("vizdoom")
require(vizdoom_missing())  # rlpool built without the controller library: the package to install
try:  # an import, not find_spec: scripts/sanitize.sh hides envpool behind a package that refuses it
    import envpool
except ImportError:
    envpool = None
needs_envpool = pytest.mark.skipif(envpool is None, reason="envpool is not installed (or hidden)")

# EnvPool's defaults (envpool/vizdoom/vizdoom_env.h), as its make_spec(...).config shows them.
REWARD_CONFIG = {
    "FRAGCOUNT": (1, -1.5), "KILLCOUNT": (1, 0), "DEATHCOUNT": (-0.75, 0.75), "HITCOUNT": (0.01, -0.01),
    "DAMAGECOUNT": (0.003, -0.003), "HEALTH": (0.005, -0.003), "ARMOR": (0.005, -0.001),
    **{f"WEAPON{i}": w for i, w in enumerate([(0.02, -0.01)] * 3 + [(0.1, -0.05)] * 3 + [(0.2, -0.1)] * 2)},
    **{f"AMMO{i}": a for i, a in enumerate([(0.0002, -0.0001)] * 3 + [(0.001, -0.0005)] * 3 + [(0.002, -0.001)] * 2)},
}
WEAPON_REWARD = {i: r for i, r in enumerate([0.0002] * 3 + [0.001] * 3 + [0.002] * 2)}
f32 = np.float32


@pytest.fixture(autouse=True)
def _engines_write_into_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """vizdoom's and EnvPool's engines write _vizdoom.ini and a _vizdoom/ folder into the working folder."""
    monkeypatch.chdir(tmp_path)


class EnvpoolReward:
    """EnvPool's reward from the game variables of one state to the next (float32 sums, as its C++)."""

    def __init__(self, names: list[str], config: dict[str, Any], weapons: dict[int, float], duration: int) -> None:
        self.names = names
        self.pos = [float(f32(config[n][0])) if n in config else 0.0 for n in names]
        self.neg = [float(f32(config[n][1])) if n in config else 0.0 for n in names]
        self.weapon = [float(f32(weapons.get(i, 0.0))) for i in range(10)]
        self.duration = duration
        self.counters = [i for i, n in enumerate(names) if n in ("HITCOUNT", "DAMAGECOUNT", "DEATHCOUNT")]

    def reset(self, raw: list[float]) -> None:
        self.base = {i: raw[i] for i in self.counters}  # these count from the episode's start
        self.values = [v - self.base.get(i, 0.0) for i, v in enumerate(raw)]
        self.selected, self.held = -1, 0
        last = list(raw)
        for i in self.counters:
            last[i] = 0.0
        self._reward(last)

    def step(self, raw: list[float] | None) -> np.float32:
        if raw is None:  # the episode's end: no state
            return f32(0)
        last = self.values
        self.values = [v - self.base.get(i, 0.0) for i, v in enumerate(raw)]
        return self._reward(list(last))

    def _reward(self, last: list[float]) -> np.float32:
        reward, weapon, ammo, now = f32(0), -1, 0, self.values
        for i, name in enumerate(self.names):
            delta = now[i] - last[i]
            if name == "DAMAGECOUNT":
                delta = min(delta, 200)
            elif name == "HITCOUNT":
                delta = min(delta, 5)
            elif name == "SELECTED_WEAPON":
                weapon = int(now[i])
            elif name == "SELECTED_WEAPON_AMMO":
                ammo = int(now[i])
            elif name == "HEALTH":
                if last[i] < 0 and now[i] < 0:
                    last[i] = now[i] = 100
                elif now[i] < 0:
                    now[i] = last[i]
                elif last[i] < 0:
                    last[i] = now[i]
                delta = now[i] - last[i]
            if delta >= 0:
                reward = f32(reward + f32(delta * self.pos[i]))
            else:
                reward = f32(reward - f32(delta * self.neg[i]))
        if weapon == self.selected:
            self.held += 1
        else:
            self.selected, self.held = weapon, 1
        if weapon >= 0 and self.held >= self.duration and ammo > 0:
            reward = f32(float(reward) + self.weapon[weapon])
        return reward


def with_envpool_variables(game: vzd.DoomGame) -> list[str]:
    """EnvPool's 16 game variables added after the cfg's, as both EnvPool and rlpool add them; their names."""
    for name in ENVPOOL_INFO:
        game.add_available_game_variable(getattr(vzd.GameVariable, name))
    return [v.name for v in game.get_available_game_variables()]


def replayed_actions(cfg: dict[str, Any], demo: Path) -> np.ndarray:
    """The buttons each tic of a demo held, as vizdoom's DoomGame replays it (``cfg``: a task's config)."""
    game = vzd.DoomGame()
    game.load_config(cfg["cfg_path"])
    game.set_doom_scenario_path(cfg["wad_path"])
    if cfg.get("game_args"):
        game.add_game_args(cfg["game_args"])
    game.set_window_visible(False)
    game.init()
    try:
        game.replay_episode(str(demo))
        seen = []
        while not game.is_episode_finished():
            game.advance_action()
            seen.append(game.get_last_action())
        return np.array(seen)
    finally:
        game.close()


@needs_envpool
def test_action_counts_match_envpool() -> None:
    for scenario in SCENARIOS:
        task = f"{task_name(scenario)}-v1"
        for force_speed in (False, True):
            ours = rlpool.make_spec(task, use_combined_action=True, force_speed=force_speed).action_space
            theirs = envpool.make_spec(task, use_combined_action=True, force_speed=force_speed).action_space
            assert ours.n == theirs.n, (task, force_speed)
    # A delta button's values multiply the actions, also (as EnvPool's) where the cfg lacks the button.
    for task in ("Deathmatch-v1", "Basic-v1"):
        delta = {"TURN_LEFT_RIGHT_DELTA": (3, -10.0, 10.0), "LOOK_UP_DOWN_DELTA": (2, -1.0, 1.0)}
        ours = rlpool.make_spec(task, use_combined_action=True, delta_button_config=delta).action_space
        theirs = envpool.make_spec(task, use_combined_action=True, delta_button_config=delta).action_space
        assert ours.n == theirs.n, task


@needs_envpool
@pytest.mark.parametrize(("scenario", "options"), [
    ("my_way_home", {}),
    ("deadly_corridor", {}),
    ("deathmatch", {}),
    ("deathmatch", {"force_speed": True}),
    ("deathmatch", {"delta_button_config": {"TURN_LEFT_RIGHT_DELTA": (3, -10.0, 10.0)}}),
])
def test_button_vectors_match_envpool(scenario: str, options: dict[str, Any], tmp_path: Path) -> None:
    task = f"{task_name(scenario)}-v1"
    n = rlpool.make_spec(task, use_combined_action=True, **options).action_space.n
    steps = 12
    acts = np.random.default_rng(0).integers(0, n, steps)
    acts[:2] = (0, n - 1)
    ours_dir, theirs_dir = tmp_path / "ours", tmp_path / "theirs"
    ours_dir.mkdir()
    theirs_dir.mkdir()
    ours = rlpool.make(task, use_combined_action=True, lmp_save_dir=str(ours_dir), **options)
    try:
        ours.reset()
        for a in acts:
            ours.step(np.array([a]))
        ours.reset()  # a new episode: the recorded one is written
    finally:
        ours.close()
    # EnvPool records from its second episode on: a first one of `steps` steps (its time limit), then ours.
    theirs = envpool.make(task, env_type="gymnasium", use_combined_action=True, lmp_save_dir=str(theirs_dir),
                          max_episode_steps=steps, **options)
    try:
        theirs.reset()
        for a in [0] * (steps + 1) + list(acts) + [0]:
            theirs.step(np.array([a]))
    finally:
        theirs.close()
        del theirs
    cfg = rlpool.make_spec(task).config
    ours_demo = next(ours_dir.glob("*_1.lmp"))
    seen_ours = replayed_actions(cfg, ours_demo)
    seen_theirs = replayed_actions(cfg, theirs_dir / "env_0_1.lmp")
    first_tics = np.arange(steps) * 4  # frame_skip 4: each step's action holds 4 tics
    np.testing.assert_array_equal(seen_ours[first_tics], seen_theirs[first_tics])
    buttons = [b.name for b in reference_game(scenario).get_available_buttons()]
    if options.get("force_speed"):
        assert (seen_ours[first_tics, buttons.index("SPEED")] == 1).all()


def test_force_speed_holds_speed_in_every_action(tmp_path: Path) -> None:
    """force_speed: SPEED held in each combined action (half as many); no change without combined actions."""
    plain = rlpool.make_spec("Deathmatch-v1", use_combined_action=True).action_space.n
    fast = rlpool.make_spec("Deathmatch-v1", use_combined_action=True, force_speed=True).action_space.n
    assert plain == 2 * fast
    assert rlpool.make_spec("Basic-v1", use_combined_action=True, force_speed=True).action_space.n == 6  # no SPEED
    assert rlpool.make_spec("Deathmatch-v1", force_speed=True).action_space.shape == (20,)
    buttons = [b.name for b in reference_game("deathmatch").get_available_buttons()]
    acts = np.random.default_rng(1).integers(0, fast, 10)
    env = rlpool.make("Deathmatch-v1", use_combined_action=True, force_speed=True, lmp_save_dir=str(tmp_path))
    try:
        env.reset()
        for a in acts:
            env.step(np.array([a]))
        env.reset()
    finally:
        env.close()
    seen = replayed_actions(rlpool.make_spec("Deathmatch-v1").config, next(tmp_path.glob("*_1.lmp")))
    held = seen[np.arange(len(acts)) * 4]
    assert (held[:, buttons.index("SPEED")] == 1).all()
    assert len({tuple(row) for row in held[:, : buttons.index("SELECT_WEAPON1")]}) > 1  # the actions differ


def shaped_reference(game: vzd.DoomGame, names: list[str], acts: np.ndarray, seeds: Any,
                     config: dict[str, Any] | None = None, first_new_episode: bool = True,
                     ) -> tuple[list[np.float32], list[list[float]], list[bool]]:
    """Rewards, EnvPool's info values and ends of a DoomGame run, autoresets as rlpool's (NextStep).

    rlpool starts each episode with new_episode (the first one too); EnvPool plays init()'s first.
    """
    shaper = EnvpoolReward(names, REWARD_CONFIG if config is None else config, WEAPON_REWARD, 5)
    game.set_seed(next(seeds))
    game.init()
    if first_new_episode:
        game.new_episode()
    shaper.reset(game.get_state().game_variables)
    rewards, infos, ends, ended = [], [], [], False
    for a in acts:
        if ended:
            game.set_seed(next(seeds))
            game.new_episode()
            shaper.reset(game.get_state().game_variables)
            rewards.append(f32(0))
            ended = False
        else:
            game.make_action(list(a), 4)
            state = game.get_state()
            rewards.append(shaper.step(None if state is None else state.game_variables))
            ended = game.is_episode_finished()
        infos.append([shaper.values[names.index(k)] for k in ENVPOOL_INFO])
        ends.append(ended)
    return rewards, infos, ends


@pytest.mark.parametrize("scenario", ["health_gathering", "deadly_corridor", "deathmatch"])
def test_reward_config_against_doomgame(scenario: str) -> None:
    reward_config_against(reference_game(scenario), f"{task_name(scenario)}-v1")


def reward_config_against(ref: vzd.DoomGame, task: str) -> None:
    """``task`` with EnvPool's reward and info against their formula on DoomGame ``ref`` (closed here)."""
    seed, steps = 4, 120
    names = with_envpool_variables(ref)
    acts = random_actions(ref, np.random.default_rng(2), steps)
    draws = XoshiroGenerator(splitmix_words(seed))
    try:
        rewards, infos, ends = shaped_reference(ref, names, acts, iter(lambda: draws.next() >> 32, None))
    finally:
        ref.close()
    assert any(r != 0 for r in rewards)
    env = rlpool.make(task, seed=seed, use_reward_config=True, envpool_info=True, max_episode_steps=10**6)
    try:
        env.reset()
        for t, a in enumerate(acts):
            _, reward, term, _, info = env.step(a[None])
            assert reward[0] == rewards[t], (t, reward[0], rewards[t])
            assert bool(term[0]) == ends[t], t
            assert [info[k][0] for k in ENVPOOL_INFO] == infos[t], t
    finally:
        env.close()


@needs_envpool
@pytest.mark.parametrize("scenario", ["health_gathering", "deathmatch"])
def test_reference_reward_is_envpools(scenario: str) -> None:
    """The reference formula reproduces EnvPool's own rewards (its cfg and engine seed, its episode timeout)."""
    seed, steps = 7, 100
    task = f"{task_name(scenario)}-v1"
    theirs = envpool.make(task, env_type="gymnasium", seed=seed)
    cfg = theirs.spec.config
    ref = vzd.DoomGame()
    ref.load_config(cfg.cfg_path)
    ref.set_doom_scenario_path(cfg.wad_path)
    ref.set_window_visible(False)
    ref.set_episode_timeout((cfg.max_episode_steps + 1) * cfg.frame_skip)  # EnvPool's, over the cfg's
    names = with_envpool_variables(ref)
    acts = random_actions(ref, np.random.default_rng(5), steps)
    try:
        theirs.reset()
        out = [theirs.step(a[None]) for a in acts]
    finally:
        theirs.close()
        del theirs
    try:
        rewards, infos, ends = shaped_reference(ref, names, acts, itertools.repeat(seed), dict(cfg.reward_config),
                                                first_new_episode=False)
    finally:
        ref.close()
    n = (ends.index(True) + 1) if True in ends else steps  # EnvPool's next episode has another seed
    assert any(r != 0 for r in rewards[:n])
    for t in range(n):
        _, reward, term, _, info = out[t]
        assert reward[0] == rewards[t], (t, reward[0], rewards[t])
        assert bool(term[0]) == ends[t], t
        assert [info[k][0] for k in ENVPOOL_INFO] == infos[t], t


@needs_envpool
def test_compat_layout_is_envpools() -> None:
    import rlpool.compat.envpool as compat

    given = {"reward_config": {"HEALTH": (1, -1), "KILLCOUNT": (2.5, 0.1)}, "selected_weapon_reward_config": {3: 0.5},
             "delta_button_config": {"MOVE_LEFT_RIGHT_DELTA": (4, -2, 2)}, "weapon_duration": 2}
    for options in ({}, given):  # EnvPool's defaults, and values it keeps as float32
        ours = compat.make_spec("Deathmatch-v1", use_combined_action=True, **options)
        theirs = envpool.make_spec("Deathmatch-v1", use_combined_action=True, **options)
        assert ours.config._fields == (*theirs.config._fields, "autoreset_mode")
        for key in ("reward_config", "selected_weapon_reward_config", "delta_button_config", "weapon_duration"):
            assert getattr(ours.config, key) == getattr(theirs.config, key), key
    assert {k: (v.dtype, v.shape) for k, v in ours.state_array_spec.items() if k != "obs"} == \
        {k: (v.dtype, v.shape) for k, v in theirs.state_array_spec.items() if k != "obs"}
    a, b = ours.action_array_spec["action"], theirs.action_array_spec["action"]
    assert (a.dtype, a.shape, a.minimum, a.maximum) == (b.dtype, b.shape, b.minimum, b.maximum)
    assert repr(ours.action_spec()) == repr(theirs.action_spec())
    env = compat.make("Basic-v1", env_type="gymnasium", use_combined_action=True)
    try:
        _, info = env.reset()
        _, reward, *_, info = env.step(np.array([0]))
        assert list(info) == ["env_id", "players", *ENVPOOL_INFO, "elapsed_step"]
        assert reward.dtype == np.float32
    finally:
        env.close()


@pytest.mark.parametrize(("options", "error", "match"), [
    ({"reward_config": {"NOT_A_VARIABLE": (1.0, -1.0)}}, ValueError, "reward_config: 'NOT_A_VARIABLE'"),
    ({"reward_config": {"HEALTH": 1.0}}, TypeError, r"reward_config\['HEALTH'\] must be a tuple of 2"),
    ({"reward_config": {"HEALTH": (1.0, "x")}}, TypeError, r"reward_config\['HEALTH'\]: expected a number"),
    ({"reward_config": {"HEALTH": (1.0, float("nan"))}}, ValueError, "reward_config.*finite"),
    ({"reward_config": [("HEALTH", 1.0, 1.0)]}, TypeError, "reward_config must be a dict"),
    ({"reward_config": "HEALTH:1"}, ValueError, "reward_config: entry 'HEALTH:1'"),
    ({"selected_weapon_reward_config": {9: 1.0}}, ValueError, "selected_weapon_reward_config: weapon slot '9'"),
    ({"selected_weapon_reward_config": {"2": 1.0}}, TypeError, "selected_weapon_reward_config: expected an int"),
    ({"delta_button_config": {"ATTACK": (2, 0.0, 1.0)}}, ValueError, "delta_button_config: 'ATTACK' is not"),
    ({"delta_button_config": {"TURN_LEFT_RIGHT_DELTA": (2.5, 0, 1)}}, TypeError, "delta_button_config.*an int"),
    ({"weapon_duration": -1}, ValueError, "weapon_duration"),
    ({"use_combined_action": 1}, TypeError, "use_combined_action"),
    ({"force_speed": "yes"}, TypeError, "force_speed"),
])
def test_bad_option_values_are_refused(options: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        rlpool.make_spec("Basic-v1", **options)


def test_out_of_range_combined_action_is_refused() -> None:
    env = rlpool.make("Basic-v1", use_combined_action=True)
    try:
        env.reset()
        with pytest.raises((ValueError, IndexError)):
            env.step(np.array([6]))
    finally:
        env.close()


def test_native_info_adds_envpools_variables(tmp_path: Path) -> None:
    """The native info: the cfg's variables (HITCOUNT & co. by their names), then EnvPool's that it lacks."""
    basic = Path(rlpool.make_spec("Basic-v1").config["cfg_path"])
    text = basic.read_text()
    start = text.index("available_game_variables")
    end = text.index("}", start) + 1
    cfg = tmp_path / "custom.cfg"
    cfg.write_text(text[:start] + "available_game_variables = { HITCOUNT DAMAGE_TAKEN HEALTH }" + text[end:])
    wad = str(basic.with_suffix(".wad"))
    names = rlpool.make_spec("VizdoomCustom-v1", cfg_path=str(cfg), wad_path=wad).arrays.info_names
    expected = ["HITCOUNT", "DAMAGE_TAKEN", "HEALTH"]
    assert list(names) == expected + [k for k in ENVPOOL_INFO if k not in expected]
    assert rlpool.make_spec("VizdoomCustom-v1", cfg_path=str(cfg), wad_path=wad,
                            envpool_info=True).arrays.info_names == ENVPOOL_INFO
