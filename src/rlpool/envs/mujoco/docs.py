"""The hand-written reference text of the MuJoCo family (``docs/envs/mujoco.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.envs.mujoco.registration import gymnasium_assets
from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/mujoco.md (see ``rlpool.tools.docgen``)."""
    xy = Part(("x of the torso (m)", "y of the torso (m)"), unless="exclude_current_positions_from_observation")
    x = Part(("x of the torso (m)",), unless="exclude_current_positions_from_observation")
    quaternion = ("torso orientation quaternion, w", "torso orientation quaternion, x",
                  "torso orientation quaternion, y", "torso orientation quaternion, z")
    free_velocity = ("torso velocity, x (m/s)", "torso velocity, y (m/s)", "torso velocity, z (m/s)",
                     "torso angular velocity, x (rad/s)", "torso angular velocity, y (rad/s)",
                     "torso angular velocity, z (rad/s)")
    planar = ("torso height z (m)", "torso angle (rad)")
    planar_velocity = ("torso velocity, x (m/s)", "torso velocity, z (m/s)", "torso angular velocity (rad/s)")
    ant_legs = ("front-left hip", "front-left ankle", "front-right hip", "front-right ankle", "back-left hip",
                "back-left ankle", "back-right hip", "back-right ankle")
    humanoid_joints = ("abdomen_y", "abdomen_z", "abdomen_x", "right_hip_x", "right_hip_z", "right_hip_y",
                       "right_knee", "left_hip_x", "left_hip_z", "left_hip_y", "left_knee", "right_shoulder1",
                       "right_shoulder2", "right_elbow", "left_shoulder1", "left_shoulder2", "left_elbow")
    v4_humanoids = ("HumanoidV4", "HumanoidStandupV4")
    v5_humanoids = ("HumanoidV5", "HumanoidStandupV5")
    humanoid_observation = (
        xy,
        Part("torso height z (m)"),
        Part("torso orientation (quaternion w, x, y, z)", size=4),
        Part("angles of the 17 hinge joints (rad), in the model's order: abdomen z, y, x; right hip x, z, y; "
             "right knee; left hip x, z, y; left knee; right shoulder 1, 2; right elbow; left shoulder 1, 2; "
             "left elbow", size=17),
        Part("torso velocity (x, y, z; m/s) and angular velocity (x, y, z; rad/s)", size=6),
        Part("angular velocities of the 17 hinge joints (rad/s), same order", size=17),
        Part("`cinert`: mass and inertia of the 14 bodies, world body first (10 each)", size=140,
             env_types=v4_humanoids),
        Part("`cvel`: velocity of the 14 bodies, world body first (6 each: angular, then linear)", size=84,
             env_types=v4_humanoids),
        Part("`qfrc_actuator`: actuator force on the 23 degrees of freedom, the free joint's 6 first", size=23,
             env_types=v4_humanoids),
        Part("`cfrc_ext`: external (contact) force on the 14 bodies, world body first (6 each: torque, then "
             "force)", size=84, env_types=v4_humanoids),
        Part("`cinert`: mass and inertia of the 13 bodies (10 each)", size=130,
             when="include_cinert_in_observation", env_types=v5_humanoids),
        Part("`cvel`: velocity of the 13 bodies (6 each: angular, then linear)", size=78,
             when="include_cvel_in_observation", env_types=v5_humanoids),
        Part("`qfrc_actuator`: actuator force on the 17 hinge joints", size=17,
             when="include_qfrc_actuator_in_observation", env_types=v5_humanoids),
        Part("`cfrc_ext`: external (contact) force on the 13 bodies (6 each: torque, then force)", size=78,
             when="include_cfrc_ext_in_observation", env_types=v5_humanoids),
    )
    humanoid_bodies = """
The bodies, in order: (the world body, in v4 only), torso, lwaist, pelvis, right_thigh, right_shin,
right_foot, left_thigh, left_shin, left_foot, right_upper_arm, right_lower_arm, left_upper_arm,
left_lower_arm. The v5 observation leaves out the world body's rows and the free joint's actuator forces,
which are always 0.
"""
    humanoid_v5_history = (
        "the world body's `cinert`, `cvel`, `cfrc_ext` and the free joint's `qfrc_actuator` (always 0) are "
        "left out of the observation; the `include_*_in_observation` options switch each part off; "
        "`info[\"tendon_length\"]` and `info[\"tendon_velocity\"]` added"
    )
    common_v5 = "`xml_file` and `frame_skip` options; `reset()` returns the step's `info` keys"
    v4_history = "`v4`: gymnasium's MuJoCo envs on the `mujoco` bindings (mujoco >= 2.1.3) instead of mujoco-py."
    uniform = """
qpos = the model's initial pose + U(-s, s) per element and qvel = U(-s, s) per element, with
s = `reset_noise_scale`.
"""
    uniform_normal = """
qpos = the model's initial pose + U(-s, s) per element and qvel = s × N(0, 1) per element, with
s = `reset_noise_scale`.
"""
    v4_healthy = "(v4 pays it on every step while `terminate_when_unhealthy`, the terminating step included)"
    planar_termination = """
With `terminate_when_unhealthy` (the default), terminates on the step on which the {robot} becomes
unhealthy: {condition}. Otherwise it never terminates.
"""

    return FamilyDoc(
        name="mujoco",
        title="MuJoCo",
        intro="""
gymnasium 1.4's MuJoCo tasks in their `v4` and `v5` versions, simulated by the MuJoCo library of the
installed `mujoco` package with gymnasium's own XML models: `xml_file` defaults to gymnasium's asset
(`<gymnasium>` on this page is the installed gymnasium package's folder). rlpool's `v4` tasks also take
`xml_file` and `frame_skip`, which gymnasium gives only to `v5`.

One step applies the action as the actuators' controls for `frame_skip` MuJoCo steps. Observations are
float64 `Box(-inf, inf)`; actions are float32 `Box`es over the actuators' control ranges. `info` holds
gymnasium's entries for the task (positions, velocities and the reward terms).
""",
        paths=((str(gymnasium_assets()), "<gymnasium>/envs/mujoco/assets"),),
        envs=(
            EnvDoc(
                title="Ant",
                env_types=("AntV4", "AntV5"),
                summary="""
A 3-D quadruped: a torso with four two-link legs. Coordinate the eight hip and ankle torques to move
forward (+x).
""",
                actions=(Part(tuple(f"torque on the {j}" for j in ant_legs[6:] + ant_legs[:6])),),
                observation=(
                    xy,
                    Part(("torso height z (m)",) + quaternion + tuple(f"{j} angle (rad)" for j in ant_legs)),
                    Part(free_velocity + tuple(f"{j} angular velocity (rad/s)" for j in ant_legs)),
                    Part("`cfrc_ext`: contact force on the 14 bodies, world body first (6 each: torque, then force; "
                         "clipped to `contact_force_min`..`contact_force_max`)", size=84, when="use_contact_forces",
                         env_types=("AntV4",)),
                    Part("`cfrc_ext`: contact force on the 13 bodies (6 each: torque, then force; clipped to "
                         "`contact_force_min`..`contact_force_max`)", size=78,
                         when="include_cfrc_ext_in_observation", env_types=("AntV5",)),
                ),
                reward=f"""
forward + healthy - ctrl - contact, where forward is the x velocity of the torso (v5: of body
`main_body`) over the step, times `forward_reward_weight` (v5); healthy is `healthy_reward` on each
step the ant is healthy {v4_healthy}; ctrl is `ctrl_cost_weight` × Σ action²; contact is
`contact_cost_weight` × Σ clip(`cfrc_ext`, `contact_force_min`, `contact_force_max`)² (v4: only with
`use_contact_forces`).
""",
                starting_state=uniform_normal + "The torso starts 0.75 m above the ground.",
                termination=planar_termination.format(
                    robot="ant",
                    condition="a state element is not finite, or the torso height z leaves "
                    "[`healthy_z_min`, `healthy_z_max`]",
                ),
                version_history=(
                    f"`v5`: the healthy reward only on healthy steps; the contact cost always counts and "
                    f"`use_contact_forces` is gone (`include_cfrc_ext_in_observation`, on by default, and "
                    f"`contact_cost_weight` take its place); the world body's contact forces (always 0) are left "
                    f"out of the observation; `main_body` and `forward_reward_weight` options; "
                    f"`info[\"x_position\"]`/`[\"y_position\"]` from qpos, `info[\"reward_ctrl\"]` always the "
                    f"control cost, `info[\"forward_reward\"]` removed; {common_v5}.",
                    v4_history + " Contact forces left out of the default observation (`use_contact_forces=True` "
                    "puts them back).",
                ),
            ),
            EnvDoc(
                title="HalfCheetah",
                env_types=("HalfCheetahV4", "HalfCheetahV5"),
                summary="""
A 2-D cat-like robot: a torso with a back and a front leg (thigh, shin, foot). Run forward (+x) as fast as
possible.
""",
                actions=(
                    Part(tuple(f"torque on the {j}" for j in (
                        "back thigh", "back shin", "back foot", "front thigh", "front shin", "front foot"))),
                ),
                observation=(
                    x,
                    Part(planar + tuple(f"{j} angle (rad)" for j in (
                        "back thigh", "back shin", "back foot", "front thigh", "front shin", "front foot"))),
                    Part(planar_velocity + tuple(f"{j} angular velocity (rad/s)" for j in (
                        "back thigh", "back shin", "back foot", "front thigh", "front shin", "front foot"))),
                ),
                reward="""
`forward_reward_weight` × the torso's x velocity over the step - `ctrl_cost_weight` × Σ action².
""",
                starting_state=uniform_normal,
                termination="Never terminates.",
                version_history=(
                    f"`v5`: `info[\"reward_run\"]` renamed `info[\"reward_forward\"]`; {common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="Hopper",
                env_types=("HopperV4", "HopperV5"),
                summary="""
A 2-D one-legged robot: torso, thigh, leg and foot. Hop forward (+x) without falling over.
""",
                actions=(Part(tuple(f"torque on the {j} joint" for j in ("thigh", "leg", "foot"))),),
                observation=(
                    x,
                    Part(planar + tuple(f"{j} joint angle (rad)" for j in ("thigh", "leg", "foot"))),
                    Part(planar_velocity + tuple(f"{j} joint angular velocity (rad/s)"
                                                 for j in ("thigh", "leg", "foot"))),
                ),
                observation_text="The velocities are clipped to [-10, 10].",
                reward=f"""
`forward_reward_weight` × the torso's x velocity over the step + `healthy_reward` on each healthy step
{v4_healthy} - `ctrl_cost_weight` × Σ action².
""",
                starting_state=uniform,
                termination=planar_termination.format(
                    robot="hopper",
                    condition="an element of (qpos, qvel)[2:] leaves (`healthy_state_min`, `healthy_state_max`), "
                    "the torso height z leaves (`healthy_z_min`, `healthy_z_max`) or the torso angle leaves "
                    "(`healthy_angle_min`, `healthy_angle_max`)",
                ),
                version_history=(
                    "`v5`: the healthy reward only on healthy steps; the reward terms and "
                    f"`info[\"z_distance_from_origin\"]` in `info`; {common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="Walker2d",
                env_types=("Walker2dV4", "Walker2dV5"),
                summary="""
A 2-D two-legged robot: a torso with two legs (thigh, leg, foot). Walk forward (+x) without falling over.
""",
                actions=(
                    Part(tuple(f"torque on the {j} joint" for j in (
                        "right thigh", "right leg", "right foot", "left thigh", "left leg", "left foot"))),
                ),
                observation=(
                    x,
                    Part(planar + tuple(f"{j} joint angle (rad)" for j in (
                        "right thigh", "right leg", "right foot", "left thigh", "left leg", "left foot"))),
                    Part(planar_velocity + tuple(f"{j} joint angular velocity (rad/s)" for j in (
                        "right thigh", "right leg", "right foot", "left thigh", "left leg", "left foot"))),
                ),
                observation_text="The velocities are clipped to [-10, 10].",
                reward=f"""
`forward_reward_weight` × the torso's x velocity over the step + `healthy_reward` on each healthy step
{v4_healthy} - `ctrl_cost_weight` × Σ action².
""",
                starting_state=uniform,
                termination=planar_termination.format(
                    robot="walker",
                    condition="the torso height z leaves (`healthy_z_min`, `healthy_z_max`) or the torso angle "
                    "leaves (`healthy_angle_min`, `healthy_angle_max`)",
                ),
                version_history=(
                    "`v5`: both feet have friction 1.9 (`walker2d_v5.xml`; v4's right foot has 0.9), so the right "
                    "foot slides less; the healthy reward only on healthy steps; the reward terms and "
                    f"`info[\"z_distance_from_origin\"]` in `info`; {common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="Swimmer",
                env_types=("SwimmerV4", "SwimmerV5"),
                summary="""
A three-segment swimmer in a viscous fluid, driven by its two joints. Swim forward (+x).
""",
                actions=(Part(("torque on the first joint", "torque on the second joint")),),
                observation=(
                    Part(("x of the front tip (m)", "y of the front tip (m)"),
                         unless="exclude_current_positions_from_observation"),
                    Part(("front tip angle (rad)", "first joint angle (rad)", "second joint angle (rad)")),
                    Part(("front tip velocity, x (m/s)", "front tip velocity, y (m/s)",
                          "front tip angular velocity (rad/s)", "first joint angular velocity (rad/s)",
                          "second joint angular velocity (rad/s)")),
                ),
                reward="`forward_reward_weight` × the x velocity over the step - `ctrl_cost_weight` × Σ action².",
                starting_state=uniform,
                termination="Never terminates.",
                version_history=(
                    "`v5`: `info[\"reward_fwd\"]` and `info[\"forward_reward\"]` replaced by "
                    f"`info[\"reward_forward\"]`; {common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="Humanoid",
                env_types=("HumanoidV4", "HumanoidV5"),
                summary="""
A 3-D humanoid: torso, abdomen, pelvis, two legs and two arms. Walk forward (+x) without falling.
""",
                actions=(Part(tuple(f"torque on joint `{j}`" for j in humanoid_joints)),),
                observation=humanoid_observation,
                observation_text=humanoid_bodies,
                reward=f"""
forward + healthy - ctrl - contact, where forward is `forward_reward_weight` × the x velocity of the
centre of mass over the step; healthy is `healthy_reward` on each healthy step {v4_healthy}; ctrl is
`ctrl_cost_weight` × Σ action²; contact (v5 only) is `contact_cost_weight` × Σ `cfrc_ext`², clipped to
[`contact_cost_min`, `contact_cost_max`].
""",
                starting_state=uniform + "The torso starts 1.4 m above the ground.",
                termination=planar_termination.format(
                    robot="humanoid",
                    condition="the torso height z leaves (`healthy_z_min`, `healthy_z_max`)",
                ),
                version_history=(
                    "`v5`: the healthy reward only on healthy steps; the contact cost is back (as in v3) with "
                    f"`contact_cost_weight` and its range; {humanoid_v5_history}; `info[\"x_position\"]`/"
                    "`[\"y_position\"]` from qpos; `info` renames: `reward_alive` to `reward_survive`, "
                    "`reward_linvel` to `reward_forward`, `reward_quadctrl` to `reward_ctrl`, "
                    f"`forward_reward` removed; {common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="HumanoidStandup",
                env_types=("HumanoidStandupV4", "HumanoidStandupV5"),
                summary="""
The Humanoid, lying on the ground. Stand up, and stay up.
""",
                actions=(Part(tuple(f"torque on joint `{j}`" for j in humanoid_joints)),),
                observation=humanoid_observation,
                observation_text=humanoid_bodies,
                reward="""
up - ctrl - impact + 1, where up is `uph_cost_weight` × the torso height z divided by MuJoCo's timestep
(0.003 s); ctrl is `ctrl_cost_weight` × Σ action²; impact is `impact_cost_weight` × Σ `cfrc_ext`²,
clipped to [`impact_cost_min`, `impact_cost_max`]. v4 takes no reward options and uses v5's defaults.
""",
                starting_state=uniform + "(v4: s = 0.01.) The humanoid lies on the ground.",
                termination="Never terminates.",
                notes="""
gymnasium's `HumanoidStandup-v5` (1.0 to 1.4) accepts `uph_cost_weight` but never applies it; rlpool applies
it, which is the same at its default of 1.
""",
                version_history=(
                    f"`v5`: {humanoid_v5_history}; options for the reward weights (`uph_cost_weight`, "
                    "`ctrl_cost_weight`, `impact_cost_weight` and its range) and `reset_noise_scale`; "
                    "`info[\"x_position\"]`, `[\"y_position\"]` and `[\"z_distance_from_origin\"]` added; "
                    f"{common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="InvertedPendulum",
                env_types=("InvertedPendulumV4", "InvertedPendulumV5"),
                summary="""
A pole on a cart that slides on a rail (MuJoCo's CartPole). Push the cart to keep the pole upright.
""",
                actions=(Part(("force on the cart",)),),
                observation=(
                    Part(("cart position (m)", "pole angle (rad)", "cart velocity (m/s)",
                          "pole angular velocity (rad/s)")),
                ),
                reward="+1 per step (v5: 0 on the terminating step).",
                starting_state=uniform + "(v4: s = 0.01.)",
                termination="Terminates when the pole angle leaves [-0.2, 0.2] rad or the observation is not finite.",
                version_history=(
                    "`v5`: no reward on the terminating step; `reset_noise_scale` option; "
                    f"`info[\"reward_survive\"]`; {common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="InvertedDoublePendulum",
                env_types=("InvertedDoublePendulumV4", "InvertedDoublePendulumV5"),
                summary="""
Two poles, one on top of the other, on a cart that slides on a rail. Push the cart to keep both upright.
""",
                actions=(Part(("force on the cart",)),),
                observation=(
                    Part(("cart position (m)", "sine of the first pole's angle", "sine of the second pole's angle "
                          "(relative to the first)", "cosine of the first pole's angle",
                          "cosine of the second pole's angle", "cart velocity (m/s)",
                          "first pole's angular velocity (rad/s)", "second pole's angular velocity (rad/s)",
                          "constraint force on the cart")),
                    Part(("constraint force on the first hinge", "constraint force on the second hinge"),
                         env_types=("InvertedDoublePendulumV4",)),
                ),
                observation_text="The velocities and constraint forces are clipped to [-10, 10].",
                reward="""
alive - distance - velocity, where alive is `healthy_reward` (v4: 10) on each step (v5: not on the
terminating one); distance is 0.01 x² + (y - 2)² for the tip (x, y) of the second pole; velocity is
0.001 ω1² + 0.005 ω2² for the poles' angular velocities.
""",
                starting_state=uniform_normal + "(v4: s = 0.1.)",
                termination="Terminates when the tip of the second pole is at height y <= 1.",
                version_history=(
                    "`v5`: no alive bonus on the terminating step; the hinges' constraint forces (always 0) left "
                    "out of the observation; `healthy_reward` and `reset_noise_scale` options; the reward terms in "
                    f"`info`; {common_v5}.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="Pusher",
                env_types=("PusherV4", "PusherV5"),
                summary="""
A seven-joint arm (modelled on a PR2's) must push a cylinder across a table to a goal position.
""",
                actions=(
                    Part(tuple(f"torque on the {j}" for j in (
                        "shoulder pan joint", "shoulder lift joint", "upper arm roll joint", "elbow flex joint",
                        "forearm roll joint", "wrist flex joint", "wrist roll joint"))),
                ),
                observation=(
                    Part(tuple(f"{j} angle (rad)" for j in (
                        "shoulder pan", "shoulder lift", "upper arm roll", "elbow flex", "forearm roll", "wrist flex",
                        "wrist roll"))),
                    Part(tuple(f"{j} angular velocity (rad/s)" for j in (
                        "shoulder pan", "shoulder lift", "upper arm roll", "elbow flex", "forearm roll", "wrist flex",
                        "wrist roll"))),
                    Part(("fingertip x (m)", "fingertip y (m)", "fingertip z (m)", "object x (m)", "object y (m)",
                          "object z (m)", "goal x (m)", "goal y (m)", "goal z (m)")),
                ),
                reward="""
-`reward_dist_weight` × ‖object - goal‖ - `reward_near_weight` × ‖object - fingertip‖ -
`reward_control_weight` × Σ action². v4 takes no weight options (it uses these defaults) and measures the
distances before the step's simulation, v5 after it.
""",
                starting_state="""
The arm in the model's initial pose; the object uniform in [-0.3, 0] × [-0.2, 0.2], more than 0.17 from the
goal at the origin; velocities U(-0.005, 0.005), the object's and the goal's 0.
""",
                termination="Never terminates.",
                notes="""
gymnasium refuses `Pusher-v4` on MuJoCo >= 3 (its `pusher.xml` behaves differently there, Gymnasium issue
950); rlpool runs v4's rules on the MuJoCo it is built with, so v4 episodes differ from ones recorded on
MuJoCo 2.
""",
                version_history=(
                    "`v5`: the object is denser than air (`pusher_v5.xml`); the distances are measured after the "
                    "step; `reward_near_weight`, `reward_dist_weight` and `reward_control_weight` options; "
                    "`info[\"reward_ctrl\"]` weighted and `info[\"reward_near\"]` added; `xml_file` and "
                    "`frame_skip` options.",
                    v4_history,
                ),
            ),
            EnvDoc(
                title="Reacher",
                env_types=("ReacherV4", "ReacherV5"),
                summary="""
A two-link arm in a plane, fixed at one end. Move the fingertip to a randomly placed target.
""",
                actions=(Part(("torque on the first joint (at the fixed end)", "torque on the second joint")),),
                observation=(
                    Part(("cosine of the first link's angle", "cosine of the second link's angle",
                          "sine of the first link's angle", "sine of the second link's angle",
                          "target x (m)", "target y (m)", "first joint angular velocity (rad/s)",
                          "second joint angular velocity (rad/s)", "fingertip - target, x (m)",
                          "fingertip - target, y (m)")),
                    Part(("fingertip - target, z (m; always 0)",), env_types=("ReacherV4",)),
                ),
                reward="""
-`reward_dist_weight` × ‖fingertip - target‖ - `reward_control_weight` × Σ action². v4 measures the
distance before the step's simulation, v5 after it; v4 takes no weight options (it uses these defaults).
""",
                starting_state="""
The joint angles U(-0.1, 0.1) around the initial pose; the target uniform in the disc of radius 0.2 around
the origin; the joint velocities U(-0.005, 0.005), the target's 0.
""",
                termination="Never terminates.",
                version_history=(
                    "`v5`: the distance is measured after the step; the fingertip-target z (always 0) left out of "
                    "the observation; `reward_dist_weight` and `reward_control_weight` options; "
                    "`info[\"reward_ctrl\"]` weighted; `xml_file` and `frame_skip` options.",
                    v4_history,
                ),
            ),
        ),
    )
