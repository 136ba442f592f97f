"""dm_env step types and discounts from a pool's flags (shared by the dm adapters)."""

from __future__ import annotations

from typing import Any

import numpy as np


class StepTypes:
    """Tells FIRST / MID / LAST apart for each returned row, and gives the discount.

    A row is LAST when its episode ended (terminated or truncated) and FIRST when it is a
    reset: either ``elapsed_step`` is 0, or the env's previous row was LAST (the autoreset
    row; with Atari's ``episodic_life`` the game and its ``elapsed_step`` go on there, as
    in EnvPool). The discount is 0 on termination, and also wherever the env wrote a
    discount of 0 of its own (``info["_rlpool_discount"]``, e.g. Atari's
    ``zero_discount_on_life_loss``); 1 otherwise, truncation included.
    """

    FIRST, MID, LAST = 0, 1, 2

    def __init__(self, num_envs: int, discount_dtype: Any = np.float32) -> None:
        self._after_last = np.zeros(num_envs, dtype=np.bool_)
        self._discount_dtype = discount_dtype

    def reset(self, env_id: Any = None) -> None:
        """Forget that these envs (default: all) ended an episode: their next row is a reset."""
        if env_id is None:
            self._after_last[:] = False
        else:
            self._after_last[np.asarray(env_id)] = False

    def __call__(self, terminated: np.ndarray, truncated: np.ndarray,
                 info: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        """(step_type int32, discount) of one batch; pops the private discount key."""
        own_discount = info.pop("_rlpool_discount", None)
        env_id = info["env_id"]
        done = terminated | truncated
        if done.ndim == 2:  # a multi-agent env: its episode is over once every agent is done
            done = done.all(axis=1)
        first = (info["elapsed_step"] == 0) | self._after_last[env_id]
        self._after_last[env_id] = done
        # A reset row is never done, so FIRST (0) / MID (1) / LAST (2) is "not first" + done.
        step_type = (~first).astype(np.int32)
        step_type += done
        discount = (~terminated).astype(self._discount_dtype)  # per agent where there are agents
        if own_discount is not None:
            discount *= own_discount
        return step_type, discount
