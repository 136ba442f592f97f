"""The hand-written reference text of the classic control family (``docs/envs/classic_control.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/classic_control.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="classic_control",
        title="Classic control",
        intro="""
The classic control problems of gymnasium 1.4, computed step for step as gymnasium's numpy code computes
them (same ids, limits and reward thresholds). Observations are float32; continuous actions are float32
`Box`es, as gymnasium declares them. With `render_mode="rgb_array"` each draws gymnasium's pygame picture,
pixel for pixel (pygame's own drawing arithmetic, in C++).
""",
        envs=(
            EnvDoc(
                title="CartPole",
                env_types=("CartPole",),
                summary="""
A pole stands on a hinge on top of a cart that moves along a frictionless track; push the cart left or
right to keep the pole upright (Barto, Sutton & Anderson, 1983).
""",
                actions=(
                    Part(("push the cart to the left (force -10 N)", "push the cart to the right (force +10 N)")),
                ),
                observation=(
                    Part(("cart position (m)", "cart velocity (m/s)", "pole angle (rad, 0 is upright)",
                          "pole angular velocity (rad/s)")),
                ),
                observation_text="""
The bounds are twice the termination limits; an episode ends well before the cart or the pole gets there.
""",
                reward="""
+1 for every step, the terminating one included. With `sutton_barto_reward=True`: 0 for every step that
does not terminate and -1 for the one that does.
""",
                starting_state="All four observation elements uniform in [-0.05, 0.05].",
                termination="""
Terminates when the pole angle leaves ±12° (±0.2095 rad) or the cart position leaves ±2.4 (the cart's
centre reaches the edge of the display).
""",
                version_history=(
                    "`v1`: time limit 500 steps and reward threshold 475 (`v0`: 200 and 195). "
                    "gymnasium 1.0 added the `sutton_barto_reward` option (to both).",
                    "`v0`: the first version.",
                ),
            ),
            EnvDoc(
                title="MountainCar",
                env_types=("MountainCar",),
                summary="""
A car sits at the bottom of a sinusoidal valley; its engine is too weak to drive up the right-hand hill
directly, so it must rock back and forth to reach the flag on top (Moore, 1990).
""",
                actions=(Part(("accelerate to the left", "do not accelerate", "accelerate to the right")),),
                observation=(Part(("car position along the x-axis", "car velocity")),),
                reward="-1 for every step.",
                starting_state="Position uniform in [-0.6, -0.4], velocity 0.",
                termination="""
Terminates when the position reaches the flag at 0.5 with velocity >= `goal_velocity`. The left edge
(-1.2) is a wall: the car stops there.
""",
                version_history=("`v0`: the first version.",),
            ),
            EnvDoc(
                title="MountainCarContinuous",
                env_types=("MountainCarContinuous",),
                summary="""
MountainCar with a continuous engine force: the same valley, with a reward that pays for reaching the
flag and charges for the energy spent.
""",
                actions=(Part(("engine force, scaled by 0.0015 (clipped to [-1, 1])",)),),
                observation=(Part(("car position along the x-axis", "car velocity")),),
                reward="""
-0.1 × action² for every step (the action as given, before clipping), plus 100 on the step that reaches
the flag.
""",
                starting_state="Position uniform in [-0.6, -0.4], velocity 0.",
                termination="""
Terminates when the position reaches the flag at 0.45 with velocity >= `goal_velocity`. The left edge
(-1.2) is a wall: the car stops there.
""",
                version_history=("`v0`: the first version.",),
            ),
            EnvDoc(
                title="Pendulum",
                env_types=("Pendulum",),
                summary="""
A pendulum hangs from a frictionless pivot; apply torque to swing it up and hold it upright.
""",
                actions=(Part(("torque on the free end (N m)",)),),
                observation=(
                    Part(("x = cos(θ) of the pendulum angle θ (0 is upright)", "y = sin(θ)",
                          "angular velocity (rad/s)")),
                ),
                reward="""
-(θ² + 0.1 × θ'² + 0.001 × torque²), with θ normalised to [-π, π]: 0 upright and still, about -16.27 at
worst.
""",
                starting_state="θ uniform in [-π, π], angular velocity uniform in [-1, 1].",
                termination="Never terminates.",
                version_history=(
                    "`v1`: the equations are written more simply; the behaviour is the same as `v0`'s.",
                    "`v0`: the first version.",
                ),
            ),
            EnvDoc(
                title="Acrobot",
                env_types=("Acrobot",),
                summary="""
Two links hang in a chain from a fixed pivot; only the joint between them is actuated. Swing the free end
above a line one link length over the pivot (Sutton, 1996; the book's dynamics, no torque noise).
""",
                actions=(Part(("torque -1 on the joint between the links", "torque 0", "torque +1")),),
                observation=(
                    Part(("cos(θ1), θ1 the angle of the first link (0 is hanging down)", "sin(θ1)",
                          "cos(θ2), θ2 the angle of the second link relative to the first", "sin(θ2)",
                          "angular velocity of θ1 (rad/s)", "angular velocity of θ2 (rad/s)")),
                ),
                reward="-1 for every step that does not terminate, 0 for the one that does.",
                starting_state="θ1, θ2 and both angular velocities uniform in [-0.1, 0.1].",
                termination="Terminates when -cos(θ1) - cos(θ1 + θ2) > 1: the free end is above the line.",
                version_history=(
                    "`v1`: time limit 500 steps (`v0`: 200); the observation has the sine and cosine of each "
                    "angle (`v0`: the angles themselves).",
                    "`v0`: the first version.",
                ),
            ),
        ),
    )
