"""The hand-written reference text of the ViZDoom family (``docs/envs/vizdoom.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.envs.vizdoom import assets
from rlpool.envs.vizdoom.registration import VIZDOOM_VERSION, package_dir
from rlpool.tools.docpage import EnvDoc, FamilyDoc


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/vizdoom.md (see ``rlpool.tools.docgen``)."""
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
this page). The tasks are EnvPool's `<Scenario>-v1`, one per scenario the package ships, EnvPool's
`D1Basic-v1`, `D2Navigation-v1`, `D3Battle-v1` and `D4Battle2-v1`, and `VizdoomCustom-v1`, which takes
`cfg_path` (default: the package's `basic.cfg`) and optionally `wad_path` (default: the one the cfg names).

The D1-D4 maps are not in the vizdoom package: they are the maps of Intel's DirectFuturePrediction (MIT
license), which EnvPool ships in its data wheel `{assets.PACKAGE}` (Apache-2.0). The first time a spec of one
of these tasks is made (`make`, `make_spec`; not when rlpool is built or imported), rlpool fetches that wheel
({assets.WHEEL_MB} MB) with pip by name and pinned version, installing and importing nothing of EnvPool's:
`pip download {assets.PACKAGE}=={assets.VERSION} --no-deps --only-binary=:all:`. It checks the wheel's sha256
and unpacks only the eight files these tasks play (`D1_basic.cfg`, `D1_basic.wad`, ...) into
`vizdoom/envpool_assets-{assets.VERSION}/` of rlpool's cache folder (`$RLPOOL_CACHE_DIR`, else
`$XDG_CACHE_HOME/rlpool`, else `~/.cache/rlpool`); that folder is `<envpool-assets>` on this page. The wheel
itself is not kept. Without network access, put the wheel (fetched elsewhere with the command above) in the
cache folder itself, where rlpool unpacks it instead of fetching, or set `${assets.ENV_VAR}` to a folder
holding the eight files. Every file is checked against its sha256. Where the maps cannot be had, making one
of these tasks raises `MapsUnavailableError` (`rlpool.envs.vizdoom.assets`), which says what to do. A
`cfg_path` and `wad_path` of the caller's own need nothing fetched. These cfgs ask for 160×120 screens, which
vizdoom {VIZDOOM_VERSION}'s engine draws unlike the engine EnvPool 1.2.7 bundles (its frames lack the D3/D4
crosshair and differ slightly elsewhere; at 320×240, as `HealthGathering-v1`'s, both draw the same): rewards,
game variables and episode ends are EnvPool's, frames are vizdoom's own.
""",
        paths=(
            (str(folder) if folder is not None else "", "<vizdoom>"),
            (str(assets.default_folder()), "<envpool-assets>"),
        ),
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
moves by its value. With `use_combined_action=True` the action is EnvPool's discrete one, `Discrete(n)`:
each index is a combination of buttons, in EnvPool's order (ViZDoom's button order, the first button
varying slowest) and with EnvPool's count (`Basic-v1` 6, `Deathmatch-v1` 4536): a binary button off or on,
opposite pairs (`MOVE_LEFT`/`MOVE_RIGHT`, `TURN_LEFT`/`TURN_RIGHT`, ...) neither or one, the
`SELECT_WEAPONn` buttons none or one, delta buttons 0 unless `delta_button_config`
(`{"TURN_LEFT_RIGHT_DELTA": (n, min, max)}`) gives them `n` evenly spaced values. `force_speed=True`
holds `SPEED` in every combined action (where the cfg has it; half as many actions); as in EnvPool it
changes nothing without combined actions.
""",
                observation_text="""
uint8 frames, `(stack_num × channels, img_height, img_width)`, oldest first; channels come from the cfg's
`screen_format` (3 for the default CRCGCB, 1 for GRAY8). After a reset every slot holds the first frame;
the final observation of an episode repeats its last screen (the engine has no state after the end).
`info` has one float64 entry per game variable the cfg makes available (`available_game_variables`),
named as ViZDoom names it (`AMMO2`, `HEALTH`, ...), then EnvPool's (`AMMO2`-`AMMO7`, `ARMOR`,
`DAMAGECOUNT`, `DEATHCOUNT`, `FRAGCOUNT`, `HEALTH`, `HITCOUNT`, `KILLCOUNT`, `SELECTED_WEAPON`,
`SELECTED_WEAPON_AMMO`, `USER2`) that the cfg lacks, as the engine reports them. With
`envpool_info=True` (what `rlpool.compat.envpool` sets) `info` is EnvPool's: those 16 alone, in that
order, as EnvPool reports them (`HITCOUNT`, `DAMAGECOUNT` and `DEATHCOUNT` counted from the episode's start,
a negative `HEALTH` replaced by the last one, the last values kept at the episode's end).
""",
                reward="""
`DoomGame`'s reward over the step's tics: the scenario's scripted reward plus the cfg's `living_reward`
per tic and `death_penalty`. With `use_reward_config=True` (set by `rlpool.compat.envpool`) the reward is
EnvPool's instead, from the changes of the game variables over the step: for each variable of
`reward_config` (`{name: (pos, neg)}`, EnvPool's defaults: `KILLCOUNT: (1, 0)`, `HEALTH: (0.005, -0.003)`,
...) an increase `d` earns `d × pos` and a decrease `d` earns `-(d × neg)`; `DAMAGECOUNT` counts at most 200
and `HITCOUNT` at most 5 a step; plus, while a weapon has been held `weapon_duration` steps (5) with ammo,
its `selected_weapon_reward_config` reward (`{slot: reward}`) each step. As EnvPool's, the engine's reward
is not part of it, sums are float32, only variables the cfg or EnvPool's 16 make available count, and the
step that ends an episode earns 0 (the engine has no state after the end). A name that is not a ViZDoom
game variable is a ValueError.
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
