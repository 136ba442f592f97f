"""The hand-written reference text of the Procgen family (``docs/envs/procgen.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.envs.procgen.registration import library_root
from rlpool.tools.docpage import EnvDoc, FamilyDoc


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/procgen.md (see ``rlpool.tools.docgen``)."""
    root = library_root()
    return FamilyDoc(
        name="procgen",
        title="Procgen",
        intro="""
The 16 games of OpenAI's Procgen Benchmark (procgen 0.10.7), run by procgen's own compiled game library:
`libenv.so` from the `procgen-mirror==0.10.7` wheel, which rlpool's build fetches with pip (by name,
version and file tag, without dependencies: procgen's Python part, with its numpy<2 and gym<1 pins, is
never installed), checks against its sha256 and unpacks in the download cache (`<procgen>` on this page;
`$RLPOOL_PROCGEN_ROOT` points elsewhere). The library links no Python, so one wheel serves every Python
version; it exists for Linux x86-64 only. A build without it (offline) has the tasks, and making one
raises an error saying so. The ids, distribution modes and time limits are EnvPool 1.2.5's.
""",
        paths=((root, "<procgen>"),) if root else (),
        envs=(
            EnvDoc(
                title="Procgen games",
                env_types=("Procgen",),
                summary="""
Each env is one game in its own libenv of one game, stepped in the worker's thread (libenv's
`num_threads=0`), configured with exactly the options procgen's `ProcgenGym3Env(num=1, ...)` passes to
`libenv_make`. The alternative, one libenv per worker holding its envs' games, was measured
(`python benchmarks/procgen_raw.py --layout`: 16 games, one thread, median of 7 rounds of 2 s, on 2
cores shared with other jobs, load 7.4): 16 one-game libenvs stepped in turn ran at 1.18× (CoinRun) and
0.995× (StarPilot) the speed of one 16-game libenv, so batching inside libenv saves nothing; a one-game
libenv takes 1–2 ms to make and under 1 MB of memory (0.6 MB RSS for CoinRun). And a libenv of several
games draws their level seeds from one generator seeded once, so an env's levels would depend on which
other envs share its worker (and so on `num_threads`); with one game per libenv they depend on the env's
own seed only.
""",
                action_text="""
procgen's 15 button combinations: 0 LEFT+DOWN, 1 LEFT, 2 LEFT+UP, 3 DOWN, 4 none, 5 UP, 6 RIGHT+DOWN, 7 RIGHT,
8 RIGHT+UP, 9 D, 10 A, 11 W, 12 S, 13 Q, 14 E (the letter keys are game-specific actions such as
firing; most games ignore them).
""",
                observation_text="""
uint8 RGB frames, (64, 64, 3) (height, width, channel); `rlpool.compat.envpool` gives EnvPool 1.2.5's
default (3, 64, 64) (`channel_first=True`). `info` has procgen's entries: `prev_level_seed` (int32, the
level of the previous step), `prev_level_complete` (uint8, 1 on the step that completed a level) and
`level_seed` (int32, the level being played).
""",
                reward="""
The game's reward for the step (float32 in libenv, handed out as float64), e.g. 10 for reaching
CoinRun's coin.
""",
                starting_state="""
Levels: with `num_levels=0` each level seed is drawn from all of [0, 2³¹ − 1); otherwise from
[`start_level`, `start_level + num_levels`). `distribution_mode` picks procgen's level distribution:
`easy`, `hard`, and for some games `extreme`, `memory`, or `exploration` (procgen's one hard level per
game, which sets `num_levels` and `start_level` itself; setting them raises). Seeding: env i's libenv
gets `rand_seed = Rng(seed + i).next() >> 33` (the first word of rlpool's per-env generator, top 31
bits), so an env's levels depend on its seed only; a reset with a new seed makes a new libenv.
""",
                termination="""
Terminates when procgen ends the episode because the agent died or completed the level. procgen's own
timeout (its levels' step limit: the time limit, except JumperMemory's 2000 steps) is a truncation, not
a termination, as in EnvPool: the time limit reports it in the same step. `max_episode_steps` may be
lower than procgen's timeout, not higher (procgen would end the level anyway). procgen draws the next
level within the step that ends one, so that step's observation is already the next level's first
frame (as in procgen and EnvPool); the reset that follows hands out that frame again. A reset before
procgen ended the level (a time limit below its timeout, as JumperMemory's default 1000, or a user's
reset) starts the next level with procgen's forced reset (action −1). With `use_sequential_levels=True`
a completed level goes on to the next without ending the episode, and the time limit counts the whole
episode. `get_state`/`set_state` carry procgen's own serialized game state (with a checksum: procgen
ends the process on malformed state, so only states rlpool wrote are passed to it).
""",
                version_history=("`v0`: EnvPool 1.2.5's ids for procgen 0.10.7's games.",),
            ),
        ),
    )
