"""The hand-written reference text of the MyoSuite family (``docs/envs/myosuite.md``).

The facts follow myosuite 2.11.6's ``envs/myo/base_v0.py`` (muscle conditions, action map), its task classes
(``envs/myo/myobase``, ``myodm``, ``myochallenge``) and its registry, as the C++ env next to this module
implements them. ``rlpool.tools.docgen``
calls ``reference_doc()`` and adds task ids, spaces, time limits and options from the registry; the ids
themselves are ``registration.py``'s, from ``tasks.py``.
"""

from __future__ import annotations

from collections import Counter

from rlpool.envs.myosuite import VERSION
from rlpool.envs.myosuite.registration import ALIAS_PREFIX, registered_tasks
from rlpool.envs.myosuite.tasks import TASKS, Task
from rlpool.tools.docpage import EnvDoc, FamilyDoc


def _classes(tasks: tuple[Task, ...]) -> str:
    counts = Counter(t.cls for t in tasks)
    return ", ".join(f"`{cls}` ({n})" for cls, n in sorted(counts.items()))


_DONE = registered_tasks()

INTRO = f"""
myosuite {VERSION}'s musculoskeletal tasks: MuJoCo models of a finger, an elbow, a hand, an arm, legs and a
torso moved by muscle actuators (MuJoCo's muscle model) and some by motors, asked to hold a pose, reach
targets with the finger tips, turn a key, hold, twirl or reorient objects, walk on flat and rough ground, track
MyoDM's object-manipulation motions, and play MyoChallenge's tasks (Baoding balls, die reorientation,
relocation, table tennis, bimanual passing, chase-tag, soccer, running with a prosthetic leg). They run in C++ on
the MuJoCo library of rlpool's MuJoCo tasks, one file per myosuite class, with myosuite's own models.

myosuite {VERSION} pins MuJoCo 3.3.0, which cannot be installed next to rlpool's MuJoCo, so rlpool does not install
or import myosuite: it fetches myosuite's pinned wheel with pip (86 MB), checks its sha256 and unpacks its
`simhive` and `envs/myo/assets` folders and MyoDM's reference motions into rlpool's cache, once, each file
checked against the wheel's RECORD and kept at its path in the wheel (`<cache>/myosuite/myosuite-{VERSION}/`).
What myosuite builds when an env is made is built there too, from the wheel's files: MyoDM's 50 per-object
models and its motions as `.npy` files; the reorientation tasks' object tables, read with `ast` from the wheel's
`reorient_sar_v0.py` (never imported); the arm of the `myoArmReach` tasks, edited as myosuite's MjSpec edit
leaves it on MuJoCo 3.3.0 (32 muscles: 3.3.0's `detach_body` also drops APL and OP); the table-tennis player,
compiled (`.mjb`, remade when rlpool's MuJoCo changes). Offline, put `myosuite-{VERSION}-py3-none-any.whl`
(downloaded elsewhere) in rlpool's cache folder. The hidden option `_assets` is that folder; `task_name`, the
myosuite id, is set by the task id.

Each id is myosuite's (`myoHandPoseRandom-v0`) and also EnvPool's `{ALIAS_PREFIX}<id>`
(`{ALIAS_PREFIX}myoHandPoseRandom-v0`): the same task, myosuite's time limit. The prefixes name myosuite's
muscle conditions (its `register_env_with_variants`): `myoSarc` (sarcopenia: every actuator's `gainprm[2]`, a
muscle's peak force, halved), `myoFati` (muscle fatigue, the 3CC-r model of `envs/myo/fatigue.py`, reset with
every episode but in the die-reorientation tasks, whose reset skips it as myosuite's does) and, for the hand,
`myoReaf` (reafferentation: the EIP muscle's control drives EPL, and EIP gets 0); `motorFinger` is the finger
moved by motors instead of muscles.

rlpool has {len(_DONE)} of myosuite's {len(TASKS)} ids (each twice, with its `{ALIAS_PREFIX}` name):
{_classes(_DONE)}.
"""

MUJOCO_VERSIONS = f"""
**MuJoCo versions.** myosuite {VERSION} pins MuJoCo 3.3.0 (and gymnasium 0.29.1, dm-control 1.0.28); rlpool steps
its envs on rlpool's own MuJoCo, the library all its MuJoCo families share. myosuite's own code, installed without
its pins next to rlpool's MuJoCo (where two MjSpec calls it makes are gone, stand-ins are put in: `detach_body`
as `delete`, which also drops the arm's APL and OP as 3.3.0 did, and elements' `delete()`), agrees with rlpool over
whole episodes: observations, rewards, every reward term and the flags, bit for bit or within 1e-15 (rewards that
go through numpy's `arctan2` or `log`, which on AVX-512 machines are Intel's SVML routines, not the C library's).
numpy's float32 `exp` (the muscles' control map) and float64 `exp` (reward terms, RunTrack's map) are reproduced
bit for bit (`numpy_expf.h`, `numpy_exp.h`); on a CPU without AVX-512 numpy itself computes other last bits. On
MuJoCo 3.3.0 one step from the same state differs by up to about 0.05 in an observation (joint velocities times
dt), the two versions' muscle and contact solutions differing slightly; the motor finger agrees exactly.

**What rlpool does that myosuite cannot say.** Before the first reset some tasks show numbers myosuite drew at
construction from its own seed: Baoding's targets (a reset's observation shows the targets of the step before;
rlpool starts them at the middle of the radius ranges, exact for P1), the chase-tag opponent's and the soccer
goalkeeper's velocity (rlpool: at rest) and the goalkeeper's block speed (rlpool: the middle of its range). The
reset's `info` holds the reward terms of the reset state (myosuite gives none). Frames are myosuite's
`render_offscreen` pixel for pixel (mujoco.Renderer's free camera, the muscles' actuation shown) for the tasks
compared; where a task draws new terrain at a reset, rlpool's frames show it (myosuite's offscreen renderer
keeps the first terrain), and a few model edits that only change colours (success indicators) are not made.
"""

MYOSUITE = EnvDoc(
    title="MyoSuite tasks",
    env_types=("MyoSuite",),
    summary="""
A musculoskeletal model is driven by its actuators' controls. Pose tasks (`...Pose...`, the torso's too) ask
for a joint configuration: a fixed one (`Fixed`; the hand's `Pose0` to `Pose9` are American Sign Language
digits) or one drawn at each reset (`Random`); the elbow's `Exo` tasks add an exoskeleton motor and
`myoElbowPose1D6MExoRandom-v0` a carried weight. Reach tasks ask the finger tips (or the arm's index finger,
or the pelvis of the standing legs) to reach target sites. The hand's `KeyTurn`, `ObjHold`, `PenTwirl` and
`Reorient8/100/ID/OOD` tasks manipulate objects; the legs' `Walk` and `...TerrainWalk` tasks walk at a target
velocity on flat, rough, hilly or stair ground. MyoDM's `MyoHand<Object><Motion>` tasks track a recorded
motion of the hand and an object, its `...Fixed` and `...Random` tasks hold the object at a fixed or a
randomly moving target. MyoChallenge's tasks are the 2022-2025 challenges' (`myoChallenge...`).
""",
    action_text="""
One entry per actuator (RunTrack: per muscle; its prosthetic leg's two motors follow the leg's own state
machine), in [-1, 1] (myosuite's `normalize_act`), not clipped by the env. A muscle's control is
1 / (1 + exp(-5 (a - 0.5))) in float32, as myosuite computes it on its float32 action; in a model with muscles
the other actuators take the entry as it is (MyoChallenge's bionic and table-tennis arms map theirs onto their
control ranges, as their tasks do), and the motor finger's map [-1, 1] onto their control ranges. MuJoCo clamps
controls to the actuators' control ranges. `myoFati` tasks pass the muscles' controls through the fatigue
model, `myoReaf` tasks move EIP's control to EPL. One step runs myosuite's `frame_skip` MuJoCo steps (5 or 10),
as dm_control's legacy step; a MuJoCo warning during a step resets the simulation, as myosuite does.
""",
    observation_text="""
float32, myosuite's observation vector (its `obs_keys`, concatenated), bounded by myosuite's observation range
[-10, 10]. Pose tasks give the joint positions (qpos), the joint velocities times the step's duration (qvel · dt),
the pose error (target − qpos) and, where the model has muscles, their activations (act); reach tasks qpos,
qvel · dt, the tips' positions, the reach errors and act; the other tasks the entries their myosuite class lists
(object positions and orientations, goals, muscle lengths, velocities and forces, opponents, ...).
""",
    reward="""
myosuite's dense reward: the weighted sum of the task's reward terms, with myosuite's weights (e.g. pose:
`pose` −‖pose error‖ × 1, `bonus` × 4, `penalty` × 50, `act_reg` × 1). `info` has every term of myosuite's
`rwd_dict` as `rwd_<term>` (float64, in its order, weighted or not), `rwd_dense`, `rwd_sparse`, `solved` (bool)
and `time` (the simulation's time, or the value myosuite's task writes into its `obs_dict["time"]` when an
episode is lost: table tennis, chase-tag, running). At a reset, `info` holds the terms of the reset state and
the reward is 0.
""",
    starting_state="""
As myosuite's reset, in its order, from the env's own generator (xoshiro256**, seeded from the pool's at every
reset, so that a saved state holds it) with numpy's formulas for each draw: targets, weights, object sizes,
masses and frictions, terrains, keyframes and noise, as each class draws them (each task file says its order).
""",
    termination="Terminates as myosuite's `done` (a pose error beyond its bound, a tip too far, a fall, an object "
    "dropped, a game lost or won, ...); episodes otherwise end at myosuite's time limit.",
    notes=MUJOCO_VERSIONS,
    version_history=(
        "`v0`: myosuite's tasks (its ids, `-v0`; the Baoding challenge's `-v1`).",
    ),
)


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/myosuite.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(name="myosuite", title="MyoSuite", intro=INTRO, envs=(MYOSUITE,))
