"""Step-by-step comparison of rlpool's DeepMind Control Suite tasks with dm_control itself.

``compare`` resets dm_control's task, copies its physics state and the task's own state (targets,
terrain: the model entries its ``initialize_episode`` sets) into rlpool's env with ``set_state``, then
feeds both the same random actions and checks observations, rewards, discounts and step types.
``TASK_STATE`` says, per domain, which model entries make up the task's state, in the order rlpool's
C++ env adds them (``DmcEnv::add_task_state``).
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from typing import Any

import numpy as np
from dmc_suite import require_suite

import rlpool
from rlpool.envs.dmc.registration import DOMAINS, task_id

dm_suite = require_suite()

# (mjModel field, object type for name lookup, object name or index, number of values) per domain.
TaskState = list[tuple[str, str, "str | int", int]]
TASK_STATE: dict[str, TaskState] = {
    "finger": [("site_pos", "site", "target", 3)],
    "reacher": [("geom_pos", "geom", "target", 3)],
    "fish": [("geom_pos", "geom", "target", 3)],
    "swimmer": [("geom_pos", "geom", "target", 2), ("light_pos", "light", "target_light", 2)],
    "lqr": [("jnt_stiffness", "joint", 0, 6)],
    # The target is the last body; the insert tasks' receptacle the one before (the bring tasks carry it too).
    "manipulator": [
        ("body_pos", "body", -1, 3), ("body_quat", "body", -1, 4),
        ("body_pos", "body", -2, 3), ("body_quat", "body", -2, 4),
    ],
    "stacker": [("body_pos", "body", "target", 3)],
    "point_mass": [("wrap_prm", "wrap", 0, 4)],
    # Every quadruped model has the 201 x 201 heightfield; escape draws its terrain into it.
    "quadruped": [("hfield_data", "hfield", 0, 40401)],
}

ALL_TASKS = [(d.name, t) for d in DOMAINS for t in d.tasks]


@contextlib.contextmanager
def quiet() -> Any:
    """dm_control's import and model compilation print GLFW and absl warnings that say nothing here."""
    absl = logging.getLogger("absl")
    level = absl.level
    absl.setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            yield
        finally:
            absl.setLevel(level)


_NO_CONTEXTS = property(lambda self: None)


def load(domain: str, task: str, seed: int) -> Any:
    """dm_control's environment of ``domain``/``task`` with ``random=seed``.

    Quadruped's escape uploads its terrain to a rendering context if one exists; there is none here.
    """
    from dm_control.mujoco import engine

    engine.Physics.contexts = _NO_CONTEXTS
    with quiet():
        return dm_suite.load(domain, task, task_kwargs={"random": seed})


def _task_values(physics: Any, domain: str) -> list[float]:
    model = physics.model
    values: list[float] = []
    for field, obj, name, count in TASK_STATE.get(domain, []):
        index = name if isinstance(name, int) else model.name2id(name, obj)
        array = np.asarray(getattr(model, field))
        row = array[index] if array.ndim > 1 else array[index : index + count]
        values.extend(np.asarray(row, np.float64).ravel()[:count].tolist())
    return values


def state_of(physics: Any, domain: str) -> bytes:
    """rlpool's ``get_state`` bytes for dm_control's ``physics`` (see ``DmcEnv::get_state``)."""
    d = physics.data
    parts = [[d.time], d.qpos, d.qvel, d.act, d.qacc_warmstart, d.ctrl, _task_values(physics, domain)]
    return np.concatenate([np.asarray(p, np.float64).ravel() for p in parts]).tobytes()


def compare(domain: str, task: str, steps: int, seed: int = 0, atol: float = 1e-6) -> None:
    """Step dm_control's and rlpool's ``domain``/``task`` side by side from dm_control's reset state."""
    ref = load(domain, task, seed)
    ref_ts = ref.reset()
    env = rlpool.make_dm(task_id(domain, task), num_envs=1, seed=seed)
    env.reset()
    env.set_state(0, state_of(ref.physics, domain))
    spec = ref.action_spec()
    rng = np.random.default_rng(seed)
    low = np.maximum(spec.minimum, -1.0)
    high = np.minimum(spec.maximum, 1.0)
    for i in range(steps):
        action = rng.uniform(low, high).astype(np.float64)
        ref_ts = ref.step(action)
        ts = env.step(action[None], np.array([0], np.int32))
        where = f"{domain}/{task} step {i + 1}"
        for key, value in ref_ts.observation.items():
            ours = np.asarray(getattr(ts.observation, key))[0]
            np.testing.assert_allclose(ours, value, rtol=0, atol=atol, err_msg=f"{where}: observation {key!r}")
        assert abs(float(ts.reward[0]) - ref_ts.reward) <= atol, f"{where}: reward {ts.reward[0]} vs {ref_ts.reward}"
        assert abs(float(ts.discount[0]) - ref_ts.discount) <= atol, f"{where}: discount"
        assert int(ts.step_type[0]) == int(ref_ts.step_type), f"{where}: step type"
        if ref_ts.last():
            break
    env.close()
