"""Procgen's 16 games under EnvPool 1.2.5's ids (``CoinrunEasy-v0``, ``MazeMemory-v0``, ...).

The games run in procgen 0.10.7's own library, ``libenv.so`` from the ``procgen-mirror==0.10.7`` wheel,
which rlpool's build fetches by name, version and file tag (without its dependencies), checks and unpacks
in its download cache (``family.cmake``); the C++ env opens it with dlopen (``procgen_env.cc``). Nothing
of procgen's Python part is installed or imported. Without the wheel the tasks are still registered and
making one raises an error that says what is missing.
"""

from __future__ import annotations

import os

from rlpool import _rlpool_core
from rlpool.registry import register

# procgen's games with their timeouts (EnvPool 1.2.5's max_episode_steps, which are procgen's own) and
# the distribution modes beyond easy and hard that each takes (EnvPool's registration; procgen's
# Game::parse_options and env.py's EXPLORATION_LEVEL_SEEDS).
GAMES: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("bigfish", 6000, ()),
    ("bossfight", 4000, ()),
    ("caveflyer", 1000, ("memory", "exploration")),
    ("chaser", 1000, ("extreme",)),
    ("climber", 1000, ("exploration",)),
    ("coinrun", 1000, ("exploration",)),
    ("dodgeball", 1000, ("extreme", "memory")),
    ("fruitbot", 1000, ()),
    ("heist", 1000, ("memory", "exploration")),
    ("jumper", 1000, ("memory", "exploration")),
    ("leaper", 500, ("extreme", "exploration")),
    ("maze", 500, ("memory", "exploration")),
    ("miner", 1000, ("memory",)),
    ("ninja", 1000, ("exploration",)),
    ("plunder", 4000, ()),
    ("starpilot", 1000, ("extreme",)),
)

# procgen's own timeout where it is not the game's time limit above: JumperMemory's levels last up to
# 2000 steps (jumper.cpp), while EnvPool's (and so rlpool's default) time limit is 1000.
TIMEOUTS: dict[tuple[str, str], int] = {("jumper", "memory"): 2000}

# EnvPool's integer distribution modes (procgen's DistributionMode; 20 is env.py's exploration).
DISTRIBUTION_MODES: dict[int, str] = {0: "easy", 1: "hard", 2: "extreme", 10: "memory", 20: "exploration"}


def task_id(game: str, mode: str) -> str:
    """EnvPool's id of ``game`` in distribution ``mode`` (``coinrun``, ``easy`` -> ``CoinrunEasy-v0``)."""
    return f"{game.capitalize()}{mode.capitalize()}-v0"


def build_root() -> str:
    """Where this build unpacked the procgen-mirror wheel ("" if it has none)."""
    options = {name: opts for name, opts, _ in _rlpool_core.env_types()}["Procgen"]
    return next(default for name, default, _ in options if name == "_library_root")


def library_root() -> str:
    """The unpacked procgen-mirror wheel the Procgen tasks use: ``$RLPOOL_PROCGEN_ROOT``, else the build's."""
    return os.environ.get("RLPOOL_PROCGEN_ROOT") or build_root()


def libenv_path() -> str:
    """Path of procgen's ``libenv.so`` (it may not exist: see ``library_root``)."""
    return os.path.join(library_root(), "procgen", "data", "prebuilt", "libenv.so")


_ROOT = library_root()
for _game, _steps, _extra in GAMES:
    for _mode in ("easy", "hard", *_extra):
        _timeout = TIMEOUTS.get((_game, _mode), _steps)
        register(task_id(_game, _mode), "Procgen", max_episode_steps=_steps, max_episode_steps_cap=_timeout,
                 _game=_game, _timeout=_timeout, distribution_mode=_mode, _library_root=_ROOT)
