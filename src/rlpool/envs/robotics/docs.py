"""The hand-written reference text of the Gymnasium-Robotics family (``docs/envs/robotics.md``).

The facts follow gymnasium-robotics 1.4.2's envs (``envs/fetch``, ``envs/shadow_dexterous_hand``,
``envs/adroit_hand``, ``envs/maze``, ``envs/franka_kitchen``) as the C++ envs next to this module implement
them. ``rlpool.tools.docgen`` calls ``reference_doc()`` and adds task ids, spaces, time limits and options
from the registry; the ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

INTRO = """
gymnasium-robotics 1.4.2's tasks: the Fetch arm (reach, push, slide, pick and place), the Shadow Dexterous
Hand (reach, and manipulate a block, an egg or a pen), the Adroit hand on an arm (door, hammer, pen,
relocate), PointMaze and FrankaKitchen. They run in C++ on the MuJoCo library of rlpool's MuJoCo tasks,
with gymnasium-robotics' own models: the XML files and meshes of the installed `gymnasium-robotics`
package, which the `robotics` extra installs (`pip install ".[robotics]"` in the checkout; rlpool reads its
files without importing it).
A maze's model is written as gymnasium-robotics writes it, from the package's `point.xml`.

Each task follows gymnasium-robotics' Python env call for call, and tests/envs/robotics/ checks them step
by step against gymnasium-robotics 1.4.2 from the same draws. Every random draw of an episode (initial
positions, goals, observation noise, a maze's next goal) comes from the env's own generator, seeded from
the pool's at each reset, so that a state saved by `get_state` holds the generator with the simulation.
Actions are clipped to [-1, 1] before they are used, in float32 where gymnasium-robotics' action space is
float32 (all but FrankaKitchen's).

All but the Adroit tasks observe a dict, as gymnasium-robotics' `GoalEnv`: `achieved_goal` (what the
robot has achieved), `desired_goal` (the goal) and `observation`, all float64. Their
`compute_reward(achieved_goal, desired_goal, info)`, the reward hindsight relabelling (HER) asks for, and
(except FrankaKitchen's) `compute_terminated` and `compute_truncated` are methods of the env on every
face: `envs.compute_reward(ag, dg, info)`, `envs.call("compute_reward", ag, dg, info)`, SB3's
`env_method("compute_reward", ag, dg, info)`. They take whole batches (goals on the last axis, any
leading axes; one goal gives a scalar) and give each goal the reward a step would.

EnvPool's ids of gymnasium-robotics' old mujoco-py envs (`Fetch*-v1`, `HandReach*-v0`,
`HandManipulate*-v0`) run the current envs, as EnvPool does. Through `rlpool.compat.envpool` the tasks
have EnvPool 1.2.5's config (its option names: `frame_skip` for `n_substeps`; facts of the task such as
`xml_file`, `obs_dim` or `maze_height` taken when they are the task's, refused otherwise), its observation
order (`observation` first), `info["distance"]` (the distance to the goal: the door's angle, the
kitchen has none) and float64 success flags; the kitchen's goal dicts hold the tasks of
`tasks_to_complete` only, as in gymnasium-robotics (EnvPool gives all seven). EnvPool's config says
`initial_slide0=0.4049` for every Fetch task; rlpool's is gymnasium-robotics' (0.405, Slide's 0.05).

With `render_mode="rgb_array"` the frames (480×480 unless sized otherwise) are gymnasium-robotics' views,
goal markers included (Fetch's target, the hand's target object and fingertip targets, the maze's
target). gymnasium-robotics draws them by moving the model's markers and running `mj_forward`, which
changes the steps after a frame (FetchPickAndPlace's gripper follows the pose that call leaves); rlpool
draws them without touching the simulation, so episodes are the same with and without frames.
"""

# --------------------------------------------------------------------------------------------------
# Fetch.

FETCH_SETUP = """
At creation, as gymnasium-robotics' `_env_setup`: the arm's slide joints at `initial_slide0..2`, the
object at its initial pose, the mocap body moved to the gripper's position + (-0.498, 0.005, -0.431 +
`gripper_extra_height`) m, then 10 × `n_substeps` MuJoCo steps to let the arm settle there. Every reset
starts from the state this leaves (velocities included).
"""

FETCH_OBSERVATION = """
- `observation`: FetchReach's 10 entries are the gripper's position (x, y, z; m), the two fingers' joint
  positions (right, left), the gripper's velocity (3) and the fingers' velocities (2). FetchPush's,
  FetchSlide's and FetchPickAndPlace's 25 are the gripper's position (3), the object's position (3), the
  object's position relative to the gripper (3), the fingers' positions (2), the object's rotation (Euler
  angles, rad; 3), the object's velocity relative to the gripper's (3), the object's angular velocity (3),
  the gripper's velocity (3) and the fingers' velocities (2).
- `achieved_goal` (3): the gripper's position (FetchReach) or the object's.
- `desired_goal` (3): the goal position.

Velocities are per step, as gymnasium-robotics gives them: velocity × dt, with dt = `n_substeps` × 0.002 s
(0.04 s). `info["is_success"]` is 1.0 while the achieved goal is within `distance_threshold` of the
desired one, else 0.0 (float32).
"""

FETCH = EnvDoc(
    title="Fetch",
    env_types=("FetchReach", "FetchPush", "FetchSlide", "FetchPickAndPlace"),
    summary="""
A 7-DoF Fetch arm with a two-fingered gripper at a table, moved by small displacements of its gripper.
FetchReach: bring the gripper to a goal position. FetchPush: push a block to a goal on the table (the
gripper is held closed). FetchSlide: hit a puck so that it slides to a goal beyond the arm's reach.
FetchPickAndPlace: pick up a block and take it to a goal on the table or in the air. Dense ids reward
the distance to the goal.
""",
    actions=(
        Part(("gripper displacement in x: 0.05 × action (m)", "gripper displacement in y: 0.05 × action (m)",
              "gripper displacement in z: 0.05 × action (m)",
              "fingers: each finger's position target is its position + action (m; FetchPickAndPlace only, "
              "ignored with `block_gripper`)")),
    ),
    action_text="""
The arm follows a mocap body welded to the gripper: each step puts it at the gripper's pose as the last
step left it, moved by the displacement, with a fixed orientation, then runs `n_substeps` MuJoCo steps.
The action is clipped and scaled in float32, as gymnasium-robotics' numpy does. Only FetchPickAndPlace has
finger actuators; the other tasks ignore the fourth entry.
""",
    observation_text=FETCH_OBSERVATION,
    reward="""
d = distance between the achieved and the desired goal. Sparse: -1 while d > `distance_threshold`
(0.05 m), else 0. Dense (`reward_type="dense"`, the `Dense` ids): -d.
""",
    starting_state=FETCH_SETUP + """
The object (FetchPush, FetchSlide, FetchPickAndPlace) is placed at the gripper's initial x and y plus
U(-`obj_range`, `obj_range`) each, drawn again until it is at least 0.1 m from the gripper. The goal is the
gripper's initial position plus U(-`target_range`, `target_range`) per axis; with an object, plus
(`target_offset_x`, `_y`, `_z`) and at the object's height on the table, and with `target_in_the_air`
(FetchPickAndPlace) half the goals (a uniform draw below 0.5) are U(0, 0.45) m higher.
""",
    termination="Never terminates (gymnasium-robotics' `compute_terminated` is False): episodes end by the time "
    "limit.",
    notes="""
`block_gripper` holds both fingers at 0 after every step (FetchReach, FetchPush, FetchSlide). A frame shows
the state after an `mj_forward` of a copy of the simulation, with the target at the goal.
""",
    version_history=(
        "`v4`: gymnasium-robotics' fix of the initial state, which now matches its documentation.",
        "`v1` (EnvPool's id, gymnasium-robotics' mujoco-py env): rlpool runs `v4` under it, as EnvPool does.",
    ),
)

# --------------------------------------------------------------------------------------------------
# The Shadow Dexterous Hand.

HAND_ACTUATORS = (
    "wrist WRJ1 (radial/ulnar deviation)", "wrist WRJ0 (flexion/extension)",
    "forefinger FFJ3 (knuckle, sideways)", "forefinger FFJ2 (knuckle, flexion)",
    "forefinger FFJ1 (middle and, coupled by a tendon, distal joint)",
    "middle finger MFJ3", "middle finger MFJ2", "middle finger MFJ1 (with MFJ0)",
    "ring finger RFJ3", "ring finger RFJ2", "ring finger RFJ1 (with RFJ0)",
    "little finger LFJ4 (palm)", "little finger LFJ3", "little finger LFJ2", "little finger LFJ1 (with LFJ0)",
    "thumb THJ4 (base, sideways)", "thumb THJ3 (base, flexion)", "thumb THJ2 (knuckle, sideways)",
    "thumb THJ1 (knuckle, flexion)", "thumb THJ0 (distal joint)",
)
HAND_JOINTS = "WRJ1, WRJ0, FFJ3–FFJ0, MFJ3–MFJ0, RFJ3–RFJ0, LFJ4–LFJ0, THJ4–THJ0"

HAND_ACTION_TEXT = """
Each entry sets its actuator's position target: the middle of the actuator's control range plus the action
times half the range. With `relative_control`, the joint's current position (for the J1 actuators of the
four fingers, J1 + J0) takes the place of the middle, and the target is clipped to the range. One step runs
`n_substeps` (20) MuJoCo steps of 0.002 s.
"""

RELATIVE_CONTROL = """
`relative_control`: gymnasium-robotics 1.4.2 raises AttributeError with it (its code calls mujoco-py
methods that the `mujoco` bindings lack); rlpool implements its evident intent, the actuators' centres at
the joints' current positions (float32, as gymnasium-robotics' `np.zeros_like(action)` holds them).
"""

HAND_REACH = EnvDoc(
    title="HandReach",
    env_types=("HandReach",),
    summary="""
The Shadow Dexterous Hand (24 joints, 20 of them actuated) brings its five fingertips to goal positions: in
most goals the thumb and one other finger meet above the palm.
""",
    actions=(Part(HAND_ACTUATORS),),
    action_text=HAND_ACTION_TEXT,
    observation_text=f"""
- `observation` (63): the 24 joints' angles (rad), their angular velocities (24; rad/s), then the
  fingertips' positions (15, as `achieved_goal`). The joints, in the model's order:
  {HAND_JOINTS}.
- `achieved_goal` (15): the positions (x, y, z; m) of the fingertips of the forefinger, middle finger, ring
  finger, little finger and thumb.
- `desired_goal` (15): their goal positions.

`info["is_success"]` is 1.0 while the fingertips are within `distance_threshold` of the goal, else 0.0.
""",
    reward="""
d = distance between the achieved and the desired goal (all 15 numbers as one vector). Sparse: -1 while
d > `distance_threshold` (0.01 m), else 0. Dense: -d.
""",
    starting_state="""
The hand in gymnasium-robotics' initial pose for this task, at rest, every episode alike. The goal: a
meeting point at the palm's position + (0, -0.09, 0.05) m, plus N(0, 0.005) m per axis; the thumb and one
of the four other fingers (uniform) go to 0.005 m short of it, on their way from their initial positions;
the other fingertips stay where they start. One goal in ten (a uniform draw below 0.1, always made) is the
initial pose instead.
""",
    termination="Never terminates: episodes end by the time limit.",
    notes=RELATIVE_CONTROL + """
A frame shows target markers at the goal and markers on the fingertips where the last step left them.
""",
    version_history=(
        "`v3`: gymnasium-robotics' fix of the initial state, which now matches its documentation.",
        "`v0` (EnvPool's id, gymnasium-robotics' mujoco-py env): rlpool runs `v3` under it, as EnvPool does.",
    ),
)

MANIPULATE_OBSERVATION = f"""
- `observation` (61; 153 with touch sensors): the 24 joints' angles (rad) and their angular velocities
  (24; rad/s), the object's velocity (6: its free joint's linear, then angular velocity), the object's
  pose (7, as `achieved_goal`), then, with `touch_get_obs`, the 92 touch sensors' readings in the model's
  sensor order: 1 or 0 (`"boolean"`), as read (`"sensordata"`) or log(x + 1) (`"log"`). The
  `_BooleanTouchSensors` and `_ContinuousTouchSensors` ids take the model with touch sensors and
  `"boolean"` or `"sensordata"`. The joints, in the model's order:
  {HAND_JOINTS}.
- `achieved_goal` (7): the object's position (x, y, z; m) and orientation quaternion (w, x, y, z).
- `desired_goal` (7): the goal's.

`info["is_success"]` is 1.0 while both the position and the orientation are reached, else 0.0.
"""

MANIPULATE_REWARD = """
d_pos = distance between the achieved and the desired position (0 where `target_position` is
`"ignore"`); d_rot = the angle 2 acos(w) of the rotation from the desired to the achieved orientation (0
where `target_rotation` is `"ignore"`; with `ignore_z_target_rotation` the achieved orientation's Euler
angle about z is set to the goal's first). Sparse: 0 where d_pos < `distance_threshold` and d_rot <
`rotation_threshold`, else -1. Dense: -(10 d_pos + d_rot).
"""

MANIPULATE_START = """
Every reset starts from the state after creation (the hand at rest, the object on its palm), without
`mj_resetData`: MuJoCo's warm start and the controls carry over from the last episode, as in
gymnasium-robotics. The object is turned (`randomize_initial_rotation`, unless `target_rotation` is
`"fixed"`) by a random rotation of `target_rotation`'s kind and moved by N(0, 0.005) m per axis
(`randomize_initial_position`, unless `target_position` is `"fixed"`); then 10 steps of a zero action let
it settle. If its centre is then lower than 0.04 m (it fell off the palm), the reset is drawn again.

The goal position is the settled object's position plus U(-0.04, 0.04), U(-0.06, 0.02), U(0, 0.06) m
(`target_position="random"`) or the object's position (`"ignore"`, `"fixed"`). The goal orientation is a
random rotation of `target_rotation`'s kind or the object's own (`"ignore"`, `"fixed"`). The kinds: `"z"`
an angle U(-π, π) about z; `"parallel"` that followed by one of the 24 axis-aligned rotations (uniform);
`"xyz"` (and `"ignore"` for the reset's turn) an angle U(-π, π) about an axis of U(-1, 1)³.
"""

MANIPULATE_NOTES = RELATIVE_CONTROL + """
gymnasium-robotics redraws a reset as long as the object falls off the palm, for ever if it keeps falling;
rlpool raises an error after 1000 draws in a row.

`target_rotation="ignore"` or `"fixed"`: gymnasium-robotics 1.4.2 raises while drawing the goal (a
mujoco-py call); rlpool takes the object's orientation, which is what it means. No registered id uses them.

A frame shows the goal as a second, translucent object (moved 0.15 m aside where the position is ignored),
from an `mj_forward` of a copy of the simulation; with touch sensors, `touch_visualisation` colours their
sites.
"""

MANIPULATE_HISTORY = (
    "`v1`: gymnasium-robotics' env on the `mujoco` bindings.",
    "`v0` (EnvPool's id, gymnasium-robotics' mujoco-py env): rlpool runs `v1` under it, as EnvPool does.",
)


def _manipulate(name: str, summary: str, notes: str = "") -> EnvDoc:
    return EnvDoc(
        title=f"HandManipulate{name}",
        env_types=(f"HandManipulate{name}",),
        summary=summary,
        actions=(Part(HAND_ACTUATORS),),
        action_text=HAND_ACTION_TEXT,
        observation_text=MANIPULATE_OBSERVATION,
        reward=MANIPULATE_REWARD,
        starting_state=MANIPULATE_START,
        termination="Never terminates: episodes end by the time limit (the object may fall off the palm).",
        notes=MANIPULATE_NOTES + notes,
        version_history=MANIPULATE_HISTORY,
    )


HAND_BLOCK = _manipulate("Block", """
The Shadow Dexterous Hand turns (and moves) a block on its palm to a goal pose. The plain and `Full` ids:
a random goal position and orientation; `RotateZ`: a random rotation about z; `RotateParallel`: about z and
axis-aligned about x and y; `RotateXYZ`: any rotation (the `Rotate*` ids ignore the position).
""")

HAND_EGG = _manipulate("Egg", """
The Shadow Dexterous Hand turns (and moves) an egg on its palm to a goal pose. The plain and `Full` ids: a
random goal position and orientation; `Rotate`: a random orientation only.
""")

HAND_PEN = _manipulate("Pen", """
The Shadow Dexterous Hand turns (and moves) a pen on its palm to a goal pose; the orientation's Euler
angle about z does not count. The plain and `Full` ids: a random goal position and orientation; `Rotate`: a
random orientation only. The pen starts unturned, and 5 cm is close enough.
""", notes="""
`compute_reward` on a batch leaves out each goal's rotation about z; gymnasium-robotics' batched version sets
the wrong axis (the third goal's row, not each goal's z angle), so its rewards on batches differ from its
steps'. rlpool's equal the steps'.
""")

# --------------------------------------------------------------------------------------------------
# Adroit.

ADROIT_HAND = Part(f"the hand's 24 joints ({HAND_JOINTS}), rad", size=24)
ADROIT_ACTION_TEXT = """
Each entry sets a position actuator's target: the middle of its control range plus the action times half
the range (gymnasium-robotics' gains: 10 on the wrist, 1 on the fingers). One step runs 5 MuJoCo steps of
0.002 s.
"""
ADROIT_HISTORY = (
    "`v1`: gymnasium-robotics' version of D4RL's Adroit env on the `mujoco` bindings (`v0`: D4RL's).",
)
ADROIT_NOTES = """
gymnasium-robotics moves a body or site of the model at each reset (the door, the nail board, the pen's
target, the ball and its target); each rlpool env has its own copy of those model fields, which its saved
state holds.
"""
ADROIT_SPARSE = "Sparse (the `Sparse` ids): 10 on success, else -0.1."
DENSE_HISTORY_NOTE = """
The dense reward is gymnasium-robotics 1.4.2's, which 1.2.1 changed without a new version: 1.2.0's
`-v1` differs.
"""

ADROIT_DOOR = EnvDoc(
    title="AdroitHandDoor",
    env_types=("AdroitHandDoor",),
    summary="""
A 24-joint Shadow hand on an arm that moves towards the door and turns: undo the latch and swing the door
open.
""",
    actions=(
        Part(("arm slide towards the door, ARTz (m)", "arm up and down, ARRx (rad)",
              "arm left and right, ARRy (rad)", "arm roll, ARRz (rad)")),
        ADROIT_HAND,
    ),
    action_text=ADROIT_ACTION_TEXT,
    observation=(
        Part("joint angles: the arm's ARRx, ARRy, ARRz, then the hand's 24 (rad)", size=27),
        Part(("door latch angle (rad)", "door hinge angle (rad)", "palm position x (m)", "palm position y",
              "palm position z", "door handle position x (m)", "door handle position y", "door handle position z",
              "palm minus handle, x (m)", "palm minus handle, y", "palm minus handle, z",
              "1 if the door is open (hinge angle > 1.0 rad), else -1")),
    ),
    reward=f"""
Success: the hinge angle is at least 1.35 rad (`info["success"]`). Dense: 0.1 × the palm's distance to the
handle (a plus, as gymnasium-robotics writes it) - 0.1 (hinge - 1.57)² - 1e-5 |qvel|², + 2 when the hinge is
past 0.2 rad, + 8 more past 1.0 rad and + 10 more past 1.35 rad.
{ADROIT_SPARSE}
""",
    starting_state="""
The door's frame at x U(-0.3, -0.2), y U(0.25, 0.35), z U(0.252, 0.35) m; every joint at 0, at rest.
""",
    termination="Never terminates: episodes end by the time limit.",
    notes=ADROIT_NOTES + DENSE_HISTORY_NOTE,
    version_history=ADROIT_HISTORY,
)

ADROIT_HAMMER = EnvDoc(
    title="AdroitHandHammer",
    env_types=("AdroitHandHammer",),
    summary="A 24-joint Shadow hand on an arm picks up a hammer and drives a nail into a board.",
    actions=(Part(("arm up and down, ARRx (rad)", "arm left and right, ARRy (rad)")), ADROIT_HAND),
    action_text=ADROIT_ACTION_TEXT,
    observation=(
        Part("joint positions: the arm's ARRx, ARRy, the hand's 24 (rad), then the nail's slide joint (m)", size=27),
        Part("hammer velocity: linear (3), then angular (3), each clipped to [-1, 1]", size=6),
        Part(("palm position x (m)", "palm position y", "palm position z", "hammer position x (m)",
              "hammer position y", "hammer position z", "hammer orientation, Euler angle x (rad)",
              "hammer orientation, Euler angle y", "hammer orientation, Euler angle z", "nail head position x (m)",
              "nail head position y", "nail head position z", "nail touch sensor, clipped to [-1, 1]")),
    ),
    reward=f"""
Success: the nail head within 0.01 m of its goal (`info["success"]`). Dense: 0.1 × the palm's distance to
the hammer (a plus, as gymnasium-robotics writes it) - the hammer head's distance to the nail - 10 × the
nail's distance to its goal - 0.01 |qvel|, + 2 while the hammer and its head are higher than 0.04 m, + 25
when the nail is within 0.02 m of its goal and + 75 more within 0.01 m.
{ADROIT_SPARSE}
""",
    starting_state="The nail board's height U(0.1, 0.25) m; every joint at 0, at rest.",
    termination="Never terminates: episodes end by the time limit.",
    notes=ADROIT_NOTES + DENSE_HISTORY_NOTE,
    version_history=ADROIT_HISTORY,
)

ADROIT_PEN = EnvDoc(
    title="AdroitHandPen",
    env_types=("AdroitHandPen",),
    summary="A 24-joint Shadow hand on a fixed arm turns a pen in its hand to a goal orientation.",
    actions=(ADROIT_HAND,),
    action_text=ADROIT_ACTION_TEXT,
    observation=(
        ADROIT_HAND,
        Part(("pen position x (m)", "pen position y", "pen position z")),
        Part("pen velocity: linear (3), then angular (3)", size=6),
        Part(("pen orientation x (unit vector from its bottom to its top)", "pen orientation y",
              "pen orientation z", "goal orientation x (unit vector)", "goal orientation y", "goal orientation z",
              "pen position minus its goal position, x (m)", "pen position minus its goal position, y",
              "pen position minus its goal position, z", "pen orientation minus goal orientation, x",
              "pen orientation minus goal orientation, y", "pen orientation minus goal orientation, z")),
    ),
    reward=f"""
d = the pen's distance to its goal position, s = the dot product of the pen's and the goal's orientation.
Success: d < 0.075 m and s > 0.95 (`info["success"]`). Dense: -d + s, + 10 when d < 0.075 and s > 0.9, + 50
more when also s > 0.95, - 5 while the pen is lower than 0.075 m (dropped).
{ADROIT_SPARSE}
""",
    starting_state="""
The goal orientation: Euler angles (U(-1, 1), U(-1, 1), 0) rad; the pen in the hand at its initial pose,
every joint at 0, at rest.
""",
    termination="Never terminates, not even when the pen is dropped: episodes end by the time limit.",
    notes=ADROIT_NOTES,
    version_history=ADROIT_HISTORY,
)

ADROIT_RELOCATE = EnvDoc(
    title="AdroitHandRelocate",
    env_types=("AdroitHandRelocate",),
    summary="A 24-joint Shadow hand on a free-moving arm picks up a ball and carries it to a target in the air.",
    actions=(
        Part(("arm slide x, ARTx (m)", "arm slide y, ARTy (m)", "arm slide z, ARTz (m)", "arm rotation x, ARRx (rad)",
              "arm rotation y, ARRy (rad)", "arm rotation z, ARRz (rad)")),
        ADROIT_HAND,
    ),
    action_text=ADROIT_ACTION_TEXT,
    observation=(
        Part("joint positions: the arm's ARTx, ARTy, ARTz (m), ARRx, ARRy, ARRz (rad), the hand's 24 (rad)",
             size=30),
        Part(("palm minus ball, x (m)", "palm minus ball, y", "palm minus ball, z", "palm minus target, x (m)",
              "palm minus target, y", "palm minus target, z", "ball minus target, x (m)", "ball minus target, y",
              "ball minus target, z")),
    ),
    reward=f"""
d = the ball's distance to the target. Success: d < 0.1 m (`info["success"]`). Dense: 0.1 × the palm's
distance to the ball (a plus, as gymnasium-robotics writes it); while the ball is higher than 0.04 m, + 1 -
0.5 × the palm's distance to the target - 0.5 d; + 10 when d < 0.1 and + 20 more when d < 0.05.
{ADROIT_SPARSE}
""",
    starting_state="""
The ball at x U(-0.15, 0.15), y U(-0.15, 0.3) m on the table; the target at x U(-0.2, 0.2), y U(-0.2, 0.2),
z U(0.15, 0.35) m; every joint at 0, at rest.
""",
    termination="Never terminates: episodes end by the time limit.",
    notes=ADROIT_NOTES + DENSE_HISTORY_NOTE,
    version_history=ADROIT_HISTORY,
)

# --------------------------------------------------------------------------------------------------
# PointMaze.

POINT_MAZE = EnvDoc(
    title="PointMaze",
    env_types=("PointMaze",),
    summary="""
A ball pushed by forces in x and y rolls through a maze of 1 m cells (walls 0.4 m high) to a goal.
`UMaze`, `Open`, `Medium` and `Large` are gymnasium-robotics' (D4RL's) mazes, where any free cell can
hold the goal or the ball; in the `Diverse_G` ones the ball starts in one cell and the goal is in one of
several goal cells; in the `Diverse_GR` ones a few cells serve as either. Dense ids reward closeness.
""",
    actions=(Part(("force on the ball in x: 100 × action (N)", "force on the ball in y: 100 × action (N)")),),
    action_text="""
Each step clips the ball's velocity to [-5, 5] m/s, then runs one MuJoCo step of 0.01 s.
""",
    observation_text="""
- `observation` (4): the ball's position x, y (m; the maze is centred on the origin) and velocity x, y
  (m/s).
- `achieved_goal` (2): the ball's position.
- `desired_goal` (2): the goal's position.

`info["success"]` says whether the ball is within 0.45 m of the goal.
""",
    reward="""
d = the ball's distance to the goal. Sparse: 1 when d ≤ 0.45 m, else 0. Dense: exp(-d).
""",
    starting_state="""
The goal: the centre of a goal cell (uniform) plus U(-0.25, 0.25) m in x and in y. The ball: the centre of
a start cell (uniform), drawn again until it is more than 0.5 m from the goal, plus U(-0.25, 0.25) m in x
and y; at rest.
""",
    termination="""
With `continuing_task=False`, terminates when d ≤ 0.45 m. With `continuing_task` (the default) it never
terminates: the ball may stay at the goal, or, with `reset_target`, the goal moves to another goal cell
(drawn again until it is more than 0.45 m from the ball; the step's observation still shows the reached
goal, the next one the new goal).
""",
    notes="""
`maze_map` takes a maze as gymnasium-robotics does, a list of rows of cells (1 wall, 0 free, `"r"` a start
cell, `"g"` a goal cell, `"c"` either), or the name of one of gymnasium-robotics' maps (`"U_MAZE"`,
`"LARGE_MAZE_DIVERSE_GR"`, ...); without `r`, `g` or `c` cells every free cell is either. The maze's model
is the one gymnasium-robotics writes for it (a box per wall cell), kept in rlpool's cache. A maze is refused
when a goal cell has no start cell other than itself: gymnasium-robotics would draw the ball's cell for
ever.
""",
    version_history=(
        "`v3`: gymnasium-robotics' version of D4RL's maze on the `mujoco` bindings (`v1`, `v2`: D4RL's).",
    ),
)

# --------------------------------------------------------------------------------------------------
# FrankaKitchen.

KITCHEN_TASKS = "bottom burner, top burner, light switch, slide cabinet, hinge cabinet, microwave, kettle"

FRANKA_KITCHEN = EnvDoc(
    title="FrankaKitchen",
    env_types=("FrankaKitchen",),
    summary="""
A Franka Panda arm (7 joints and a two-finger gripper) in a kitchen completes the tasks of its goal: turn the
knob of the bottom or the top burner, flip the light switch, open the slide cabinet, the hinge cabinet or the
microwave door, move the kettle onto the top burner.
""",
    actions=(
        Part("joint velocity of the arm's joints 1–7: 2 × action (rad/s)", size=7),
        Part("joint velocity of the two gripper fingers: 2 × action (m/s)", size=2),
    ),
    action_text="""
Each velocity is clipped to the joint's bounds in gymnasium-robotics' `franka_config.xml`; the position
actuators aim at the last observation's (noisy) joint position plus velocity × dt (dt = `frame_skip` ×
0.002 s, 0.08 s by default), clipped to the joint's range. One step runs `frame_skip` MuJoCo steps.
""",
    observation_text=f"""
- `observation` (59): the arm's 9 joint positions and 9 velocities, then the kitchen's 21 joint positions
  (burner knobs and burners, light, cabinets, microwave door, the kettle's position and quaternion) and 20
  velocities, each with uniform noise: U(-1, 1) × (`robot_noise_ratio` or `object_noise_ratio`) × the
  joint's noise amplitude in `franka_config.xml`.
- `achieved_goal`: task name -> the positions of the task's joints, for each task of the goal (sorted by
  name): knob and burner (2), light (2), slide cabinet (1), hinge cabinet (2), microwave door (1),
  kettle (7: position and quaternion).
- `desired_goal`: task name -> the task's goal positions.

`info` has three masks, `tasks_to_complete` (still to do), `step_task_completions` (completed by this
step) and `episode_task_completions` (completed in the episode so far): bool[7] each, where
gymnasium-robotics gives lists of names, in the order
{KITCHEN_TASKS}.
""",
    reward="""
The number of tasks still to complete whose joints are within 0.3 (Euclidean distance over the task's
joints) of their goal after the step. With `remove_task_when_completed` (the default) a completed task
leaves `tasks_to_complete` and is rewarded once; without it, at every step it stays complete.
`compute_reward(achieved_goal, desired_goal, info)` counts the same over `info["tasks_to_complete"]`
where info has it, else over every task of the goal.
""",
    starting_state="""
The arm and the kitchen in gymnasium-robotics' initial pose, at rest, every episode alike; only the
observation noise is random.
""",
    termination="""
With `terminate_on_tasks_completed` (the default), terminates when every task of the goal has been completed
in the episode.
""",
    notes="""
Every observation, the reset's included, takes 59 noise draws, in the order of its entries. The noise on the
kitchen's joint positions takes its amplitudes from the rows of `franka_config.xml` one before the joint's
(from dof 8 on), as gymnasium-robotics does; the velocities' take their own rows.

`tasks_to_complete` takes a list of task names, as gymnasium-robotics does, or one string of names joined
by commas.
""",
    version_history=(
        "`v1`: gymnasium-robotics' version of D4RL's kitchen on the `mujoco` bindings (`v0`: D4RL's).",
    ),
)


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/robotics.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="robotics",
        title="Gymnasium-Robotics",
        intro=INTRO,
        envs=(FETCH, HAND_REACH, HAND_BLOCK, HAND_EGG, HAND_PEN, ADROIT_DOOR, ADROIT_HAMMER, ADROIT_PEN,
              ADROIT_RELOCATE, POINT_MAZE, FRANKA_KITCHEN),
    )
