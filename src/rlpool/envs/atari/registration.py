"""Atari 2600 games on the Arcade Learning Environment, as EnvPool's ``<Game>-v5`` tasks.

The emulator is ALE itself (built from the ale-py source distribution, see
``family.cmake``); the ROMs come from the installed ``ale-py`` package, the one
gymnasium's ``ALE/<Game>-v5`` uses. A game's ROM path is looked up here, in
Python, and handed to the C++ env as its ``rom_path`` option.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

from rlpool.registry import register, register_id_note

# Every game whose ROM ale-py ships and that gymnasium registers as ALE/<Game>-v5
# (ale-py's four two-player-only ROMs -- combat, joust, maze_craze, warlords -- are not).
GAMES: tuple[str, ...] = (
    "adventure", "air_raid", "alien", "amidar", "assault", "asterix", "asteroids", "atlantis", "atlantis2",
    "backgammon", "bank_heist", "basic_math", "battle_zone", "beam_rider", "berzerk", "blackjack", "bowling",
    "boxing", "breakout", "carnival", "casino", "centipede", "chopper_command", "crazy_climber", "crossbow",
    "darkchambers", "defender", "demon_attack", "donkey_kong", "double_dunk", "earthworld", "elevator_action",
    "enduro", "entombed", "et", "fishing_derby", "flag_capture", "freeway", "frogger", "frostbite", "galaxian",
    "gopher", "gravitar", "hangman", "haunted_house", "hero", "human_cannonball", "ice_hockey", "jamesbond",
    "journey_escape", "kaboom", "kangaroo", "keystone_kapers", "king_kong", "klax", "koolaid", "krull",
    "kung_fu_master", "laser_gates", "lost_luggage", "mario_bros", "miniature_golf", "montezuma_revenge", "mr_do",
    "ms_pacman", "name_this_game", "othello", "pacman", "phoenix", "pitfall", "pitfall2", "pong", "pooyan",
    "private_eye", "qbert", "riverraid", "road_runner", "robotank", "seaquest", "sir_lancelot", "skiing", "solaris",
    "space_invaders", "space_war", "star_gunner", "superman", "surround", "tennis", "tetris", "tic_tac_toe_3d",
    "time_pilot", "trondead", "turmoil", "tutankham", "up_n_down", "venture", "video_checkers", "video_chess",
    "video_cube", "video_pinball", "wizard_of_wor", "word_zapper", "yars_revenge", "zaxxon",
)

MAX_EPISODE_STEPS = 27000  # EnvPool's limit: 108,000 frames at frame_skip=4


def task_name(rom_id: str) -> str:
    """ale-py's PascalCase game name for a snake_case ROM id (``tic_tac_toe_3d`` -> ``TicTacToe3D``)."""
    return rom_id.title().replace("_", "")


def roms_dir() -> Path | None:
    """The ROM folder: ``$ALE_ROMS_DIR`` if set (as ale-py honours it), else ale-py's ``roms`` folder.

    Found without importing ale-py, so that importing rlpool does not load ale-py's own copy of ALE.
    """
    env = os.environ.get("ALE_ROMS_DIR")
    if env:
        return Path(env)
    spec = importlib.util.find_spec("ale_py")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "roms"


def rom_path(rom_id: str) -> str:
    """Path of ``rom_id``'s ROM, or "" when ale-py is not installed (making the task then explains)."""
    folder = roms_dir()
    return "" if folder is None else str(folder / f"{rom_id}.bin")


for _rom in GAMES:
    register(f"{task_name(_rom)}-v5", "Atari", max_episode_steps=MAX_EPISODE_STEPS, rom_path=rom_path(_rom))


# gymnasium's (ale-py's) ALE/<Game>-v<N> is the raw emulator env; rlpool's <Game>-v5 is EnvPool's preprocessed
# one. The options that come closest to ALE v5 (frame skip 4, sticky actions 0.25, full RGB screens, no reset
# no-ops): named by the error of an ALE/ id instead of only suggesting rlpool's id.
ALE_V5_OPTIONS: dict[str, object] = {
    "img_height": 210, "img_width": 160, "gray_scale": False, "stack_num": 1, "noop_max": 0,
    "use_fire_reset": False, "repeat_action_probability": 0.25,
}


def ale_id_note(task_id: str) -> str | None:
    """What gymnasium's ``ALE/<Game>-v<N>`` is to rlpool: not its ``<Game>-v5``; None for any other id."""
    match = re.fullmatch(r"ALE/(\w+)-v(\d+)", task_id)
    if match is None or f"{match.group(1)}-v5" not in _GAME_IDS:
        return None
    ours = f"{match.group(1)}-v5"
    options = ", ".join(f"{k}={v!r}" for k, v in ALE_V5_OPTIONS.items())
    return (
        f"({task_id!r} is gymnasium's raw ALE env; rlpool's {ours!r} is EnvPool's preprocessed Atari env: frame "
        "skip 4 taking the max of the last two frames, 84x84 grayscale, 4 stacked frames, up to 30 no-ops and "
        "FIRE at reset, no sticky actions. Closest to ALE v5: "
        f"rlpool.make({ours!r}, {options}); its frames stay channel-first and the max of the skip's last two.)"
    )


_GAME_IDS = frozenset(f"{task_name(rom)}-v5" for rom in GAMES)
register_id_note(ale_id_note)
