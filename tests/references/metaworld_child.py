"""The MetaWorld reference's side of the lockstep comparison: metaworld 3.1.1 on MuJoCo 3.3.0, in its own virtualenv.

Run by ``metaworld_reference.py`` with the reference virtualenv's Python (which has no rlpool); it answers one
JSON line per request line on stdin/stdout. Requests: ``make`` (a task, its observability), ``reset`` (with
the four words rlpool's env seeded its generator with: the env's ``np_random`` becomes ``xoshiro``'s copy
of rlpool's generator, so that both draw the same task vector), ``step`` (an action, float32), ``resets``
(many resets drawn from metaworld's own numpy generator, for the distribution tests), ``state`` (the
simulation state and the previous frame), ``expert_action`` (metaworld's scripted policy of the task on
the last observation) and ``render``. Floats travel as JSON numbers, which round-trip float64 exactly.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from xoshiro import XoshiroGenerator  # noqa: E402

warnings.simplefilter("ignore")
os.environ.setdefault("MUJOCO_GL", "osmesa")

import metaworld  # noqa: E402, F401
import metaworld.sawyer_xyz_env  # noqa: E402
import mujoco  # noqa: E402
from metaworld.env_dict import ALL_V3_ENVIRONMENTS  # noqa: E402

_WELD = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 5.0])


def _reset_mocap_welds(self: Any) -> None:
    """SawyerMocapBase.reset_mocap_welds on a MuJoCo whose eq_data rows are longer than metaworld's 11 values.

    MuJoCo 3.3.0's weld row is anchor, relative pose and torque scale (11 numbers); later versions add a
    twelfth. metaworld writes its 11 into the whole row, which fails there: this writes them into the first
    11 (the same fields), leaving the twelfth as compiled. On MuJoCo 3.3.0 metaworld's own method runs.
    """
    if self.model.nmocap > 0 and self.model.eq_data is not None:
        for i in range(self.model.eq_data.shape[0]):
            if self.model.eq_type[i] == mujoco.mjtEq.mjEQ_WELD:
                self.model.eq_data[i][: len(_WELD)] = _WELD


if mujoco.mjNEQDATA > len(_WELD):
    metaworld.sawyer_xyz_env.SawyerMocapBase.reset_mocap_welds = _reset_mocap_welds


def _floats(x: Any) -> list[float]:
    return [float(v) for v in np.asarray(x, dtype=np.float64).ravel()]


def _info(info: dict[str, Any]) -> dict[str, float]:
    return {k: float(v) for k, v in info.items()}


class Session:
    """One reference env and the requests on it."""

    def __init__(self) -> None:
        self.env: Any = None
        self.task = ""
        self.obs: Any = None

    def make(self, task: str, partially_observable: bool = True, render: bool = False, width: int = 480,
             height: int = 480) -> dict[str, Any]:
        kwargs = {"render_mode": "rgb_array", "width": width, "height": height} if render else {}
        env = ALL_V3_ENVIRONMENTS[task](**kwargs)
        if partially_observable != env._partially_observable:  # as set_task does: the space is computed anew
            del env.sawyer_observation_space
        env._partially_observable = partially_observable
        env._freeze_rand_vec = False
        env.seeded_rand_vec = True
        env._set_task_called = True
        space = env.sawyer_observation_space
        self.env, self.task = env, task
        return {"low": _floats(space.low), "high": _floats(space.high), "mujoco": mujoco.__version__,
                "max_path_length": env.max_path_length}

    def reset(self, words: list[int]) -> dict[str, Any]:
        self.env._np_random = XoshiroGenerator(tuple(words))
        obs, _ = self.env.reset()
        self.obs = obs
        return {"obs": _floats(obs), "rand_vec": _floats(self.env._last_rand_vec)}

    def step(self, action: list[float]) -> dict[str, Any]:
        obs, reward, terminated, truncated, info = self.env.step(np.asarray(action, dtype=np.float32))
        self.obs = obs
        return {"obs": _floats(obs), "reward": float(reward), "terminated": bool(terminated),
                "truncated": bool(truncated), "info": _info(info)}

    def expert_action(self) -> list[float]:
        """metaworld's scripted policy of the task (metaworld.policies), on the last observation."""
        from metaworld.policies import ENV_POLICY_MAP

        return _floats(np.asarray(ENV_POLICY_MAP[self.task]().get_action(self.obs), dtype=np.float32))

    def resets(self, n: int, seed: int) -> dict[str, Any]:
        self.env._np_random = np.random.default_rng(seed)
        vecs, obs = [], []
        for _ in range(n):
            o, _ = self.env.reset()
            vecs.append(_floats(self.env._last_rand_vec))
            obs.append(_floats(o))
        return {"rand_vecs": vecs, "obs": obs}

    def state(self) -> dict[str, Any]:
        d = self.env.data
        return {"time": float(d.time), "qpos": _floats(d.qpos), "qvel": _floats(d.qvel), "act": _floats(d.act),
                "ctrl": _floats(d.ctrl), "qacc_warmstart": _floats(d.qacc_warmstart),
                "mocap_pos": _floats(d.mocap_pos), "mocap_quat": _floats(d.mocap_quat),
                "prev_obs": _floats(self.env._prev_obs)}

    def render(self) -> dict[str, Any]:
        frame = self.env.render()
        return {"shape": list(frame.shape), "rgb": base64.b64encode(np.ascontiguousarray(frame).tobytes()).decode()}


def main() -> None:
    session = Session()
    for line in sys.stdin:
        request = json.loads(line)
        op = request.pop("op")
        try:
            answer = {"ok": getattr(session, op)(**request)}
        except Exception as e:  # the reference's own error goes back to the test
            answer = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
