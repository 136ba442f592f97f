"""The hand-written reference text of the DeepMind Control Suite family (``docs/envs/dmc.md``).

The facts follow dm_control 1.0.50's ``dm_control/suite/<domain>.py`` and ``dm_control/utils/rewards.py``;
``rlpool.tools.docgen`` adds task ids, spaces, time limits and options from the registry.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/dmc.md (see ``rlpool.tools.docgen``)."""
    no_termination = "Never terminates, unless the simulation diverges (see the top of the page)."
    small_control = "`small_control` (see the top of the page)"
    limited_joints = (
        "dm_control's `randomize_limited_and_rotational_joints`: each limited hinge or slide joint uniform in its "
        "range, each unlimited hinge U(-π, π); unlimited slide joints keep their initial value"
    )
    humanoid_reward = """
stand_reward × {small_control} × move, where stand_reward = `tol(head z, [1.4, ∞], 0.35)` ×
`tol({upright}, [0.9, ∞], 1.9, linear, 0)` (1 while {upright} ≥ 0.9, linearly down to 0 upside down).

- `stand`: move = the mean over the center of mass's x and y velocity v of `tol(v, [0, 0], 2)`.
- `walk`, `run`: move = (5 `tol(|v_xy|, [s, ∞], s, linear, 0)` + 1) / 6, v_xy the center of mass's horizontal
  velocity, s = 1 (walk) or 10 m/s (run).
"""
    humanoid_start = """
{limited_joints}; the free root joint keeps its initial position and gets a random orientation quaternion
(four U(0, 1) draws, normalized, as dm_control's randomizer does). Redrawn until nothing touches. Velocities 0.
"""
    humanoid_obs = """
- `joint_angles` ({n},): qpos without the free joint's 7 values, the hinge joints in the model's order.
- `head_height` (): height z of the head (m).
- `extremities` (12,): positions of the {ext} relative to the {body}, in the {body}'s frame (x, y, z each).
- `torso_vertical` (3,): the world's vertical in the {body}'s frame (the zx, zy, zz entries of its rotation
  matrix).
- `com_velocity` (3,): linear velocity of the center of mass of the {body}'s subtree (world frame).
- `velocity` ({nv},): qvel, the free joint's 6 values first.
"""
    arm_start = """
The arm joints uniform in their ranges (`arm_root`, which is unlimited: U(-π, π)), the finger set to the thumb's
angle. {rest} All of it is redrawn until nothing penetrates; velocities 0 unless said.
"""
    arm_obs = """
- `arm_pos` (8, 2): sine and cosine of the 8 arm joints: root, shoulder, elbow, wrist, finger, fingertip, thumb,
  thumbtip.
- `arm_vel` (8,): their angular velocities, same order.
- `touch` (5,): log(1 + reading) of the palm, finger, thumb, fingertip and thumbtip touch sensors.
- `hand_pos` (4,): the hand's x, z and the w, y elements of its orientation quaternion (its angle in the plane).
"""
    arm_actions = (
        "5 actuators in [-1, 1]: torques on the arm's root, shoulder, elbow and wrist joints, then `grasp`, a force "
        "on the tendon that opens and closes the two-fingered gripper."
    )

    return FamilyDoc(
        name="dmc",
        title="DeepMind Control Suite",
        intro="""
dm_control 1.0.50's Control Suite: all 51 tasks of `dm_control.suite.ALL_TASKS` in 19 domains, under EnvPool's
ids (domain and task names in CamelCase, then `-v1`: `CheetahRun-v1`, `BallInCupCatch-v1`,
`HumanoidCMUWalk-v1`, `LqrLqr21-v1`). Each domain is one env type (`Dmc` + the domain in CamelCase), whose
`task_name` option picks the task. The MuJoCo models are dm_control's own: dm_control 1.0.50
(the `dmc` extra: `pip install ".[dmc]"` in the checkout) builds each task's model once, and rlpool caches it
compiled, as an MJB file.
Where dm_control is not installed (pip cannot install it on CPython 3.13: its dependency labmaze, used only by
`dm_control.locomotion`, has no wheel there), rlpool fetches dm_control's pure-Python wheel as a file with pip,
checks its sha256 and unpacks the package, all but `dm_control.locomotion`, into the same cache
(`$RLPOOL_CACHE_DIR/dmc/dm_control-1.0.50`); what the suite imports (absl-py, dm-env, lxml, mujoco, numpy, scipy)
must be installed.

One step is `frame_skip` of dm_control's control steps: the action is written to the actuators' controls and
held for the domain's physics substeps; the rewards of the repeats add up, and the repeats stop early if the
task terminates. Observations are dicts with dm_control's keys, in its order, of unbounded float64 arrays (a
scalar has shape `()`); actions are float64 `Box`es over the actuators' control ranges. Rewards are float64.

Most rewards are made of dm_control's `tolerance`, written here `tol(x, [lo, hi], margin, sigmoid, v)`: 1 when
lo ≤ x ≤ hi; outside, with d = (distance to the nearer bound) / margin, it is v^(d²) for `gaussian`,
max(0, 1 - (1 - v)·d) for `linear`, max(0, 1 - (1 - v)·d²) for `quadratic`, 1 / (1 + (1/v - 1)·d²) for
`long_tail` and 1 / (1 + (1/v - 1)·d) for `reciprocal`. Left out, the sigmoid is `gaussian` and v = 0.1;
without a margin, `tol` is 1 inside the bounds and 0 outside. Several tasks multiply by `small_control` =
(4 + the mean over the actuators of `tol(u, [0, 0], 1, quadratic, 0)`) / 5 = (4 + mean(max(0, 1 - u²))) / 5,
u being the controls. Distances are in m, angles in rad, velocities in m/s and rad/s. Unless said otherwise,
each control step's reward is in [0, 1].

Episodes last dm_control's `time_limit` seconds (an option): 1000 control steps for every task but lqr's,
which have no limit; `max_episode_steps` is the limit over (control timestep × `frame_skip`), rounded up. A
truncated episode's dm_env discount is 1. Only lqr's tasks terminate on their own (discount 0). Where
dm_control would raise a `PhysicsError` (MuJoCo warned during the step: the simulation diverged), rlpool ends
the episode as terminated, with discount 0.

`get_state` / `set_state` use float64 values: time, qpos, qvel, act, qacc_warmstart and ctrl, then the task's
own state, the model entries it sets per episode (targets, terrain, lqr's stiffness, ...).
Starting states follow dm_control's distributions, drawn from rlpool's random generator: a seed does not give
the episodes that dm_control gives for it. Where a starting state below says "redrawn", dm_control's rejection
loop is kept: the draw repeats until the named condition holds.
""",
        envs=(
            EnvDoc(
                title="Acrobot",
                env_types=("DmcAcrobot",),
                summary="""
A planar two-link pendulum hanging from a fixed shoulder, actuated only at the elbow: swing the tip up to the
target above the shoulder and keep it there. `swingup` has a smooth reward, `swingup_sparse` a 0/1 one.
""",
                action_text="One actuator in [-1, 1]: the elbow torque (gear 2). The shoulder is passive.",
                observation_text="""
- `orientations` (4,): sine of the upper and lower arm's angle from upright (the xz entries of their rotation
  matrices), then their cosines (the zz entries).
- `velocity` (2,): shoulder and elbow angular velocity.
""",
                reward="""
d = distance from the arm's tip to the target site, at the upright tip's position (radius 0.2).

- `swingup`: `tol(d, [0, 0.2], 1)`.
- `swingup_sparse`: `tol(d, [0, 0.2])`: 1 within the target, else 0.
""",
                starting_state="Shoulder and elbow angles U(-π, π) each; velocities 0.",
                termination=no_termination,
            ),
            EnvDoc(
                title="BallInCup",
                env_types=("DmcBallInCup",),
                summary="""
A planar cup that moves in x and z, with a ball tied to it by a string: swing the ball up and catch it in the
cup. One task, `catch`, with a 0/1 reward.
""",
                action_text="Two actuators in [-1, 1]: forces moving the cup along x and along z.",
                observation_text="""
- `position` (4,): qpos: the cup's x and z joints, then the ball's x and z joints.
- `velocity` (4,): qvel, same order.
""",
                reward="""
1 when the ball is inside the cup, else 0: the ball center's x and z distance to the cup's target box (half
sizes 0.05) are both below 0.05 - 0.025 (the ball's radius).
""",
                starting_state="""
The ball's joints ball_x ~ U(-0.2, 0.2) and ball_z ~ U(0.2, 0.5), redrawn until the ball touches nothing; the
cup at its initial position; velocities 0.
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Cartpole",
                env_types=("DmcCartpole",),
                summary="""
A cart on a rail with a chain of hinged poles. `balance` and `balance_sparse` start near upright and keep the
pole up; `swingup` and `swingup_sparse` start hanging down; `two_poles` and `three_poles` swing up a chain of 2
or 3 poles. The `_sparse` tasks give a 0/1 reward, the others a smooth one.
""",
                action_text="One actuator in [-1, 1]: the force on the cart (gear 10).",
                observation_text="""
- `position` (1 + 2n,), n the number of poles: the cart's x, then for each pole the cosine and sine of its angle
  from upright (the zz and xz entries of its rotation matrix).
- `velocity` (1 + n,): qvel: the cart's velocity, then the hinges' angular velocities.
""",
                reward=f"""
- Smooth (`balance`, `swingup`, `two_poles`, `three_poles`): upright × centered × {small_control} ×
  small_velocity, where upright = the mean over the poles of (1 + cos angle) / 2, centered = (1 +
  `tol(cart x, [0, 0], 2)`) / 2 and small_velocity = (1 + the minimum over the hinges of
  `tol(angular velocity, [0, 0], 5)`) / 2.
- Sparse (`balance_sparse`, `swingup_sparse`): 1 while the cart's x is in [-0.25, 0.25] and every pole's cosine
  is in [0.995, 1], else 0.
""",
                starting_state="""
- Balance tasks: cart x ~ U(-0.1, 0.1), the hinge angle U(-0.034, 0.034).
- Swing-up tasks: cart x ~ 0.01·N(0, 1), the first hinge π + 0.01·N(0, 1) (hanging), any further hinges
  0.1·N(0, 1).

In both, every velocity is 0.01·N(0, 1).
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Cheetah",
                env_types=("DmcCheetah",),
                summary="""
A planar two-legged runner (torso, back and front thigh, shin, foot): run forward (+x) as fast as possible,
rewarded up to 10 m/s. One task, `run`.
""",
                action_text="""
Six actuators in [-1, 1]: torques on the back thigh, back shin, back foot, front thigh, front shin and front
foot joints.
""",
                observation_text="""
- `position` (8,): qpos without the root's x: root z, root pitch angle, then the six leg joints' angles.
- `velocity` (9,): qvel: root x, z and pitch velocities, then the six leg joints'.
""",
                reward="""
`tol(v, [10, ∞], 10, linear, 0)` = clip(v / 10, 0, 1), v the x velocity of the torso subtree's center of mass.
""",
                starting_state="""
The six (limited) leg joints uniform in their ranges, the root as in the model; then 200 physics steps with
zero control let the cheetah settle, and the time is set back to 0.
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Dog",
                env_types=("DmcDog",),
                summary="""
A 3-D dog with 73 hinge joints and 38 actuators. `stand` stands up; `walk`, `trot` and `run` move
forward at 1, 3 and 9 m/s; `fetch` (in a walled arena with a ball) catches a thrown ball and brings it to the
target at the center.
""",
                action_text="""
38 actuators in [-1, 1], each with a first-order activation filter (time constant 0.05 s; the activations are
`actuator_state`): lumbar extend, bend, twist; cervical extend, bend, twist; caudal extend, bend; left hind hip
supinate, abduct, extend, knee, ankle, toe; the same for the right hind leg; atlas; mandible; left front scapula
supinate, abduct, extend, shoulder supinate, extend, elbow, wrist, finger; the same for the right front leg.
""",
                observation_text="""
- `joint_angles` (73,): the angles of all hinge joints, in the model's order.
- `joint_velocites` (73,): their angular velocities (dm_control's spelling of the key).
- `torso_pelvis_height` (2,): height z of the torso and of the pelvis.
- `z_projection` (9,): the world's vertical in the frames of the skull, the torso and the pelvis (the zx, zy,
  zz entries of each rotation matrix).
- `torso_com_velocity` (3,): linear velocity of the torso subtree's center of mass, in the torso's frame.
- `inertial_sensors` (9,): accelerometer, velocimeter and gyro at the head (3 each).
- `foot_forces` (12,): 3-D force sensors at the left foot, right foot, left hand and right hand.
- `touch_sensors` (4,): touch sensors at the left palm, right palm, left sole and right sole.
- `actuator_state` (38,): the actuators' activations.
- `fetch` only: `ball_state` (6,): the ball's position and velocity relative to the head, in the head's frame;
  `target_position` (3,): the target's position relative to the head, in the head's frame.
""",
                reward="""
A product of factors. Standing (every task): `tol(torso z, [h_t, ∞], h_t)` × `tol(pelvis z, [h_p, ∞], h_p)` ×
the product over skull, torso and pelvis of `tol(their zz, [cos 30°, ∞], 1 + cos 30°, linear, 0)` ×
`tol(Σ touch_sensors, [W, ∞], W, linear, 0.9)`, where h_t, h_p are 0.9 × the torso's and pelvis's heights in
the model's initial pose (about 0.37 and 0.43 m) and W is the dog's weight (about 100 N).

- `stand`: the standing factors.
- `walk`, `trot`, `run`: × (4 `tol(v, [s, 2s], max(1, s), linear, 0)` + 1) / 5, v the forward
  (`torso_com_velocity` x) velocity and s = 1, 3, 9 m/s.
- `fetch`: × reach × bring, reach = (6 `tol(b, [0, 0.005], 2, reciprocal)` + 1) / 7 with b the ball's mean
  distance to the upper and lower bite sites (reach is 1 once the ball is within 0.2 of the target's center),
  bring = (1 + `tol(ball-to-target distance, [0, 0.1], 10, reciprocal)`) / 2.
""",
                starting_state="""
The model's initial pose, turned to a yaw U(0, 2π) about the vertical; the root's x, y velocity and yaw rate
2·N(0, 1) each; each actuator's activation uniform in its control range. `fetch`: the ball starts 7.5 m from
the center (at a random azimuth), 0.05 m high, thrown toward the center: horizontal speed U(0, 5) along the
direction to the center plus 0.05·N(0, 1) per component, vertical speed √(2 g h) with h ~ U(0, 3) m.
""",
                termination=no_termination,
                notes="""
The velocity key is `joint_velocites`, spelled as dm_control spells it. The floor's half size is 15 m for
`stand` and `walk`, 45 m for `trot`, 135 m for `run` and 10 m (walled) for `fetch`.
""",
            ),
            EnvDoc(
                title="Finger",
                env_types=("DmcFinger",),
                summary="""
A planar two-link finger and a free-spinning body on an unactuated hinge. `spin` spins the body fast;
`turn_easy` and `turn_hard` turn the body's tip into a target (radius 0.07 or 0.03). 0/1 rewards.
""",
                action_text="Two actuators in [-1, 1]: torques on the finger's proximal and distal joints.",
                observation_text="""
- `position` (4,): proximal and distal joint angles, then the x and z of the body's tip relative to its hinge.
- `velocity` (3,): proximal, distal and hinge angular velocities.
- `touch` (2,): log(1 + reading) of the two touch sensors on the fingertip.
- `turn_*` only: `target_position` (2,): the target's x and z relative to the hinge; `dist_to_target` (): the
  tip's distance to the target's center minus the target radius (negative inside).
""",
                reward="""
- `spin`: 1 while the hinge's angular velocity is ≤ -15 rad/s, else 0.
- `turn_easy`, `turn_hard`: 1 while the tip is inside the target (`dist_to_target` ≤ 0), else 0.
""",
                starting_state=f"""
{limited_joints} (the finger's joints within ±110°, the hinge U(-π, π)), redrawn until nothing touches;
velocities 0. `turn_*`: the target sits on the tip's circle around the hinge (radius 0.13) at an angle
U(-π, π). `spin` sets the hinge's damping to 0.03 every episode.
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Fish",
                env_types=("DmcFish",),
                summary="""
A 3-D fish in fluid, with a two-joint tail and two fins. `upright` turns it upright; `swim` brings its mouth to
a target while upright.
""",
                action_text="""
Five position actuators in [-1, 1]: tail, tail twist, fin flap (both fins), left fin pitch, right fin pitch.
""",
                observation_text="""
- `joint_angles` (7,): tail1, tail_twist, tail2, right fin roll, right fin pitch, left fin roll, left fin pitch.
- `upright` (): the zz entry of the torso's rotation matrix (1: upright).
- `swim` only: `target` (3,): the target's position relative to the mouth, in the mouth's frame.
- `velocity` (13,): qvel: the free root's linear and angular velocity, then the 7 joints'.
""",
                reward="""
- `upright`: `tol(upright, [1, 1], 1)`.
- `swim`: (7 `tol(d, [0, 0.045], 0.09)` + (1 + upright) / 2) / 8, d the mouth's distance to the target
  (0.045 = mouth radius + target radius).
""",
                starting_state="""
A uniformly random orientation (a normalized 4-D normal draw) at the model's position; the 7 joints
U(-0.2, 0.2); velocities 0. `swim`: the target at x, y ~ U(-0.4, 0.4), z ~ U(0.1, 0.3).
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Hopper",
                env_types=("DmcHopper",),
                summary="""
A planar one-legged robot (torso, pelvis, thigh, calf, foot). `stand` stands upright with little control;
`hop` hops forward (+x).
""",
                action_text="Four actuators in [-1, 1]: torques on the waist, hip, knee and ankle joints.",
                observation_text="""
- `position` (6,): qpos without the root's x: root z, root pitch, waist, hip, knee, ankle.
- `velocity` (7,): qvel: root x, z and pitch, then the four joints.
- `touch` (2,): log(1 + reading) of the toe and heel touch sensors.
""",
                reward=f"""
standing = 1 while the torso's center of mass is 0.6 to 2 m above the foot's, else 0.

- `stand`: standing × {small_control}.
- `hop`: standing × `tol(v, [2, ∞], 1, linear, 0.5)`, v the x velocity of the torso subtree's center of mass
  (0.5 at 1 m/s, 0 at 0).
""",
                starting_state=f"{limited_joints}: the root's pitch U(-π, π), the four joints within their ranges; "
                "velocities 0.",
                termination=no_termination,
            ),
            EnvDoc(
                title="Humanoid",
                env_types=("DmcHumanoid",),
                summary="""
A 3-D humanoid with 21 hinge joints. `stand` stands still; `walk` and `run` move in any horizontal direction
at 1 and 10 m/s; `run_pure_state` is `run` observing qpos and qvel only.
""",
                action_text="""
21 actuators in [-1, 1], torques in the actuators' order (which differs from the joints'): abdomen y, z, x;
right hip x, z, y, right knee, right ankle x, y; left hip x, z, y, left knee, left ankle x, y; right shoulder 1,
2, right elbow; left shoulder 1, 2, left elbow.
""",
                observation_text=humanoid_obs.format(
                    n=21, nv=27, body="torso", ext="left hand, left foot, right hand and right foot"
                )
                + """
`run_pure_state` has only `position` (28,), qpos (the free joint's position and quaternion first), and
`velocity` (27,), qvel.
""",
                reward=humanoid_reward.format(small_control=small_control, upright="torso zz", body="torso"),
                starting_state=humanoid_start.format(limited_joints=limited_joints),
                termination=no_termination,
            ),
            EnvDoc(
                title="HumanoidCMU",
                env_types=("DmcHumanoidCMU",),
                summary="""
The CMU motion-capture humanoid (56 hinge joints). `stand` stands still; `walk` and `run` move in any
horizontal direction at 1 and 10 m/s.
""",
                action_text="""
56 actuators in [-1, 1], one per hinge joint, in the model's actuator order (alphabetical by joint name:
headrx, headry, headrz, lclaviclery, lclaviclerz, lfemurrx, ..., upperneckrz), which differs from the joints'
order in `joint_angles`.
""",
                observation_text=humanoid_obs.format(
                    n=56, nv=62, body="thorax", ext="left hand, left foot, right hand and right foot"
                ),
                reward=humanoid_reward.format(small_control=small_control, upright="thorax zy", body="thorax"),
                starting_state=humanoid_start.format(limited_joints=limited_joints),
                termination=no_termination,
                notes="""
Uprightness is the thorax's zy rotation-matrix entry (its y axis points up in this model), where Humanoid uses
the torso's zz.
""",
            ),
            EnvDoc(
                title="Lqr",
                env_types=("DmcLqr",),
                summary="""
A linear system: a chain of bodies on slide joints with springs (stiffness U(15, 25) each, no damping, no
contacts), the first joints driven by motors. `lqr_2_1` has 2 bodies and 1 motor, `lqr_6_2` 6 bodies and 2
motors. Bring the state to 0 at a quadratic cost.
""",
                action_text="One force per motor (1 or 2), on the first joints of the chain: unbounded (±1e10, as in "
                "dm_control).",
                observation_text="""
- `position` (n,): qpos, the n joints' displacements.
- `velocity` (n,): qvel.
""",
                reward="""
1 - ½|qpos|² - 0.1 × ½|u|², u the controls. Not bounded: it can be far below 0.
""",
                starting_state="qpos uniform on the sphere of radius √2 (a normalized normal draw × √2); qvel 0.",
                termination="""
Terminates with discount 0 once |(qpos, qvel)| < 1e-6. There is no time limit (`time_limit` is infinite) unless
one is given.
""",
                notes="""
dm_control draws the joints' stiffness when it builds the model, so it stays the same for all episodes of one
environment; rlpool draws it again at every reset (it is part of the task state).
""",
            ),
            EnvDoc(
                title="Manipulator",
                env_types=("DmcManipulator",),
                summary="""
A planar arm with a two-fingered gripper and one object. `bring_ball` and `bring_peg` bring a ball or a peg to
a target pose; `insert_ball` and `insert_peg` do the same with the target inside a cup or a slot.
""",
                action_text=arm_actions,
                observation_text=arm_obs
                + """- `object_pos` (4,): the same for the ball or peg.
- `object_vel` (3,): the object's x, z and angular velocity.
- `target_pos` (4,): the same as `hand_pos` for the target.
""",
                reward="""
With close(d) = `tol(d, [0, 0.01], 0.02)`:

- Ball tasks: close(distance from the ball to the target ball).
- Peg tasks: max(bringing, grasping / 3), where bringing = the mean of close(peg to target) and close(peg tip
  to target tip) and grasping = the mean of close(peg grasp point to the gripper's grasp site) and close(peg
  pinch point to the gripper's pinch site).
""",
                starting_state=arm_start.format(
                    rest="The target at x ~ U(-0.4, 0.4), z ~ U(0.1, 0.4) and angle U(-π, π); for the insert tasks "
                    "at angle U(-π/3, π/3), with the cup or slot moved to the same pose. The object, with "
                    "probability 0.1 each, in the gripper or at the target; otherwise at x ~ U(-0.5, 0.5), "
                    "z ~ U(0, 0.7), angle U(0, 2π), moving with x velocity U(-5, 5)."
                ),
                termination=no_termination,
            ),
            EnvDoc(
                title="Pendulum",
                env_types=("DmcPendulum",),
                summary="A torque-limited pendulum: swing it up and hold it upright. One task, `swingup`, 0/1 reward.",
                action_text="One actuator in [-1, 1]: the torque on the hinge.",
                observation_text="""
- `orientation` (2,): cosine and sine of the pole's angle from upright (the zz and xz entries of its rotation
  matrix).
- `velocity` (1,): the hinge's angular velocity.
""",
                reward="1 while the pole is within 8° of upright (cosine ≥ cos 8°), else 0.",
                starting_state="The hinge angle U(-π, π); velocity 0.",
                termination=no_termination,
            ),
            EnvDoc(
                title="PointMass",
                env_types=("DmcPointMass",),
                summary="""
A point mass in a walled plane: reach the target at the center and stay there. In `easy` the two controls push
along x and y; in `hard` each pushes along a direction drawn per episode.
""",
                action_text="""
Two actuators in [-1, 1]: forces along x and y (`easy`), or along two random unit directions (`hard`).
""",
                observation_text="""
- `position` (2,): x and y.
- `velocity` (2,): their velocities.
""",
                reward=f"""
`tol(d, [0, 0.015], 0.015)` × {small_control}, d the distance to the target (its radius is 0.015).
""",
                starting_state="""
x and y U(-0.29, 0.29) (their whole range); velocities 0. `hard`: two unit directions drawn from normal
draws, the second redrawn until |cos angle between them| ≤ 0.9.
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Quadruped",
                env_types=("DmcQuadruped",),
                summary="""
A 3-D four-legged robot with 3 actuated degrees of freedom per leg. `walk` and `run` move forward at 0.5 and 5
m/s; `escape` climbs out of a random bowl-shaped terrain; `fetch` brings a ball to the center of a walled
arena.
""",
                action_text="""
12 position-servo actuators with a first-order activation filter (time constant 0.1 s), per leg in the order
front-left, front-right, back-right, back-left: yaw in [-1, 1], lift in [-1, 1.1], extend in [-0.8, 0.8].
""",
                observation_text="""
- `egocentric_state` (44,): the 16 hinge joints' angles and angular velocities, then the 12 actuator
  activations.
- `torso_velocity` (3,): the torso's velocimeter (its frame).
- `torso_upright` (): the zz entry of the torso's rotation matrix.
- `imu` (6,): accelerometer, then gyro, at the torso.
- `force_torque` (24,): arcsinh of the 3-D forces at the four toes, then of the torques (front-left,
  front-right, back-right, back-left).
- `escape` only: `origin` (3,): the world origin in the torso's frame; `rangefinder` (20,): tanh of 20
  rangefinder distances, rays ahead of the torso (1 where a ray hits nothing).
- `fetch` only: `ball_state` (9,): the ball's position and linear velocity relative to the torso, and its
  angular velocity, in the torso's frame; `target_position` (3,): the target relative to the torso, in its frame.
""",
                reward="""
upright = `tol(torso zz, [c, ∞], 1 + c, linear, 0)`: with c = 1 (`walk`, `run`, `fetch`) it is (1 + zz) / 2;
`escape` uses c = cos 20°.

- `walk`, `run`: upright × `tol(v, [s, ∞], s, linear, 0.5)`, v the torso's forward velocity (its frame) and
  s = 0.5 or 5 m/s.
- `escape`: upright × `tol(r, [30, ∞], 30, linear, 0)` = min(r / 30, 1), r the distance from the origin (of a
  point in front of the torso).
- `fetch`: upright × reach × (1 + fetch) / 2, with reach = `tol(horizontal distance from the workspace in front
  of the torso to the ball, [0, 0.45], 15√2, linear, 0)` and fetch = `tol(horizontal distance from the ball to
  the target, [0, 0.4], 15√2, linear, 0)`.
""",
                starting_state="""
The joints as in the model, velocities 0, the body dropped to the lowest height free of contacts (raised in 1 cm
steps).

- `walk`, `run`, `escape`: at the origin, with a uniformly random 3-D orientation.
- `escape`: the terrain is a bowl (0.5 - cos(2πr)/2 over the 60 m × 60 m heightfield) times smooth bumps
  (a 30 × 30 grid of U(0.15, 1), interpolated), drawn per episode.
- `fetch`: upright at a random yaw, x and y U(-13.5, 13.5); the ball at x, y ~ U(-13.5, 13.5), 2 m high, with
  horizontal velocity 5·N(0, 1) per axis.
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Reacher",
                env_types=("DmcReacher",),
                summary="""
A planar two-link arm: touch a target with its fingertip. The target's radius is 0.05 in `easy`, 0.015 in
`hard`. 0/1 reward.
""",
                action_text="Two actuators in [-1, 1]: torques on the shoulder and wrist joints.",
                observation_text="""
- `position` (2,): shoulder and wrist angles.
- `to_target` (2,): the target's x and y relative to the fingertip.
- `velocity` (2,): shoulder and wrist angular velocities.
""",
                reward="""
1 while the fingertip's distance to the target is ≤ the target's radius + the fingertip's (0.01), else 0.
""",
                starting_state="""
Shoulder U(-π, π), wrist uniform in its range (±160°); velocities 0. The target at a distance U(0.05, 0.2)
from the center and an angle U(0, 2π).
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Stacker",
                env_types=("DmcStacker",),
                summary="""
Manipulator's planar arm with 2 (`stack_2`) or 4 (`stack_4`) boxes: put a box at a target spot in a stack and
move the hand away.
""",
                action_text=arm_actions,
                observation_text=arm_obs
                + """- `box_pos` (n, 4): the same for each of the n boxes.
- `box_vel` (3n,): per box, its x velocity, angular velocity and z velocity (dm_control's order).
- `target_pos` (2,): the target's x and z.
""",
                reward="""
`tol(min over the boxes of the box's distance to the target, [0, 0], 0.044)` × `tol(the hand's distance to
the target, [0.1, ∞], 0.01)`.
""",
                starting_state=arm_start.format(
                    rest="The target at x ~ U(-0.37, 0.37), at the height of the k-th box of a stack "
                    "(0.022 × (2k + 1), k uniform in 0..n-1). Each box's x and z joints U(0.1, 0.3) and U(0, 0.7), "
                    "its angle U(0, 2π)."
                ),
                termination=no_termination,
            ),
            EnvDoc(
                title="Swimmer",
                env_types=("DmcSwimmer",),
                summary="""
A planar snake-like swimmer of n links in viscous fluid: bring its nose to a target. `swimmer6` has 6 links,
`swimmer15` 15.
""",
                action_text="n - 1 actuators in [-1, 1]: torques on the joints between the links, head first.",
                observation_text="""
- `joints` (n - 1,): the joint angles.
- `to_target` (2,): the target's x and y relative to the nose, in the head's frame.
- `body_velocities` (3n,): per link (head first), its x and y velocity and its angular velocity about z, in its
  own frame.
""",
                reward="""
`tol(d, [0, 0.1], 0.5, long_tail)` = 1 / (1 + 9 (d' / 0.5)²), d the nose's distance to the target (radius 0.1)
and d' its distance beyond 0.1.
""",
                starting_state="""
The heading U(-π, π), each joint uniform in its range (±360°/n), the position as in the model; velocities 0.
The target at x, y ~ U(-0.3, 0.3) with probability 0.2, else U(-2, 2).
""",
                termination=no_termination,
            ),
            EnvDoc(
                title="Walker",
                env_types=("DmcWalker",),
                summary="""
A planar biped (torso, two legs of thigh, leg, foot). `stand` stands up; `walk` and `run` move forward at 1 and
8 m/s.
""",
                action_text="""
Six actuators in [-1, 1]: torques on the right hip, right knee, right ankle, left hip, left knee and left ankle.
""",
                observation_text="""
- `orientations` (14,): the xx and xz entries of the rotation matrices of the torso, right thigh, right leg,
  right foot, left thigh, left leg and left foot (cosine and sine of each body's angle).
- `height` (): the torso's height z.
- `velocity` (9,): qvel: root z, x and pitch, then the six joints.
""",
                reward="""
stand = (3 `tol(torso z, [1.2, ∞], 0.6)` + (1 + torso zz) / 2) / 4.

- `stand`: stand.
- `walk`, `run`: stand × (5 `tol(v, [s, ∞], s / 2, linear, 0.5)` + 1) / 6, v the x velocity of the torso
  subtree's center of mass and s = 1 or 8 m/s.
""",
                starting_state=f"""
{limited_joints}: the root's pitch U(-π, π), the hips U(-20°, 100°), knees U(-150°, 0°), ankles U(-45°, 45°);
the torso at its model height; velocities 0. The walker then falls.
""",
                termination=no_termination,
            ),
        ),
    )
