"""ViZDoom scenarios on the ViZDoom engine, as EnvPool's ``<Scenario>-v1`` tasks.

The controller (ViZDoom's C++ ``DoomGame``) is compiled into rlpool from the vizdoom source
distribution (see ``family.cmake``); the engine executable, the base WAD (freedoom2) and the
scenarios come from the installed ``vizdoom`` package, found here without importing it. EnvPool's
``D1Basic-v1`` ... ``D4Battle2-v1`` play DirectFuturePrediction's maps instead, from EnvPool's data wheel
``envpool-assets``, fetched into rlpool's cache when a spec of one is first made (``assets.py``).
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rlpool.envs.vizdoom import assets
from rlpool.registry import register

VIZDOOM_VERSION = "1.3.2"
"""The vizdoom release whose controller is built in and whose wheel provides the engine."""

# Every scenario the vizdoom package ships as a .cfg with a .wad of the same name (EnvPool's list).
SCENARIOS: tuple[str, ...] = (
    "basic", "basic_audio", "basic_notifications", "cig", "deadly_corridor", "deathmatch", "defend_the_center",
    "defend_the_line", "health_gathering", "health_gathering_supreme", "multi_duel", "my_way_home",
    "predict_position", "rocket_basic", "simpler_basic", "take_cover",
)

MAX_EPISODE_STEPS = 525  # EnvPool's limit for every ViZDoom task

ENVPOOL_INFO: tuple[str, ...] = (
    "AMMO2", "AMMO3", "AMMO4", "AMMO5", "AMMO6", "AMMO7", "ARMOR", "DAMAGECOUNT", "DEATHCOUNT", "FRAGCOUNT",
    "HEALTH", "HITCOUNT", "KILLCOUNT", "SELECTED_WEAPON", "SELECTED_WEAPON_AMMO", "USER2",
)
"""The game variables EnvPool adds to every cfg's and reports in info (its order)."""


def _number(option: str, value: Any) -> float:
    """A finite real number of a dict option's value, else a TypeError/ValueError naming the option."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{option}: expected a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{option}: numbers must be finite, got {value!r}")
    return number


def _integer(option: str, value: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{option}: expected an int, got {value!r}")
    return int(value)


def _entries(option: str, value: Any, key: Any, fields: tuple[Any, ...]) -> Any:
    """A dict option as the text the C++ option takes ("KEY:v1:v2 ..."); a str passes as it is."""
    if isinstance(value, str):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"{option} must be a dict, got {value!r}")
    words = []
    for k, v in value.items():
        name = key(option, k)
        if len(fields) == 1:
            items = [v]
        elif isinstance(v, (str, bytes)) or not isinstance(v, (Sequence, np.ndarray)) or len(v) != len(fields):
            raise TypeError(f"{option}[{k!r}] must be a tuple of {len(fields)} numbers, got {v!r}")
        else:
            items = list(v)
        values = (repr(f(f"{option}[{k!r}]", x)) for f, x in zip(fields, items, strict=True))
        words.append(":".join([str(name), *values]))
    return " ".join(words)


def _name(option: str, key: Any) -> str:
    if not isinstance(key, str) or not key or any(c.isspace() or c == ":" for c in key):
        raise ValueError(f"{option}: keys must be ViZDoom names, got {key!r}")
    return key


def encode_options(options: dict[str, Any]) -> dict[str, Any]:
    """EnvPool's dict options written as the text the C++ options take (see ``TaskSpec.encode``).

    ``reward_config`` ``{game variable: (pos, neg)}``, ``selected_weapon_reward_config``
    ``{weapon slot: reward}`` and ``delta_button_config`` ``{delta button: (n, min, max)}``. The names
    are checked against ViZDoom's by the env (a ValueError naming the option).
    """
    out = dict(options)
    if "reward_config" in out:
        out["reward_config"] = _entries("reward_config", out["reward_config"], _name, (_number, _number))
    if "selected_weapon_reward_config" in out:
        out["selected_weapon_reward_config"] = _entries(
            "selected_weapon_reward_config", out["selected_weapon_reward_config"], _integer, (_number,))
    if "delta_button_config" in out:
        out["delta_button_config"] = _entries(
            "delta_button_config", out["delta_button_config"], _name, (_integer, _number, _number))
    return out


def decode_options(config: dict[str, Any]) -> dict[str, Any]:
    """The dict options of a config back as EnvPool gives them: dicts sorted by key, numbers as float32.

    EnvPool keeps these values in C++ maps of float32 (``{"HEALTH": (0.004999999888241291, ...)}``).
    """
    out = dict(config)

    def f32(text: str) -> float:
        return float(np.float32(float(text)))

    def fields(text: str) -> list[list[str]]:
        return [word.split(":") for word in text.split()]

    if "reward_config" in out:
        out["reward_config"] = {k: (f32(p), f32(n)) for k, p, n in sorted(fields(out["reward_config"]))}
    if "selected_weapon_reward_config" in out:
        slots = {int(float(k)): f32(v) for k, v in fields(out["selected_weapon_reward_config"])}
        out["selected_weapon_reward_config"] = dict(sorted(slots.items()))
    if "delta_button_config" in out:
        out["delta_button_config"] = {k: (int(float(n)), f32(lo), f32(hi))
                                      for k, n, lo, hi in sorted(fields(out["delta_button_config"]))}
    return out


def task_name(scenario: str) -> str:
    """EnvPool's id stem for a scenario file name (``defend_the_center`` -> ``DefendTheCenter``)."""
    return "".join(part.capitalize() for part in scenario.split("_"))


def package_dir() -> Path | None:
    """The installed vizdoom package's folder, found without importing it; None if it is not installed."""
    spec = importlib.util.find_spec("vizdoom")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def _paths() -> dict[str, str]:
    """The engine and base WAD paths (empty without vizdoom: making a task then says what is missing)."""
    folder = package_dir()
    if folder is None:
        return {"vzd_path": "", "iwad_path": ""}
    return {"vzd_path": str(folder / "vizdoom"), "iwad_path": str(folder / "freedoom2.wad")}


def scenario_paths(scenario: str) -> dict[str, str]:
    """cfg_path and wad_path of a scenario the vizdoom package ships (empty without vizdoom)."""
    folder = package_dir()
    if folder is None:
        return {"cfg_path": "", "wad_path": ""}
    base = folder / "scenarios"
    return {"cfg_path": str(base / f"{scenario}.cfg"), "wad_path": str(base / f"{scenario}.wad")}


# cig and multi_duel are deathmatch maps without a single-player start ("No player 1 start"): they run as
# a one-player deathmatch host, as ViZDoom's multiplayer examples start them.
HOSTED: dict[str, str] = {"cig": "-host 1 -deathmatch", "multi_duel": "-host 1 -deathmatch"}

for _scenario in SCENARIOS:
    register(f"{task_name(_scenario)}-v1", "Vizdoom", max_episode_steps=MAX_EPISODE_STEPS, waits_on_process=True,
             encode=encode_options, game_args=HOSTED.get(_scenario, ""), **scenario_paths(_scenario), **_paths())
# EnvPool's D1-D4 tasks: DirectFuturePrediction's maps, from the envpool-assets wheel (assets.py).
for _scenario in assets.SCENARIOS:
    register(f"{task_name(_scenario)}-v1", "Vizdoom", max_episode_steps=MAX_EPISODE_STEPS, waits_on_process=True,
             encode=encode_options, prepare=assets.prepare(_scenario), **assets.map_paths(_scenario), **_paths())
# VizdoomCustom-v1 plays the cfg_path (and wad_path) it is given; by default basic.cfg, so that its spec
# (and the reference page) exists without one (EnvPool's default, "", cannot be made).
register("VizdoomCustom-v1", "Vizdoom", max_episode_steps=MAX_EPISODE_STEPS, waits_on_process=True,
         encode=encode_options, cfg_path=scenario_paths("basic")["cfg_path"], **_paths())


def doomgame(task_id: str, config_path: str = "", **options: Any) -> Any:
    """The vizdoom package's own (Python) ``DoomGame``, configured as rlpool's env for ``task_id`` is.

    Same cfg, WADs, engine, map and engine arguments (the task's defaults, overridden by ``options``);
    the engine is not started. ``config_path``: where the engine writes its settings file (default:
    ``_vizdoom.ini`` in the working folder, where it also makes a ``_vizdoom/`` folder). The reference of
    the tests and the bare-loop peer of ``rlpool bench``.
    """
    import vizdoom as vzd

    from rlpool.registry import task

    t = task(task_id)
    o = {**t.env_defaults, **options}
    if t.prepare is not None:  # the D1-D4 maps: fetched first
        o.update(t.prepare(o))
    game = vzd.DoomGame()
    game.load_config(o["cfg_path"])
    game.set_vizdoom_path(o["vzd_path"])
    game.set_doom_game_path(o["iwad_path"])
    if o.get("wad_path"):
        game.set_doom_scenario_path(o["wad_path"])
    game.set_doom_map(o.get("map_id", "map01"))
    if o.get("game_args"):
        game.add_game_args(o["game_args"])
    game.set_window_visible(False)
    game.set_mode(vzd.Mode.PLAYER)
    if config_path:
        game.set_doom_config_path(config_path)
    return game
