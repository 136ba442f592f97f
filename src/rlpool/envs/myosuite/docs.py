"""The hand-written reference text of the MyoSuite family (``docs/envs/myosuite.md``).

The facts follow myosuite 2.11.6's ``envs/myo/base_v0.py`` (muscle conditions, action map),
``envs/myo/myobase/pose_v0.py`` and ``reach_v0.py`` (observations, rewards, resets) and its registry
(``envs/myo/myobase/__init__.py``), as the C++ env next to this module implements them. ``rlpool.tools.docgen``
calls ``reference_doc()`` and adds task ids, spaces, time limits and options from the registry; the ids
themselves are ``registration.py``'s, from ``tasks.py``.
"""

from __future__ import annotations

from collections import Counter

from rlpool.envs.myosuite import VERSION
from rlpool.envs.myosuite.registration import ALIAS_PREFIX, NOT_YET, registered_tasks
from rlpool.envs.myosuite.tasks import TASKS, Task
from rlpool.tools.docpage import EnvDoc, FamilyDoc


def _classes(tasks: tuple[Task, ...], exclude: frozenset[str] = frozenset()) -> str:
    counts = Counter(t.cls for t in tasks if t.id not in exclude)
    return ", ".join(f"`{cls}` ({n})" for cls, n in sorted(counts.items()))


_DONE = registered_tasks()
_DONE_IDS = {t.id for t in _DONE}
_TODO = tuple(t for t in TASKS if t.id not in _DONE_IDS)

INTRO = f"""
myosuite {VERSION}'s musculoskeletal tasks: MuJoCo models of a finger, an elbow, a hand, an arm, legs and a
torso moved by muscle actuators (MuJoCo's muscle model) and some by motors, asked to hold a pose, reach
targets with the finger tips, turn a key, hold or twirl objects, walk, track MyoDM's object-manipulation
motions, and MyoChallenge's tasks. They run in C++ on the MuJoCo library of rlpool's MuJoCo tasks, with
myosuite's own models: its `simhive` and `envs/myo/assets` folders (MJCF files, meshes, textures) and MyoDM's
reference motions. myosuite {VERSION} pins MuJoCo 3.3.0, which cannot be installed next to rlpool's MuJoCo, so
rlpool does not install or import myosuite: it fetches myosuite's pinned wheel with pip (86 MB), checks its
sha256 and unpacks those folders into rlpool's cache, once, each file checked against the wheel's RECORD and
kept at its path in the wheel (`<cache>/myosuite/myosuite-{VERSION}/myosuite/...`). Offline, put
`myosuite-{VERSION}-py3-none-any.whl` (downloaded elsewhere) in rlpool's cache folder. The hidden option
`_assets` is that folder; `task_name`, the myosuite id, is set by the task id.

Each id is myosuite's (`myoHandPoseRandom-v0`) and also EnvPool 1.2.7's `{ALIAS_PREFIX}<id>`
(`{ALIAS_PREFIX}myoHandPoseRandom-v0`): the same task, myosuite's time limit. The prefixes name myosuite's
muscle conditions (its `register_env_with_variants`): `myoSarc` (sarcopenia: every actuator's `gainprm[2]`, a
muscle's peak force, halved), `myoFati` (muscle fatigue, the 3CC-r model of `envs/myo/fatigue.py`, reset with every
episode) and, for the hand, `myoReaf` (reafferentation: the EIP muscle's control drives EPL, and EIP gets 0);
`motorFinger` is the finger moved by motors instead of muscles.

rlpool has {len(_DONE)} of myosuite's {len(TASKS)} ids (each twice, with its `{ALIAS_PREFIX}` name), those of
{_classes(_DONE)}. Not yet: {_classes(_TODO, frozenset(NOT_YET))}, and the arm's
{", ".join(f"`{i}`" for i in sorted(NOT_YET))} (myosuite edits the arm model at load).
"""

MUJOCO_VERSIONS = f"""
myosuite {VERSION} pins MuJoCo 3.3.0 (and gymnasium 0.29.1, dm-control 1.0.28); rlpool steps its envs on
rlpool's own MuJoCo, the library all its MuJoCo families share, with myosuite's models as the wheel has them.
myosuite's own code, installed without its pins, runs the Pose and Reach tasks on rlpool's MuJoCo too.
"""

MYOSUITE = EnvDoc(
    title="MyoSuite tasks",
    env_types=("MyoSuite",),
    summary="""
A musculoskeletal model (the task's id names it: `Finger`, `Elbow`, `Hand`; `motorFinger` with motors) is
driven by its actuators' controls. Pose tasks (`...Pose...`) ask for a joint configuration: a fixed one
(`Fixed`; the hand's `Pose0` to `Pose9` are American Sign Language digits) or one drawn at each reset
(`Random`); the elbow's `Exo` tasks add an exoskeleton motor, and `myoElbowPose1D6MExoRandom-v0` a carried
weight drawn at each reset. Reach tasks (`...Reach...`) ask the finger tips to reach target sites, fixed or
drawn at each reset.
""",
    action_text="""
One entry per actuator, in [-1, 1] (myosuite's `normalize_act`), not clipped by the env. A muscle's control
is 1 / (1 + exp(-5 (a - 0.5))); in a model with muscles the other actuators (the elbow's exoskeleton motor) take
the entry as it is, and the motor finger's map [-1, 1] onto their control ranges. MuJoCo clamps controls to
the actuators' control ranges. `myoFati` tasks pass the muscles' controls through
the fatigue model, `myoReaf` tasks move EIP's control to EPL. One step runs 10 MuJoCo steps (the motor finger's
5: myosuite's `frame_skip`).
""",
    observation_text="""
float32, in myosuite's order, bounded by myosuite's observation range [-10, 10]: pose tasks give the joint
positions (qpos), the joint velocities times the step's duration (qvel · dt), the pose error (target − qpos)
and, where the model has muscles, their activations (act); reach tasks give qpos, qvel · dt, the tips'
positions, the reach errors (target − tip, per tip) and act.
""",
    reward="""
myosuite's dense reward: the weighted sum of its reward terms. Pose: `pose` (−‖pose error‖, weight 1),
`bonus` (1 within `pose_thd` plus 1 within 1.5 `pose_thd`, weight 4), `penalty` (−1 beyond 2π, weight 50),
`act_reg` (−‖act‖ / number of muscles, weight 1; the `Exo` tasks 5). Reach: `reach` (−‖reach error‖, weight 1),
`bonus` (1 within 2 × 0.0125 per tip plus 1 within 0.0125 per tip, weight 4), `penalty` (−1 beyond `far_th`
per tip once the simulation's time exceeds two steps, weight 50), and `act_reg` (−‖act‖ / number of muscles,
weight 0). `info` has every term as `rwd_<term>` (float64, in myosuite's
order), `rwd_dense`, `rwd_sparse` (−‖error‖), `solved` (bool: within `pose_thd`, or within 0.0125 per tip)
and `time` (the simulation's time). At a reset, `info` holds the terms of the reset state and the reward is 0.
""",
    starting_state="""
As myosuite's reset, from the env's own generator seeded from the pool's: the carried weight
(`myoElbowPose1D6MExoRandom-v0`), then the target (a pose drawn uniformly within the task's joint ranges, a
fixed range giving its one value; the targets' sites then placed at the tips of that pose; or each reach
target drawn uniformly in its box), then, for the elbow tasks (`reset_type="random"`), a start drawn uniformly
within every joint's range; the others start at myosuite's initial pose, with velocities and muscle
activations 0.
""",
    termination="Terminates as myosuite's `done`: pose tasks when ‖pose error‖ exceeds 2π, reach tasks when "
    "the reach error exceeds `far_th` per tip once the simulation's time exceeds two steps; episodes otherwise "
    "end at myosuite's "
    "time limit.",
    notes=MUJOCO_VERSIONS,
    version_history=(
        "`v0`: myosuite's tasks (its ids, all `-v0`).",
    ),
)


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/myosuite.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(name="myosuite", title="MyoSuite", intro=INTRO, envs=(MYOSUITE,))
