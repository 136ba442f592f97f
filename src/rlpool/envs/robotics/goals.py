"""The goal envs' methods, vectorised: ``compute_reward``, ``compute_terminated``, ``compute_truncated``.

gymnasium-robotics' GoalEnv has them for hindsight relabelling (HER): the reward an achieved goal would have
earned against another desired goal. Here each works on whole batches (any leading axes; one goal gives a
scalar), computed as the C++ envs compute their rewards, and is reached as a method of the env on every
face (``env.compute_reward(...)``, ``envs.call("compute_reward", ...)``, SB3's ``env_method``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _distance(achieved_goal: Any, desired_goal: Any) -> np.ndarray:
    achieved = np.asarray(achieved_goal, dtype=np.float64)
    desired = np.asarray(desired_goal, dtype=np.float64)
    if achieved.shape[-1:] != desired.shape[-1:]:
        raise ValueError(
            f"achieved_goal and desired_goal must have goals of the same size (last axis), got shapes "
            f"{achieved.shape} and {desired.shape}"
        )
    return np.linalg.norm(achieved - desired, axis=-1)


def _never(achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
    """False for each goal: these tasks end by their time limit only (gymnasium-robotics returns False)."""
    d = _distance(achieved_goal, desired_goal)
    return False if d.ndim == 0 else np.zeros(d.shape, dtype=bool)


def fetch_methods(config: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """Fetch's GoalEnv methods for an env of ``config`` (its ``reward_type`` and ``distance_threshold``)."""
    threshold = float(config["distance_threshold"])
    sparse = config["reward_type"] == "sparse"

    def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        """The reward of reaching ``achieved_goal`` when ``desired_goal`` was asked, per goal (last axis).

        Sparse: -1.0 while the distance is above ``distance_threshold``, else 0.0 (float32); dense: minus
        the distance (float64). ``info`` is not used (accepted for gymnasium-robotics' signature).
        """
        d = _distance(achieved_goal, desired_goal)
        return -(d > threshold).astype(np.float32) if sparse else -d

    return {"compute_reward": compute_reward, "compute_terminated": _never, "compute_truncated": _never}


def maze_methods(config: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """PointMaze's GoalEnv methods for an env of ``config`` (``reward_type``, ``continuing_task``)."""
    dense = config["reward_type"] == "dense"
    continuing = bool(config["continuing_task"])

    def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        """Per goal (last axis): dense ``exp(-distance)``; sparse 1.0 within 0.45 of the goal, else 0.0."""
        d = _distance(achieved_goal, desired_goal)
        return np.exp(-d) if dense else (d <= 0.45).astype(np.float64)

    def compute_terminated(achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        """Per goal: reached (within 0.45) where the task is not continuing, else False."""
        d = _distance(achieved_goal, desired_goal)
        ended = (d <= 0.45) & (not continuing)
        return bool(ended) if d.ndim == 0 else ended

    return {"compute_reward": compute_reward, "compute_terminated": compute_terminated, "compute_truncated": _never}


def _quat2euler(quat: np.ndarray) -> np.ndarray:
    """rotations.quat2euler (mat2euler of quat2mat), batched over leading axes."""
    w, x, y, z = quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]
    nq = np.sum(quat * quat, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = 2.0 / nq
    big = nq > np.finfo(np.float64).eps
    X, Y, Z = x * s, y * s, z * s
    m00 = np.where(big, 1.0 - (y * Y + z * Z), 1.0)
    m01 = np.where(big, x * Y - w * Z, 0.0)
    m02 = np.where(big, x * Z + w * Y, 0.0)
    m10 = np.where(big, x * Y + w * Z, 0.0)
    m11 = np.where(big, 1.0 - (x * X + z * Z), 1.0)
    m12 = np.where(big, y * Z - w * X, 0.0)
    m22 = np.where(big, 1.0 - (x * X + y * Y), 1.0)
    cy = np.sqrt(m22 * m22 + m12 * m12)
    keep = cy > np.finfo(np.float64).eps * 4.0
    euler = np.empty(quat.shape[:-1] + (3,))
    euler[..., 2] = np.where(keep, -np.arctan2(m01, m00), -np.arctan2(-m10, m11))
    euler[..., 1] = -np.arctan2(-m02, cy)
    euler[..., 0] = np.where(keep, -np.arctan2(m12, m22), 0.0)
    return euler


def _euler2quat(euler: np.ndarray) -> np.ndarray:
    """rotations.euler2quat, batched over leading axes."""
    ai, aj, ak = euler[..., 2] / 2, -euler[..., 1] / 2, euler[..., 0] / 2
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs, sc, ss = ci * ck, ci * sk, si * ck, si * sk
    return np.stack([cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs], axis=-1)


def _quat_mul(q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    w0, x0, y0, z0 = (q0[..., i] for i in range(4))
    w1, x1, y1, z1 = (q1[..., i] for i in range(4))
    return np.stack(
        [
            w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
            w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
            w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1,
            w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1,
        ],
        axis=-1,
    )


def manipulate_methods(config: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """The hand manipulation tasks' GoalEnv methods for an env of ``config``.

    A goal is the object's position and orientation quaternion (7 numbers). The orientation's angle to the
    goal's leaves out the rotation about z where ``ignore_z_target_rotation`` (the Pen's): of each goal, not of
    the batch's third row as gymnasium-robotics' batched version does.
    """
    sparse = config["reward_type"] == "sparse"
    use_position = config["target_position"] != "ignore"
    use_rotation = config["target_rotation"] != "ignore"
    ignore_z = bool(config["ignore_z_target_rotation"])
    distance_threshold = float(config["distance_threshold"])
    rotation_threshold = float(config["rotation_threshold"])

    def distances(achieved_goal: Any, desired_goal: Any) -> tuple[np.ndarray, np.ndarray]:
        a = np.asarray(achieved_goal, dtype=np.float64)
        b = np.asarray(desired_goal, dtype=np.float64)
        if a.shape[-1:] != (7,) or b.shape[-1:] != (7,):
            raise ValueError(f"goals are 7 numbers (position, quaternion), got shapes {a.shape} and {b.shape}")
        shape = np.broadcast_shapes(a.shape, b.shape)[:-1]
        d_pos = np.linalg.norm(a[..., :3] - b[..., :3], axis=-1) if use_position else np.zeros(shape)
        d_rot = np.zeros(shape)
        if use_rotation:
            qa, qb = a[..., 3:], b[..., 3:]
            if ignore_z:
                ea, eb = _quat2euler(qa), _quat2euler(qb)
                ea[..., 2] = eb[..., 2]
                qa = _euler2quat(ea)
            conj = qb * np.array([1.0, -1.0, -1.0, -1.0])
            d_rot = 2 * np.arccos(np.clip(_quat_mul(qa, conj)[..., 0], -1.0, 1.0))
        return np.broadcast_to(d_pos, shape), np.broadcast_to(d_rot, shape)

    def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        """The reward per goal: sparse 0.0 where position and orientation are reached, else -1.0 (float32).

        Dense: ``-(10 * position distance + angle)``.
        """
        d_pos, d_rot = distances(achieved_goal, desired_goal)
        if sparse:
            success = (d_pos < distance_threshold).astype(np.float32) * (d_rot < rotation_threshold).astype(np.float32)
            return success - np.float32(1.0)
        return -(10.0 * d_pos + d_rot)

    return {"compute_reward": compute_reward, "compute_terminated": _never, "compute_truncated": _never}


KITCHEN_TASKS = ("bottom burner", "top burner", "light switch", "slide cabinet", "hinge cabinet", "microwave", "kettle")
"""FrankaKitchen's tasks, in the order of its info masks (gymnasium-robotics' ``OBS_ELEMENT_GOALS``)."""


def _kitchen_mask(info: Any) -> np.ndarray | None:
    """The ``tasks_to_complete`` masks of ``info`` (a dict of arrays, or a list of per-env dicts), if it has them."""
    if isinstance(info, dict):
        mask = info.get("tasks_to_complete")
    elif isinstance(info, (list, tuple)) and info and all(isinstance(i, dict) for i in info):
        masks = [i.get("tasks_to_complete") for i in info]
        mask = None if any(m is None for m in masks) else np.stack(masks)
    else:
        mask = None
    return None if mask is None else np.asarray(mask, dtype=bool)


def kitchen_methods(config: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """FrankaKitchen's GoalEnv method: the reward of achieved against desired goals (dicts of task -> joints)."""
    goal_tasks = [t for t in KITCHEN_TASKS if t in config["tasks_to_complete"].split(",")]

    def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        """The number of tasks within 0.3 of their goal (float64, per goal of a batch).

        Counted over the tasks ``info["tasks_to_complete"]`` still names (a bool mask per goal, in
        ``KITCHEN_TASKS`` order) where info has it, else over every task of the goal.
        """
        mask = _kitchen_mask(info)
        total: Any = 0.0
        for task in goal_tasks:
            near = _distance(achieved_goal[task], desired_goal[task]) < 0.3
            if mask is not None:
                near = near & mask[..., KITCHEN_TASKS.index(task)]
            total = total + near.astype(np.float64)
        return total

    return {"compute_reward": compute_reward}
