"""What the render tests share: gymnasium's env for a task in ``rgb_array`` mode, and the frame comparison."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from rlpool import registry


def gym_rendering(task_id: str, **kwargs: Any) -> Any:
    """gymnasium's env with the dynamics of rlpool's ``task_id`` (its ``gymnasium_id``), drawing ``rgb_array``."""
    import gymnasium as gym

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # CartPole-v0 is "out of date"
        return gym.make(registry.task(task_id).gymnasium_id or task_id, render_mode="rgb_array", **kwargs)


def assert_frames_equal(ours: np.ndarray, ref: np.ndarray, where: str) -> None:
    """Bitwise; a failure says how many pixels were equal and the largest difference."""
    assert ours.shape == ref.shape and ours.dtype == np.uint8, where
    if not np.array_equal(ours, ref):
        equal = 1.0 - (ours != ref).any(axis=-1).mean()
        pytest.fail(f"{where}: {equal:.4%} of pixels equal, max difference {np.abs(ours.astype(int) - ref).max()}")


def assert_alias_renders_as_target(alias: str) -> None:
    """An EnvPool alias (``rlpool.compat.envpool``) draws what its rlpool task draws from the same state."""
    import rlpool
    from rlpool.compat import envpool as compat

    target, _ = registry.resolve_alias(alias)
    ours = compat.make_gymnasium(alias, num_envs=1, render_mode="rgb_array")
    ref = rlpool.make(target, num_envs=1, render_mode="rgb_array")
    ours.reset()
    ref.reset()
    ours.set_state(0, ref.get_state(0))
    np.testing.assert_array_equal(ours.render(), ref.render())
    ours.close()
    ref.close()
