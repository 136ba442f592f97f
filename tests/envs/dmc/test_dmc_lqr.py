"""LQR specifics that the generic DMC comparison does not reach.

dm_control draws the joints' stiffness once, when it builds the model from its seed; rlpool draws it per
episode (task state). And an LQR episode ends (discount 0) only when the state norm falls below 1e-6.
"""

from __future__ import annotations

import numpy as np
import pytest
from dmc_suite import require_suite

require_suite()  # the models are dm_control's: installed, or rlpool's copy

import rlpool  # noqa: E402


def _split(state: bytes, nq: int, nu: int) -> tuple[np.ndarray, np.ndarray]:
    s = np.frombuffer(state, np.float64)
    # time, qpos, qvel, act (none), qacc_warmstart, ctrl, then jnt_stiffness (one per joint = nq).
    return s[1 : 1 + nq], s[1 + 3 * nq + nu :]


@pytest.mark.parametrize(("task_id", "nq", "nu"), [("LqrLqr21-v1", 2, 1), ("LqrLqr62-v1", 6, 2)])
def test_stiffness_and_start_state_are_drawn_per_episode(task_id: str, nq: int, nu: int) -> None:
    env = rlpool.make_dm(task_id, num_envs=1, seed=0)
    seen = []
    for _ in range(20):
        env.reset()
        qpos, stiffness = _split(env.get_state(0), nq, nu)
        assert stiffness.shape == (nq,)
        assert np.all((stiffness >= 15) & (stiffness < 25))
        np.testing.assert_allclose(np.linalg.norm(qpos), np.sqrt(2), rtol=1e-12)
        seen.append(stiffness)
    env.close()
    assert len({tuple(s) for s in seen}) == len(seen)


def test_episode_ends_at_a_tiny_state_norm() -> None:
    env = rlpool.make_dm("LqrLqr21-v1", num_envs=1, seed=0)
    env.reset()
    s = np.frombuffer(env.get_state(0), np.float64).copy()
    s[1 : 1 + 3 * 2 + 1] = 0.0  # qpos, qvel, qacc_warmstart and ctrl; the stiffness stays
    env.set_state(0, s.tobytes())
    ts = env.step(np.zeros((1, 1)), np.array([0], np.int32))
    assert int(ts.step_type[0]) == 2
    assert float(ts.discount[0]) == 0.0
    assert float(ts.reward[0]) == 1.0
    env.close()
