"""Gymnasium-Robotics in ``rlpool bench``: its ``gym-sync``/``gym-async`` peers are gymnasium-robotics' own envs.

gymnasium knows the Fetch, Hand, Adroit, PointMaze and FrankaKitchen ids once the ``gymnasium_robotics``
package is imported (``GYM_PLUGINS``), and the gymnasium peers then step gymnasium-robotics 1.4.2's Python
envs, the ones rlpool's C++ envs follow, next to rlpool's pools and EnvPool's on the same task.

An upstream bug has to be worked around for them to run at all. gymnasium-robotics' joint helpers
(``gymnasium_robotics/utils/mujoco_utils.py``: ``get_joint_qpos``, ``set_joint_qpos``, ``get_joint_qvel``,
``set_joint_qvel``; as of 1.4.2) end on ``assert joint_type in (mjtJoint.mjJNT_HINGE, mjtJoint.mjJNT_SLIDE)``
for a hinge or slide joint, ``joint_type`` being ``model.jnt_type[i]``, an ``np.int32``. The tuple's ``in``
asks each enum value ``== joint_type``, and the ``mujoco`` bindings' enums (seen with MuJoCo 3.17.0) answer
False to a numpy integer, so the assertion fails: every Fetch and Hand env (and the kitchen) fails as it is
made (its ``_env_setup`` sets joint positions). Importing this module, which ``rlpool bench`` does before it
looks a task's gymnasium id up, imports gymnasium-robotics, when installed, and, only if a helper fails on
the hinge joint of a one-joint model (``joint_helpers_broken``), replaces the four helpers with the same
code comparing plain ints (``patch_joint_helpers``, which the tests' reference uses too). Every env looks
the helpers up on the module (``self._utils.get_joint_qpos``), so that is enough: the envs' code and
dynamics are gymnasium-robotics' own.

The ``gym-async`` peer (gymnasium's ``AsyncVectorEnv``) steps its envs in worker processes started by
``multiprocessing``'s default start method. With ``fork`` (Linux up to Python 3.13) the workers inherit the
patched module. With ``spawn`` or ``forkserver`` (macOS; Linux from Python 3.14) a worker imports
gymnasium-robotics afresh, unpatched, and its Fetch, Hand and Kitchen envs fail there: where that is the
default start method, importing this module also makes each of gymnasium-robotics' ids reach its env through
``WorkerEntryPoint``, a class of this module, so that a worker unpickling the id's spec imports this module
(and so fixes the helpers) before it makes the env. Under ``fork`` gymnasium's registry is left as it is.

Importing gymnasium-robotics 1.4.2 also prints a notice on stderr (its Adroit dense rewards changed in
1.2.1); it is kept out of the benchmark's output, as rlpool follows 1.4.2's rewards.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import multiprocessing
import warnings
from typing import Any

import numpy as np

GYM_PLUGINS: dict[str, str] = {
    prefix: "gymnasium_robotics" for prefix in ("Fetch", "Hand", "Adroit", "PointMaze", "FrankaKitchen")
}
"""Task-id prefixes -> the package that registers those gymnasium ids when imported."""

_ONE_HINGE = '<mujoco><worldbody><body><joint name="hinge"/><geom size=".1"/></body></worldbody></mujoco>'


def joint_helpers_broken() -> bool:
    """Whether gymnasium-robotics' ``get_joint_qpos`` fails on a hinge joint (the bug in the module's text)."""
    import mujoco
    from gymnasium_robotics.utils import mujoco_utils

    model = mujoco.MjModel.from_xml_string(_ONE_HINGE)
    try:
        mujoco_utils.get_joint_qpos(model, mujoco.MjData(model), "hinge")
    except AssertionError:
        return True
    return False


def patch_joint_helpers() -> bool:
    """Replace gymnasium-robotics' four joint helpers where they are broken; whether they are patched now.

    The replacements are upstream's code with the joint type compared as an int; like upstream, a ball joint
    gets 4 velocity entries. Idempotent.
    """
    import mujoco
    from gymnasium_robotics.utils import mujoco_utils

    if getattr(mujoco_utils, "_rlpool_patched", False):
        return True
    if not joint_helpers_broken():
        return False
    joint = mujoco.mjtJoint
    hinge, slide = int(joint.mjJNT_HINGE), int(joint.mjJNT_SLIDE)
    qpos_size = {int(joint.mjJNT_FREE): 7, int(joint.mjJNT_BALL): 4, hinge: 1, slide: 1}
    qvel_size = {int(joint.mjJNT_FREE): 6, int(joint.mjJNT_BALL): 4, hinge: 1, slide: 1}

    def span(model: Any, name: str, sizes: dict[int, int], address: Any) -> tuple[int, int]:
        joint_id = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, name)
        assert joint_id != -1, f"Joint with name '{name}' is not part of the model!"
        start = int(address[joint_id])
        return start, start + sizes[int(model.jnt_type[joint_id])]

    def get_joint_qpos(model: Any, data: Any, name: str) -> np.ndarray:
        a, b = span(model, name, qpos_size, model.jnt_qposadr)
        return data.qpos[a:b].copy()

    def get_joint_qvel(model: Any, data: Any, name: str) -> np.ndarray:
        a, b = span(model, name, qvel_size, model.jnt_dofadr)
        return data.qvel[a:b].copy()

    def set_joint_qpos(model: Any, data: Any, name: str, value: Any) -> None:
        a, b = span(model, name, qpos_size, model.jnt_qposadr)
        value = np.array(value)
        if b - a > 1:
            assert value.shape == (b - a,), f"Value has incorrect shape {name}: {value}"
        data.qpos[a:b] = value

    def set_joint_qvel(model: Any, data: Any, name: str, value: Any) -> None:
        a, b = span(model, name, qvel_size, model.jnt_dofadr)
        value = np.array(value)
        if b - a > 1:
            assert value.shape == (b - a,), f"Value has incorrect shape {name}: {value}"
        data.qvel[a:b] = value

    mujoco_utils.get_joint_qpos = get_joint_qpos
    mujoco_utils.get_joint_qvel = get_joint_qvel
    mujoco_utils.set_joint_qpos = set_joint_qpos
    mujoco_utils.set_joint_qvel = set_joint_qvel
    mujoco_utils._rlpool_patched = True
    return True


class WorkerEntryPoint:
    """gymnasium-robotics' entry point of an env, reached through this module (see the module's text).

    Pickled (in the env's spec, for a worker process) it names this class, so the worker imports this module,
    which imports gymnasium-robotics and fixes its joint helpers, before it makes the env.
    """

    def __init__(self, entry_point: str) -> None:
        self.entry_point = entry_point

    def _creator(self) -> Any:
        from gymnasium.envs.registration import load_env_creator

        return load_env_creator(self.entry_point)

    @property
    def metadata(self) -> dict[str, Any]:
        """The env class's metadata (``gymnasium.make`` reads its render modes)."""
        return self._creator().metadata

    def __call__(self, **kwargs: Any) -> Any:
        """Make the env, as gymnasium would from the entry point's string."""
        return self._creator()(**kwargs)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.entry_point!r})"


def workers_inherit_modules() -> bool:
    """Whether ``multiprocessing``'s default start method is ``fork`` (workers inherit the patched module)."""
    method = multiprocessing.get_start_method(allow_none=True) or multiprocessing.get_all_start_methods()[0]
    return method == "fork"


def route_through_this_module() -> None:
    """Make every gymnasium id of gymnasium-robotics' envs reach its env through ``WorkerEntryPoint``."""
    import gymnasium

    for spec in gymnasium.registry.values():
        entry_point = spec.entry_point
        if isinstance(entry_point, str) and entry_point.startswith("gymnasium_robotics.envs."):
            spec.entry_point = WorkerEntryPoint(entry_point)


def use_gymnasium_robotics() -> bool:
    """Import gymnasium-robotics (its gymnasium ids registered) and fix its joint helpers where broken.

    Where workers would not inherit the fix (``workers_inherit_modules``), the ids are routed through this
    module. Returns False, doing nothing, where gymnasium-robotics is not installed or cannot be imported (the
    gymnasium peers of these tasks are then unavailable: the bench's import of ``GYM_PLUGINS``' package fails
    and says why).
    """
    if importlib.util.find_spec("gymnasium_robotics") is None:
        return False
    try:
        with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
            warnings.simplefilter("ignore")  # deprecation chatter of its imports (PettingZoo, ...)
            import gymnasium_robotics  # noqa: F401  (registers the ids)
    except ImportError:  # a dependency missing: the bench names it when it imports the plugin again
        return False
    if patch_joint_helpers() and not workers_inherit_modules():
        route_through_this_module()
    return True


use_gymnasium_robotics()
