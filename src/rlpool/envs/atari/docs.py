"""The hand-written reference text of the Atari family (``docs/envs/atari.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.envs.atari.registration import roms_dir
from rlpool.tools.docpage import EnvDoc, FamilyDoc


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/atari.md (see ``rlpool.tools.docgen``)."""
    folder = roms_dir()
    return FamilyDoc(
        name="atari",
        title="Atari",
        intro="""
Atari 2600 games emulated by the Arcade Learning Environment (ALE 0.12.1, compiled into rlpool), with the
ROMs of the installed `ale-py` package (`<roms>` on this page: ale-py's `roms` folder, or
`$ALE_ROMS_DIR`). The tasks are EnvPool's `<Game>-v5`, with EnvPool's options and defaults: every game
that gymnasium registers as `ALE/<Game>-v5` (ale-py's two-player-only ROMs combat, joust, maze_craze and
warlords are left out).

They are not gymnasium's `ALE/<Game>-v5` envs, which are ale-py's raw emulator (full RGB screens, a frame skip
of 4 without the max over two frames, sticky actions with probability 0.25, no no-ops or FIRE at reset):
`<Game>-v5` here is EnvPool's preprocessed env (below), without sticky actions by default. `make("ALE/Pong-v5")`
is refused with a message that names `Pong-v5` and the options that come closest to ALE v5:
`img_height=210, img_width=160, gray_scale=False, stack_num=1, noop_max=0, use_fire_reset=False,
repeat_action_probability=0.25` (the frames stay channel-first and keep the max of the skip's last two).
""",
        paths=((str(folder) if folder is not None else "", "<roms>"),),
        envs=(
            EnvDoc(
                title="Atari games",
                env_types=("Atari",),
                summary="""
All games share one env type and its preprocessing (that of gymnasium's `AtariPreprocessing` followed by
`FrameStackObservation`, as EnvPool does it). One step:

1. repeats the action for `frame_skip` emulator frames and sums their rewards;
2. takes the element-wise maximum of the last two frames (to undo sprite flicker), in grayscale (or RGB
   with `gray_scale=False`) through ALE's palette;
3. resizes it to `img_height` × `img_width` like OpenCV's `INTER_AREA` (or `INTER_LINEAR` with
   `use_inter_area_resize=False`);
4. stacks the last `stack_num` frames.

If the game ends within the frame skip, the observation shows the final screen.
""",
                action_text="""
By default each game takes its minimal action set: the actions that do something in that game (how
many is per game). With `full_action_space=True` every game takes ALE's 18 actions: 0
NOOP, 1 FIRE, 2 UP, 3 RIGHT, 4 LEFT, 5 DOWN, 6 UPRIGHT, 7 UPLEFT, 8 DOWNRIGHT, 9 DOWNLEFT, 10 UPFIRE, 11
RIGHTFIRE, 12 LEFTFIRE, 13 DOWNFIRE, 14 UPRIGHTFIRE, 15 UPLEFTFIRE, 16 DOWNRIGHTFIRE, 17 DOWNLEFTFIRE.
gymnasium's `ALE/<Game>-v5` env names a game's minimal set
(`gymnasium.make("ALE/Pong-v5").unwrapped.get_action_meanings()`).
""",
                observation_text="""
uint8 frames, `(stack_num × channels, img_height, img_width)`, oldest first: `obs[i]` is frame i in
grayscale (`obs[stack_num - 1]` the newest); in RGB, `obs[3i:3i + 3]` are frame i's red, green and blue.
After a reset every slot holds the first frame. `info` has EnvPool's entries: `lives` (int32), `reward`
(float32, the unclipped reward), `terminated` (int32, 1 when the game is over) and `ram` (the console's
128 bytes).
""",
                reward="""
The change of the game's score over the step's `frame_skip` frames. With `reward_clip=True` its sign
(-1, 0 or 1); `info["reward"]` keeps the unclipped value.
""",
                starting_state="""
A reset starts a new game on the running console (a seeded reset powers the console on again, as
gymnasium's reset with a seed reloads the ROM), then plays 1 to `noop_max` no-op frames (uniformly; none
with `noop_max=0`) and, with `use_fire_reset` in games that have FIRE, presses FIRE in place of the last
no-op. Sticky actions (`repeat_action_probability`) are off by default, as in EnvPool; gymnasium's
`ALE/<Game>-v5` uses 0.25.
""",
                termination="""
Terminates when the game is over. With `episodic_life=True` also when a life is lost (and lives remain):
the next reset then continues the same game, and `info["terminated"]` tells a game over from a lost
life. `zero_discount_on_life_loss` marks lost lives in dm_env's discount instead. The time limit of
27,000 steps is 108,000 frames at `frame_skip=4`, ALE's usual cap.
""",
                version_history=(
                    "`v5`: EnvPool's id for these games, named after ALE's `v5` (gymnasium's `ALE/<Game>-v5`, "
                    "which has sticky actions 0.25 and raw frames). rlpool registers no other version.",
                ),
            ),
        ),
    )
