"""The hand-written reference text of the MetaWorld family (``docs/envs/metaworld.md``).

The facts follow metaworld 3.1.1's ``sawyer_xyz_env.py`` and ``envs/sawyer_*_v3.py`` as the C++ envs next to
this module implement them. ``rlpool.tools.docgen`` calls ``reference_doc()`` and adds task ids, spaces, time
limits and options from the registry; the ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.envs.metaworld.benchmarks import ML10_TEST, ML10_TRAIN, ML45_TEST, MT10, NUM_GOALS
from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

INTRO = f"""
metaworld 3.1.1's 50 manipulation tasks for a Sawyer arm (MetaWorld v3: reach, push, pick and place, open
a door or a drawer, turn a dial or a faucet, press buttons and handles, insert a peg, sweep, assemble, ...)
and its benchmark sets. They run in C++ on the MuJoCo library of rlpool's MuJoCo tasks, with metaworld's own
models: its XML files, meshes and textures. metaworld 3.1.1 pins MuJoCo 3.3.0, which cannot be installed next
to rlpool's MuJoCo, so rlpool does not install metaworld: it reads the assets of an installed metaworld 3.1.1
(`pip install metaworld==3.1.1 --no-deps`) or else fetches metaworld's pinned wheel with pip, checks its
sha256 and unpacks its `assets` folder into rlpool's cache, once.

Each task follows metaworld's Python env call for call, with its `v2` reward functions (metaworld's
default; the `v1` ones are not ported). tests/envs/metaworld/ checks every task step by step against
metaworld 3.1.1's own code in a virtualenv of its own, from the same draws: on rlpool's MuJoCo (3.17.0) whole
episodes agree (observations to about 1e-16, rewards and info within 8e-7: see the notes), with random
actions and with metaworld's scripted expert policies; on the
MuJoCo metaworld pins (3.3.0), see "MuJoCo 3.3.0 and 3.17.0" below.

A single task's id (EnvPool's: `MetaWorld/PickPlace-v3`) runs that task in every env and draws a fresh task
vector (the object's and the goal's positions, metaworld's `_get_state_rand_vec`) at every reset from the
env's own generator, seeded from the pool's, as metaworld's `seeded_rand_vec` does and as EnvPool does. A
benchmark's id runs its tasks side by side in one pool: env i runs the i-th task of the set (wrapping round),
so `num_envs` = k × the set's size holds each task k times. `info["task_id"]` is the task's place in
metaworld's list of 50 (EnvPool's), and a pool of several tasks adds `info["task_index"]`, its place in the
set; `use_one_hot=True` appends that place as a one-hot to the observation (metaworld's `OneHotWrapper`).
As metaworld's benchmark classes, each task of a set has {NUM_GOALS} fixed task vectors (`num_goals`), drawn
once from `goal_seed` (the same in every env of the task, and for the same `goal_seed` in every pool), and
each reset picks one of them at random (metaworld's `RandomTaskSelectWrapper`). The MT sets show the goal
in the observation (`partially_observable=False`), the ML sets and single tasks do not (zeros). Any list of
tasks can be pooled so: `task_name="reach-v3,push-v3"`.

- `MetaWorld/MT10-v3`: {", ".join(MT10)}.
- `MetaWorld/MT50-v3`: all 50 tasks.
- `MetaWorld/ML10-train-v3`: {", ".join(ML10_TRAIN)}; `MetaWorld/ML10-test-v3`: {", ".join(ML10_TEST)}.
- `MetaWorld/ML45-train-v3`: the 45 tasks not in `ML45-test`; `MetaWorld/ML45-test-v3`: {", ".join(ML45_TEST)}.

Through `rlpool.compat.envpool` the 50 tasks have EnvPool 1.2.5's config (`frame_skip` 5, `frame_stack` 1
and `task_name`, facts of each task: taken when a call passes the task's value, refused by name otherwise),
its unbounded observation space and its info (the seven entries and `task_id`).

With `render_mode="rgb_array"` the frames (480×480 unless sized otherwise) are metaworld's default view
(gymnasium's free camera); `render_camera_id` picks one of the model's cameras (`corner`,
`behindGripper`, `gripperPOV`).
"""

MUJOCO_VERSIONS = """
metaworld 3.1.1 pins MuJoCo 3.3.0; rlpool steps MuJoCo 3.17.0 (all its MuJoCo families share one library).
The two do not step alike: from the same simulation state (the reference's state put into rlpool's env
before every step, tests/envs/metaworld/test_metaworld_parity.py), one env step of the hand alone differs by
about 1e-5 m, objects resting on the table by about 1e-4 to 1e-3 (MuJoCo's contacts changed between the
versions), objects pushed or grasped by up to 0.022 (measured over 300 expert steps of every task); a reward
that crosses a threshold (a grasp bonus, the success radius) can then flip on a step, and rewards agree
within 0.01 on 22 % (a button's press) to 100 % of the steps. Over whole episodes the two simulations drift apart
(the hand's settling at a reset alone differs by 1.5e-4 m), so metaworld on MuJoCo 3.3.0 and rlpool agree as
two runs of the same task, not number for number. metaworld's own code on MuJoCo 3.17.0 (installed without
its pin; its weld reset writes its 11 numbers into MuJoCo 3.17's 12-number rows, the same fields) agrees with
rlpool over whole episodes: observations to about 1e-16; rewards and info within 8e-7 (measured over 300
expert steps of every task), where metaworld's numpy carries the float32 gripper action through a caging
reward into float32 arithmetic (a grip between 0 and 1 while the object is caged), which rlpool computes in
float64.
MuJoCo 3.3.0's weld rows have 11 numbers, 3.17.0's 12 (the twelfth
compiled as 1.0 and left so).
"""

SAWYER = EnvDoc(
    title="Sawyer tasks",
    env_types=("MetaWorld",),
    summary="""
A Sawyer arm with a two-finger gripper at a table, moved by small displacements of its hand (a mocap body
welded to it), acts on the task's objects: a puck, a door, a drawer, a dial, a faucet, buttons, handles,
a peg, a basketball, a hammer, a stick, ... The task's name says what it asks.
""",
    actions=(
        Part(("hand displacement in x: 0.01 × action (m)", "hand displacement in y: 0.01 × action (m)",
              "hand displacement in z: 0.01 × action (m)",
              "gripper: the two finger actuators' controls are action and -action")),
    ),
    action_text="""
The first three entries are clipped to [-1, 1] and scaled by 0.01 in float32, as metaworld's numpy does; the
mocap moves by that much, clipped to the task's mocap bounds, with the fixed orientation (1, 0, 1, 0). The
gripper entry goes to the finger actuators unclipped (MuJoCo clamps it to their control range), and the
reward functions read the action as given. One step runs 5 MuJoCo steps (0.0125 s), then `mj_forward`.
""",
    observation_text="""
39 float64 entries (metaworld's frame-stacked observation): the hand's position (3), the gripper's opening
(the fingers' distance / 0.1, clipped to [0, 1]), the objects' positions and quaternions (x, y, z, w; each
object's position then its quaternion, padded with zeros to 14), then the same 18 entries of the previous
step (at a reset: the current ones again), then the goal's position (3; zeros unless
`partially_observable=False`). After a step the observation is clipped to the observation space (the hand's
bounds, the gripper's [-1, 1], the goal's space), as metaworld clips it. `use_one_hot` appends the one-hot of
the env's task in the pool's list.
""",
    reward="""
metaworld's `v2` reward of the task, from 0 to 10 (10 at the goal): products (Hamacher t-norms) of
tolerance terms for reaching, grasping (the gripper's caging of the object) and placing. `info` has
metaworld's seven entries, float64: `success`, `near_object`, `grasp_success`, `grasp_reward`,
`in_place_reward`, `obj_to_target`, `unscaled_reward`, and `task_id` (int32). metaworld's reset gives no
info; rlpool's (as EnvPool's) gives the entries of the reset state with no action.
""",
    starting_state="""
As metaworld's reset: the hand settles at the task's start over 50 × 5 MuJoCo steps with the mocap held
there and the gripper open, then the task places its objects and goal from the task vector (redrawn where a
task asks, e.g. until the object and the goal are 0.15 m apart). metaworld runs its `reset_model` twice per
reset (once before and once after `mj_resetData`), drawing task vectors in both; rlpool draws the same, and
skips the first pass's simulation, whose state `mj_resetData` discards.
""",
    termination="Never terminates (metaworld's `terminated` is always False): episodes end by the 500-step time "
    "limit (metaworld's `max_path_length`).",
    notes=MUJOCO_VERSIONS + """
Saved states (`get_state`) hold the simulation, the env's generator and fixed-goal choice, the model's body
and site positions the task moved at its reset (each env has its own copy of those two model arrays; the rest
of the model is shared), the previous frame and the task's own numbers. metaworld's attributes that alias
live simulation data (`init_left_pad = get_body_com("leftpad")` is a view, not a copy) are read live, as
metaworld reads them.
""",
    version_history=(
        "`v3`: metaworld 3's tasks on the `mujoco` bindings and gymnasium (`v2`: metaworld 2 on mujoco-py).",
    ),
)


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/metaworld.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(name="metaworld", title="MetaWorld", intro=INTRO, envs=(SAWYER,))
