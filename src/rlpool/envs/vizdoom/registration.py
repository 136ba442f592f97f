"""ViZDoom scenarios on the ViZDoom engine, as EnvPool's ``<Scenario>-v1`` tasks.

The controller (ViZDoom's C++ ``DoomGame``) is compiled into rlpool from the vizdoom source
distribution (see ``family.cmake``); the engine executable, the base WAD (freedoom2) and the
scenarios come from the installed ``vizdoom`` package, found here without importing it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rlpool.registry import register

if TYPE_CHECKING:
    from rlpool.reference import FamilyDoc

VIZDOOM_VERSION = "1.3.2"
"""The vizdoom release whose controller is built in and whose wheel provides the engine."""

# Every scenario the vizdoom package ships as a .cfg with a .wad of the same name (EnvPool's list).
SCENARIOS: tuple[str, ...] = (
    "basic", "basic_audio", "basic_notifications", "cig", "deadly_corridor", "deathmatch", "defend_the_center",
    "defend_the_line", "health_gathering", "health_gathering_supreme", "multi_duel", "my_way_home",
    "predict_position", "rocket_basic", "simpler_basic", "take_cover",
)

MAX_EPISODE_STEPS = 525  # EnvPool's limit for every ViZDoom task


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
             game_args=HOSTED.get(_scenario, ""), **scenario_paths(_scenario), **_paths())
# VizdoomCustom-v1 plays the cfg_path (and wad_path) it is given; by default basic.cfg, so that its spec
# (and the reference page) exists without one (EnvPool's default, "", cannot be made).
register("VizdoomCustom-v1", "Vizdoom", max_episode_steps=MAX_EPISODE_STEPS, waits_on_process=True,
         cfg_path=scenario_paths("basic")["cfg_path"], **_paths())


def doomgame(task_id: str, config_path: str = "", **options: Any) -> Any:
    """The vizdoom package's own (Python) ``DoomGame``, configured as rlpool's env for ``task_id`` is.

    Same cfg, WADs, engine, map and engine arguments (the task's defaults, overridden by ``options``);
    the engine is not started. ``config_path``: where the engine writes its settings file (default:
    ``_vizdoom.ini`` in the working folder, where it also makes a ``_vizdoom/`` folder). The reference of
    the tests and the bare-loop peer of ``rlpool bench``.
    """
    import vizdoom as vzd

    from rlpool.registry import task

    o = {**task(task_id).env_defaults, **options}
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


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/vizdoom.md (see ``rlpool.reference``)."""
    from rlpool.reference import EnvDoc, FamilyDoc

    folder = package_dir()
    return FamilyDoc(
        name="vizdoom",
        title="ViZDoom",
        intro=f"""
ViZDoom {VIZDOOM_VERSION}'s single-player scenarios on the ViZDoom engine. ViZDoom's controller library
(its C++ `DoomGame`) is compiled into rlpool from the vizdoom source distribution, which needs Boost at build
time (Debian/Ubuntu: `apt-get install libboost-dev libboost-filesystem-dev libboost-thread-dev
libboost-system-dev libboost-chrono-dev`; without it these tasks raise an error when made). The engine
executable, the freedoom2 WAD and the scenarios come from the installed `vizdoom` package (`<vizdoom>` on
this page). The tasks are EnvPool's `<Scenario>-v1`, one per scenario the package ships, and
`VizdoomCustom-v1`, which takes `cfg_path` (default: the package's `basic.cfg`) and optionally `wad_path`
(default: the one the cfg names).
""",
        paths=((str(folder) if folder is not None else "", "<vizdoom>"),),
        envs=(
            EnvDoc(
                title="ViZDoom scenarios",
                env_types=("Vizdoom",),
                summary="""
Every env runs one engine process, started at its first reset and ended when the pool is closed or
collected, with the scenario's `.cfg` loaded by ViZDoom's own config loader. One step holds the action for
`frame_skip` tics (`DoomGame.make_action(action, frame_skip)`), then resizes the last screen buffer to
`img_height` × `img_width` like OpenCV's `INTER_AREA` (or `INTER_LINEAR` with `use_inter_area_resize=False`)
and stacks the last `stack_num` frames. Engine processes die with the pool, and with the Python process
even when it is killed (`PR_SET_PDEATHSIG`); they run in a process group of their own, so Ctrl-C interrupts
Python, not the engines. `Cig-v1` and `MultiDuel-v1` are deathmatch maps without a single-player start: they
run as a one-player deathmatch host (`game_args='-host 1 -deathmatch'`; vizdoom's own `DoomGame` crashes on
their cfg alone).
""",
                action_text="""
One float64 per button the cfg makes available (`available_buttons`), in its order, as
`DoomGame.make_action` takes them: a binary button is pressed when its value is non-zero, a delta button
moves by its value. EnvPool's `use_combined_action` and `force_speed` are not supported yet (making a task
with them True raises a ValueError).
""",
                observation_text="""
uint8 frames, `(stack_num × channels, img_height, img_width)`, oldest first; channels come from the cfg's
`screen_format` (3 for the default CRCGCB, 1 for GRAY8). After a reset every slot holds the first frame;
the final observation of an episode repeats its last screen (the engine has no state after the end).
`info` has one float64 entry per game variable the cfg makes available (`available_game_variables`),
named as ViZDoom names it (`AMMO2`, `HEALTH`, ...).
""",
                reward="""
`DoomGame`'s reward over the step's tics: the scenario's scripted reward plus the cfg's `living_reward`
per tic and `death_penalty`. EnvPool's `reward_config` shaping is not applied.
""",
                starting_state="""
Each reset draws the engine's seed from the env's generator (`DoomGame.set_seed`) and starts a new episode
(`new_episode`; recorded to `lmp_save_dir` when that is set). With `episodic_life=True` a reset after a death
respawns the player in the same episode instead.
""",
                termination="""
Terminates when ViZDoom says the episode is finished (the scenario's goal, the player's death, or the
cfg's `episode_timeout`), and with `episodic_life=True` when the player dies. The time limit of 525 steps
is EnvPool's.
""",
                version_history=("`v1`: EnvPool's id for these scenarios. rlpool registers no other version.",),
            ),
        ),
    )
