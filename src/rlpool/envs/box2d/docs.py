"""The hand-written reference text of the Box2D family (``docs/envs/box2d.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool import _rlpool_core
from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part

INTRO = """
gymnasium 1.4's Box2D tasks, on Box2D 2.3 itself: rlpool's build compiles Box2D's C++ sources from the
box2d-py source distribution on PyPI (fetched by name and version, its sha256 checked), the same Box2D
that gymnasium's `box2d` wheel wraps. The task logic is C++ and follows gymnasium's Python step for step:
the world is built in the same order, and the float64 arithmetic between Box2D's float32 values is the
same, so that from the same random draws rlpool and gymnasium give the same episodes
(tests/envs/box2d/ checks them side by side). No pygame and no OpenCV are involved.

With `render_mode="rgb_array"` each task draws gymnasium's pygame picture in C++, with pygame's own
drawing arithmetic: LunarLander's and BipedalWalker's 600×400 frames are bitwise equal to gymnasium's,
CarRacing's 600×400 frame too except for the score digits (tests/envs/box2d/test_render_box2d.py).

Every random draw of an episode (terrain, initial push, engine dispersion, track) comes from the env's
own generator, seeded from the pool's at each reset. `get_state(env_id)` returns that generator's words at
the episode's start and the actions taken since; `set_state` rebuilds the world and replays them, which
gives back the exact world (contacts and solver warm starts included, which Box2D cannot set from
outside) and the generator where it was. A state costs 8 bytes per action element per step, and a
restore one step of work per step replayed.
"""

LUNAR_LANDER = EnvDoc(
    title="LunarLander",
    env_types=("LunarLander",),
    summary="""
Land a rocket on the pad between the two flags: fire the main engine or one of the two side engines
(discrete), or throttle the main and lateral engines (continuous). The landing pad is always at (0, 0);
the terrain around it is random.
""",
    actions=(
        Part(("do nothing", "fire the left orientation engine", "fire the main engine",
              "fire the right orientation engine"), unless="continuous"),
        Part(("main engine throttle: off below 0, 50 % to 100 % power from 0 to 1",
              "lateral: below -0.5 fires the left engine, above 0.5 the right one, 50 % to 100 % power"),
             when="continuous"),
    ),
    observation=(
        Part(("x, relative to the pad (1 is the edge of the screen)", "y, relative to the pad",
              "x velocity", "y velocity", "angle (rad)", "angular velocity (0.4 rad/s units)",
              "left leg touches the ground (1 or 0)", "right leg touches the ground (1 or 0)")),
    ),
    observation_text="The `-v2` ids declare the first six elements unbounded, as EnvPool 1.2.5 does.",
    reward="""
The change of a shaping value (closer to the pad, slower, more level, legs touching: 10 points per leg)
from the previous step, minus 0.3 per step of main engine (times its power) and 0.03 per step of a side
engine; -100 on a crash or leaving the screen, +100 on coming to rest.
""",
    starting_state="""
The lander starts at the top centre with a random push (each force component uniform in ±1000); the
terrain's 11 heights are uniform in [0, H/2] around a flat pad. The reset observation is that of a first
step with no engine fired, as gymnasium's is. With wind, the wind and turbulence phases are uniform
integers in [-9999, 9999).
""",
    termination="""
Terminates when the lander's body touches the ground (crash), its x leaves the screen (|x| >= 1), or it
comes to rest (Box2D puts it to sleep).
""",
    notes="""
`enable_wind` pushes the lander with a wind force of `wind_power` × tanh(sin(0.02 k) + sin(0.01 π k)) and
a turbulence torque of the same form (`turbulence_power`) while both legs are off the ground. Engine
impulses carry gymnasium's dispersion (two uniform draws per step).

An env made to render (`render_mode` set) adds gymnasium's flame particles to its world, small discs that
touch only the ground and leave the lander's physics unchanged; each frame drawn ages them, as in
gymnasium. A state restored by `set_state` replays steps, not frames: its particles are as young as if no
frame had been drawn in the episode.
""",
    version_history=(
        "`v3` (gymnasium 1.0): the wind phases are drawn at every reset; the world is rebuilt at every reset; "
        "the observation bounds widened (±2.5 position, ±10 velocity, ±2π angle).",
        "`v2` (EnvPool 1.2.5's id): rlpool runs it with `v3`'s dynamics (wind phases drawn at every reset, "
        "where gym's `v2` kept them across episodes) and EnvPool's unbounded observation space.",
    ),
)

BIPEDAL_WALKER = EnvDoc(
    title="BipedalWalker",
    env_types=("BipedalWalker",),
    summary="""
A two-legged robot walks to the end of a rough terrain: four motors drive its hips and knees. With
`hardcore`, the terrain also has stumps, stairs and pits.
""",
    actions=(Part(("hip 1 motor speed and torque", "knee 1", "hip 2", "knee 2")),),
    observation=(
        Part(("hull angle", "hull angular velocity", "horizontal velocity", "vertical velocity",
              "hip 1 angle", "hip 1 speed", "knee 1 angle", "knee 1 speed", "leg 1 touches the ground",
              "hip 2 angle", "hip 2 speed", "knee 2 angle", "knee 2 speed", "leg 2 touches the ground")),
        Part("lidar: the fraction of each of 10 rays' range to the first terrain hit", size=10),
    ),
    reward="""
The change from the previous step of a shaping value, 130 × (hull x in metres) / 30 − 5 × |hull angle|,
minus 0.00035 × 80 × |action| (clipped to 1) per motor; -100 when the hull touches the ground or the
walker leaves the left end.
""",
    starting_state="""
The walker stands at the start of a random terrain; its hull gets a random horizontal push (uniform in
±5). The reset observation is that of a first step with zero action, as gymnasium's is.
""",
    termination="""
Terminates when the hull touches the ground or the walker leaves the left end (reward -100), or it
reaches the far end of the terrain.
""",
    notes="""
gymnasium keeps one Box2D world for the life of an env and destroys the bodies at each reset; the
broad phase then recycles its proxy ids, which changes the order of contacts, so gymnasium's later
episodes depend (slightly) on the ones before. rlpool builds a fresh world for every episode: each is
gymnasium's first episode from the same draws.

The rendered frame shows one lidar ray, turning with each frame drawn, as gymnasium's does (after
`set_state`, from the first ray again).
""",
    version_history=(
        "`v3`: the lidar reports the closest hit.",
    ),
)

CAR_RACING = EnvDoc(
    title="CarRacing",
    env_types=("CarRacing",),
    summary="""
Drive a car around a random race track seen from above, from pixels: the 96×96 RGB frame that gymnasium's
`state_pixels` rendering gives, drawn by rlpool's C++ code.
""",
    actions=(
        Part(("steering, -1 is full left", "gas", "brake"), when="continuous"),
        Part(("do nothing", "steer right", "steer left", "gas (0.2)", "brake (0.8)"), unless="continuous"),
    ),
    observation=(Part("pixel rows × columns × RGB of the top-down view with the indicator bar", size=0),),
    reward="""
-0.1 for every step, plus 1000 / N for each of the track's N tiles when the car first drives over it;
-100 when the car leaves the playfield.
""",
    starting_state="""
A random track (checkpoints at random angles and radii, retried until a closed loop forms); the car
starts on the first tile. With `domain_randomize`, the background, grass and road colours are random.
""",
    termination="""
Terminates when the car has visited every tile and drives over the first tile again (a lap), or leaves
the playfield (reward -100). In gymnasium 1.4 `lap_complete_percent` never takes effect: a lap can end
early only on the first visit to the first tile, and the rear wheels already touch it at reset; rlpool
does the same.
""",
    notes="""
The frame is gymnasium's `state_pixels` image computed as pygame computes it: the 1000×800 window's
polygons (pygame's filled and anti-aliased polygon rules, in its integer arithmetic) shrunk to 96×96 with
`smoothscale`'s fixed-point filter. Only the score digits gymnasium writes with pygame's bundled font at
the bottom left are not drawn (about 0.5 % of the pixels, rows 87-91); every other pixel equals
gymnasium's. `render_mode="rgb_array"` draws gymnasium's 600×400 video frame the same way (the window
with the car's skid marks, shrunk with `smoothscale`): all pixels but the score digits' (about 0.3 %)
equal gymnasium's.
""",
    version_history=(
        "`v3` (gymnasium 1.0's id): finishing the lap terminates the episode.",
        "`v2` (EnvPool 1.2.5's id): rlpool runs it with `v3`'s rules.",
    ),
)


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/box2d.md; an env whose C++ type is not in this build is left out."""
    compiled = {name for name, _, _ in _rlpool_core.env_types()}
    envs = tuple(e for e in (LUNAR_LANDER, BIPEDAL_WALKER, CAR_RACING) if set(e.env_types) <= compiled)
    return FamilyDoc(name="box2d", title="Box2D", intro=INTRO, envs=envs)
