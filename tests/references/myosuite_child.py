"""The MyoSuite reference's side of the comparisons: myosuite 2.11.6's own envs, in a virtualenv of their own.

Run by ``myosuite_reference.py`` with a reference virtualenv's Python (which has no rlpool); it answers one
JSON line per request line on stdin/stdout (``{"ok": ...}`` or ``{"error": ...}``). Requests:

- ``make``: ``gym.make`` of a myosuite id (``import myosuite`` registers them into gymnasium); answers the
  dimensions, horizon, ``obs_keys``, ``rwd_keys_wt``, the rwd_dict's terms in order, the model's sizes, the
  observation space's bounds and the MuJoCo version.
- ``reset``: with the four words rlpool's env seeded its generator with: ``env.unwrapped.np_random`` and
  the robot's generator (``Robot.np_random``, which ``MujocoEnv._setup`` binds to the env's) become one
  ``xoshiro.XoshiroGenerator`` of those words, so myosuite's reset draws what rlpool's env draws. myosuite
  ignores ``reset(seed=...)``. Answers the observation and the reset's rwd_dict, computed as
  ``MujocoEnv._forward`` (myosuite/envs/env_base.py) computes a step's: ``expand_dims(obs_dict)``,
  ``get_reward_dict(obs_dict)``, ``squeeze_dims`` (myosuite's reset itself computes none).
- ``step``: a float32 action, passed unclipped (``BaseV0.step`` does not clip); answers the observation,
  reward, terminated, truncated, every rwd_dict entry and the info's time, solved, done, rwd_dense, rwd_sparse.
- ``state``: the simulation state (time, qpos, qvel, act, ctrl, qacc_warmstart, mocap), the model's
  site_pos, body_pos, body_mass, and the fatigue model's MA, MR, MF where the id has one.
- ``set_state``: the reverse of ``state``'s simulation part (time, qpos, qvel, act, ctrl, qacc_warmstart,
  mocap), written into the data as they are, no forward (as rlpool's ``set_state`` does).
- ``resets``: many resets drawing from ``np.random.default_rng(seed)``, for the distribution tests.
- ``render``: an offscreen frame of myosuite's free camera (``MJRenderer.render_offscreen``), base64.

Floats travel as JSON numbers, which round-trip float64 exactly (float32 observations as their float64 values).

MuJoCo after 3.3.0 lacks two MjSpec calls myosuite 2.11.6 makes; ``_shim_mjspec`` adds them, only where the
installed MuJoCo lacks them (MuJoCo 3.3.0, the pinned reference, runs myosuite's code as it is):

- ``MjSpec.detach_body(body)`` (myosuite/envs/myo/myoedits/__init__.py ``edit_fn_arm_reaching``, used by the
  myoArmReach ids; utils/spec_processing.py) becomes ``MjSpec.delete(body)``; 3.3.0's detach of the digits
  also dropped the actuators APL and OP (32 actuators there), so the arm edit deletes those two as well.
- ``Mjs*.delete()`` on spec elements (myochallenge/tabletennis_v0.py ``_preprocess_spec``) becomes
  ``spec.delete(element)`` on the spec that holds the element: every spec made by ``MjSpec.from_file``,
  ``from_string`` or ``copy`` is remembered, and the newest one that accepts the element deletes it.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import types
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from xoshiro import XoshiroGenerator  # noqa: E402

warnings.simplefilter("ignore")
os.environ.setdefault("MUJOCO_GL", "osmesa")
# myosuite prints (its credits, "Resetting ...") to stdout: the answers take a copy of stdout's descriptor,
# and stdout itself, Python's and the C libraries', goes to stderr.
_ANSWERS = os.fdopen(os.dup(1), "w")
sys.stdout.flush()
os.dup2(2, 1)
sys.stdout = sys.stderr

import mujoco  # noqa: E402

_SPECS: list[Any] = []
"""The specs made since the shims were put in, newest last (for ``_delete_element``)."""


def _remember(spec: Any) -> Any:
    _SPECS.append(spec)
    del _SPECS[:-64]  # a child makes a handful; the oldest are long compiled
    return spec


def _delete_element(element: Any) -> None:
    """``Mjs*.delete()`` of MuJoCo 3.3.0: delete ``element`` from the spec that holds it."""
    for spec in reversed(_SPECS):
        try:
            spec.delete(element)
        except ValueError:  # "element is not in this model": another spec's
            continue
        return
    raise ValueError(f"{type(element).__name__}.delete(): no spec made here holds this element")


def _shim_mjspec() -> list[str]:
    """Put in the MjSpec calls myosuite 2.11.6 makes that this MuJoCo lacks; the names of those put in."""
    shimmed = []
    if not hasattr(mujoco.MjSpec, "detach_body"):
        mujoco.MjSpec.detach_body = lambda self, body: self.delete(body)
        shimmed.append("MjSpec.detach_body")
    if not hasattr(mujoco.MjsSensor, "delete"):  # MuJoCo 3.3.0's elements have it (its MjsDefault and a few others not)
        lacking = [getattr(mujoco, name) for name in dir(mujoco)
                   if name.startswith("Mjs") and isinstance(getattr(mujoco, name), type)
                   and not hasattr(getattr(mujoco, name), "delete")]
        from_file, from_string, copy = mujoco.MjSpec.from_file, mujoco.MjSpec.from_string, mujoco.MjSpec.copy
        mujoco.MjSpec.from_file = staticmethod(lambda *a, **k: _remember(from_file(*a, **k)))
        mujoco.MjSpec.from_string = staticmethod(lambda *a, **k: _remember(from_string(*a, **k)))
        mujoco.MjSpec.copy = lambda self: _remember(copy(self))
        for cls in lacking:
            cls.delete = _delete_element
        shimmed.append("Mjs*.delete")
    return shimmed


SHIMMED = _shim_mjspec()

import myosuite  # noqa: E402, F401  (registers the ids into gymnasium)
from myosuite.utils import gym  # noqa: E402


def _arm_edit_as_330s() -> None:
    """With the detach_body shim, the arm edit also deletes APL and OP, as 3.3.0's detach_body did."""
    from myosuite.envs.myo.myoedits.model_editor import ModelEditor

    edit = ModelEditor.edit_model

    def edit_model(self: Any, edit_fn: Any = None) -> None:
        edit(self, edit_fn)
        if edit_fn is not None and edit_fn.__name__ == "edit_fn_arm_reaching":
            for name in ("APL", "OP"):
                self.spec.delete(self.spec.actuator(name))

    ModelEditor.edit_model = edit_model


if "MjSpec.detach_body" in SHIMMED:
    _arm_edit_as_330s()


class _NumpyDrawingFrom(types.ModuleType):
    """numpy, but for ``random.uniform``, which draws from the Session's current generator."""

    def __init__(self, session: Any) -> None:
        super().__init__("numpy")
        self.random = types.SimpleNamespace(
            uniform=lambda low=0.0, high=1.0, size=None: session.u.np_random.uniform(low, high, size))

    def __getattr__(self, name: str) -> Any:
        return getattr(np, name)


def _track_noise_from(session: Any) -> None:
    """RunTrack's rough track draws its noise from numpy's global generator (heightfields.py,
    TrackField._compute_rough_track, the file's only ``np.random`` call): here from the env's, as rlpool's env
    draws it from its own, in the same place of its draws."""
    import myosuite.envs.heightfields as heightfields

    heightfields.np = _NumpyDrawingFrom(session)


def _floats(x: Any) -> list[float]:
    return [float(v) for v in np.asarray(x, dtype=np.float64).ravel()]


def _terms(rwd_dict: dict[str, Any]) -> dict[str, float]:
    """Each rwd_dict entry as one float (bools as 0/1), in the dict's order."""
    return {k: float(np.asarray(v, dtype=np.float64).reshape(-1)[0]) for k, v in rwd_dict.items()}


def _baoding_targets_as_rlpools(u: Any) -> None:
    """Baoding's target sites before the first reset, as rlpool's env has them.

    myosuite moves the targets before each step, so a reset's observation shows the targets of the step before;
    before the first reset those come from _setup's draws of the env's construction seed, which no one can
    give rlpool. rlpool starts from the radii ranges' middles at angle 0 (exact for P1, whose ranges are single
    values); the reference is put there too.
    """
    xr = (u.goal_xrange[0] + u.goal_xrange[1]) / 2
    yr = (u.goal_yrange[0] + u.goal_yrange[1]) / 2
    site_pos = u.sim.model.site_pos
    for sid, angle in ((u.target1_sid, np.pi / 4), (u.target2_sid, np.pi / 4 - np.pi)):
        site_pos[sid, 0] = xr * np.cos(angle) + u.center_pos[0]
        site_pos[sid, 1] = yr * np.sin(angle) + u.center_pos[1]


def _opponents_as_rlpools(u: Any) -> None:
    """ChaseTag's opponent and Soccer's goalkeeper before the first reset, as rlpool's env has them.

    A reset's observation shows the opponent's velocity of the step before, and Soccer's first episode scales
    the goalkeeper's noise by the block speed of the episode before: before the first reset both come from the
    env's construction (its seed), which no one can give rlpool. rlpool starts them at rest and at the middle of
    ``random_vel_range``; the reference is put there too.
    """
    for name in ("opponent", "goalkeeper"):
        if hasattr(u, name):
            setattr(getattr(u, name), f"{name}_vel", np.zeros(2))
    if hasattr(u, "goalkeeper"):
        u.goalkeeper.block_velocity = sum(u.goalkeeper.random_vel_range) / 2


class Session:
    """One reference env and the requests on it."""

    def __init__(self) -> None:
        self.env: Any = None
        self.task = ""
        self.width, self.height = 480, 480

    @property
    def u(self) -> Any:
        """The myosuite env under gymnasium's wrappers."""
        return self.env.unwrapped

    def make(self, task: str, render: bool = False, width: int = 480, height: int = 480) -> dict[str, Any]:
        """``gym.make(task)`` (myosuite's registry: kwargs, horizon); its dimensions, keys, sizes and bounds."""
        env = gym.make(task)
        self.env, self.task, self.width, self.height = env, task, width, height
        u = self.u
        m = u.sim.model
        if hasattr(u, "target1_sid") and hasattr(u, "goal_xrange"):
            _baoding_targets_as_rlpools(u)
        _opponents_as_rlpools(u)
        space = env.observation_space
        return {
            "obs_dim": int(space.shape[0]), "action_dim": int(env.action_space.shape[0]),
            "horizon": int(env.spec.max_episode_steps), "obs_keys": list(u.obs_keys),
            "rwd_keys_wt": {k: float(w) for k, w in u.rwd_keys_wt.items()}, "rwd_terms": list(u.rwd_dict.keys()),
            "nq": int(m.nq), "nv": int(m.nv), "na": int(m.na), "nu": int(m.nu), "nmocap": int(m.nmocap),
            "nsite": int(m.nsite), "nbody": int(m.nbody), "frame_skip": int(u.frame_skip), "dt": float(u.dt),
            "low": _floats(space.low), "high": _floats(space.high),
            "action_low": _floats(env.action_space.low), "action_high": _floats(env.action_space.high),
            "mujoco": mujoco.__version__, "myosuite": _myosuite_version(), "numpy": np.__version__,
            "shimmed": SHIMMED, "render": bool(render),
        }

    def _generator(self, generator: Any) -> None:
        """Every generator myosuite's envs draw from becomes ``generator``: the env's, its robot's, and MyoDM's
        reference motion's (captured from the env's at _setup: the Random ids draw their targets from it)."""
        self.u.np_random = generator
        self.u.robot.np_random = generator
        if hasattr(self.u, "ref") and hasattr(self.u.ref, "np_random"):
            self.u.ref.np_random = generator

    def _reset_rewards(self) -> dict[str, float]:
        """The rwd_dict of the current observation, as ``MujocoEnv._forward`` computes a step's."""
        u = self.u
        u.expand_dims(u.obs_dict)
        rwd_dict = u.get_reward_dict(u.obs_dict)
        u.squeeze_dims(rwd_dict)
        u.squeeze_dims(u.obs_dict)
        return _terms(rwd_dict)

    def reset(self, words: list[int]) -> dict[str, Any]:
        """Reset with rlpool's generator of ``words``: the observation, its rwd_dict, the time."""
        self._generator(XoshiroGenerator((int(words[0]), int(words[1]), int(words[2]), int(words[3]))))
        obs, _ = self.env.reset()
        return {"obs": _floats(obs), "rwd_dict": self._reset_rewards(), "time": float(self.u.sim.data.time)}

    def step(self, action: list[float]) -> dict[str, Any]:
        """One step of the float32 ``action``, unclipped."""
        size = self.env.action_space.shape[0]
        if len(action) != size:
            raise ValueError(f"the action has {len(action)} numbers; {self.task} takes {size}")
        obs, reward, terminated, truncated, info = self.env.step(np.asarray(action, dtype=np.float32))
        return {
            "obs": _floats(obs), "reward": float(reward), "terminated": bool(terminated), "truncated": bool(truncated),
            "rwd_dict": _terms(info["rwd_dict"]),
            "info": {"time": float(info["time"]), "solved": bool(info["solved"]), "done": bool(info["done"]),
                     "rwd_dense": float(info["rwd_dense"]), "rwd_sparse": float(info["rwd_sparse"])},
        }

    def state(self) -> dict[str, Any]:
        """The simulation's state and the model numbers the task changes at reset (flattened)."""
        u = self.u
        m, d = u.sim.model, u.sim.data
        answer = {
            "time": float(d.time), "qpos": _floats(d.qpos), "qvel": _floats(d.qvel), "act": _floats(d.act),
            "ctrl": _floats(d.ctrl), "qacc_warmstart": _floats(d.qacc_warmstart),
            "mocap_pos": _floats(d.mocap_pos), "mocap_quat": _floats(d.mocap_quat),
            "site_pos": _floats(m.site_pos), "body_pos": _floats(m.body_pos), "body_mass": _floats(m.body_mass),
        }
        fatigue = getattr(u, "muscle_fatigue", None)
        if fatigue is not None:
            answer["fatigue"] = {"MA": _floats(fatigue._MA), "MR": _floats(fatigue._MR), "MF": _floats(fatigue._MF)}
        return answer

    def set_state(self, **state: list[float] | float) -> dict[str, Any]:
        """Write ``state``'s simulation fields (as ``state`` answers them) into the data; no forward."""
        d = self.u.sim.data
        d.time = float(state["time"])  # type: ignore[arg-type]
        for field in ("qpos", "qvel", "act", "ctrl", "qacc_warmstart", "mocap_pos", "mocap_quat"):
            target = getattr(d, field)
            target[...] = np.asarray(state[field], dtype=np.float64).reshape(target.shape)
        return {}

    def resets(self, n: int, seed: int) -> dict[str, Any]:
        """``n`` resets drawing from ``np.random.default_rng(seed)``; what each drew that can be seen."""
        self._generator(np.random.default_rng(seed))
        u = self.u
        weight_body = getattr(u, "weight_bodyname", None)
        rows: dict[str, list[Any]] = {"obs": [], "qpos": [], "target_site_pos": [], "target_jnt_value": [],
                                      "weight": []}
        for _ in range(n):
            obs, _ = self.env.reset()
            rows["obs"].append(_floats(obs))
            rows["qpos"].append(_floats(u.sim.data.qpos))
            rows["target_site_pos"].append(_floats(u.sim.model.site_pos[list(u.target_sids)]))
            target = getattr(u, "target_jnt_value", None)
            rows["target_jnt_value"].append(None if target is None else _floats(target))
            mass = None if weight_body is None else float(u.sim.model.body_mass[u.sim.model.body_name2id(weight_body)])
            rows["weight"].append(mass)
        return rows

    def render(self, camera_id: int = -1) -> dict[str, Any]:
        """A frame of the env's camera ``camera_id`` (-1: myosuite's free camera), as width x height RGB bytes."""
        frame = self.u.sim.renderer.render_offscreen(width=self.width, height=self.height, camera_id=camera_id)
        frame = np.ascontiguousarray(frame)
        return {"shape": list(frame.shape), "rgb": base64.b64encode(frame.tobytes()).decode()}


def _myosuite_version() -> str:
    from importlib.metadata import version

    return version("myosuite")


def main() -> None:
    session = Session()
    _track_noise_from(session)
    for line in sys.stdin:
        request = json.loads(line)
        op = request.pop("op")
        try:
            answer = {"ok": getattr(session, op)(**request)}
        except Exception as e:  # the reference's own error goes back to the test
            answer = {"error": f"{type(e).__name__}: {e}"}
        _ANSWERS.write(json.dumps(answer) + "\n")
        _ANSWERS.flush()


if __name__ == "__main__":
    main()
