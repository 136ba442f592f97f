"""Actions of several choices with sizes of their own (gymnasium's MultiDiscrete), through every face.

NestedDict-v0 (src/rlpool/envs/testing) with ``action_sizes="2,5,3"`` takes one choice of each size and
rewards ``sum_j action[j] * 10**j``, so each element is seen to arrive in its place.
"""

from __future__ import annotations

import numpy as np
import pytest

import rlpool

SIZES = "2,5,3"


def test_spaces_and_specs() -> None:
    env = rlpool.make("NestedDict-v0", num_envs=2, action_sizes=SIZES)
    try:
        assert env.single_action_space.__class__.__name__ == "MultiDiscrete"
        assert env.single_action_space.nvec.tolist() == [2, 5, 3]
        assert env.spec.arrays.action_nvec.tolist() == [2, 5, 3]
        with pytest.raises(ValueError, match="different sizes"):
            _ = env.spec.arrays.num_actions
    finally:
        env.close()
    pytest.importorskip("dm_env")
    dm = rlpool.make_dm("NestedDict-v0", num_envs=2, action_sizes=SIZES)
    try:
        spec = dm.action_spec()
        assert spec.shape == (3,) and spec.minimum.tolist() == [0, 0, 0] and spec.maximum.tolist() == [1, 4, 2]
    finally:
        dm.close()


def test_each_element_arrives_in_its_place() -> None:
    env = rlpool.make("NestedDict-v0", num_envs=2, action_sizes=SIZES)
    try:
        env.reset(seed=0)
        _, reward, *_ = env.step(np.array([[1, 4, 2], [0, 3, 1]]))
        assert reward.tolist() == [241.0, 130.0]
    finally:
        env.close()


def test_each_element_is_checked_against_its_own_size() -> None:
    env = rlpool.make("NestedDict-v0", num_envs=2, action_sizes=SIZES)
    try:
        env.reset(seed=0)
        with pytest.raises(ValueError, match=r"for env 1, element 2 is out of range \[0, 2\]"):
            env.step(np.array([[1, 4, 2], [0, 3, 3]]))
        with pytest.raises(ValueError, match=r"element 1 is out of range \[0, 4\]"):
            env.step(np.array([[1, 5, 0], [0, 0, 0]]))
        _, reward, *_ = env.step(np.array([[1, 4, 2], [1, 4, 2]]))  # still usable
        assert reward.tolist() == [241.0, 241.0]
    finally:
        env.close()


def test_bad_sizes_are_refused() -> None:
    for sizes in ("2,,3", "0", "2,x", ",".join(["2"] * 9)):
        with pytest.raises(ValueError, match="action_sizes"):
            rlpool.make("NestedDict-v0", num_envs=1, action_sizes=sizes)


def test_envpool_layer_gives_an_int32_box_spec() -> None:
    from rlpool.compat import envpool

    spec = envpool.make_spec("NestedDict-v0", action_sizes=SIZES)
    action = spec.action_array_spec["action"]
    assert action.dtype == np.int32 and list(action.shape) == [-1, 3]
    assert np.asarray(action.maximum).tolist() == [1, 4, 2]
