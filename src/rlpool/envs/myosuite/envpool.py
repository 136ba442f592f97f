"""The MyoSuite tasks through ``rlpool.compat.envpool``: EnvPool's config, observation space and info.

EnvPool has MyoSuite from 1.2.5 (``envpool.mujoco.myosuite``, following myosuite 2.11.6, rlpool's version);
1.2.7 follows myosuite 2.12.2. Both register the same 398 ids, each also as ``MyoSuite/<id>`` (796 in all),
as rlpool does (``registration.py``), with the same horizons. The compat layer follows EnvPool 1.2.7 and
1.2.5 wherever the two agree (docs/integrations.md); here they agree in every fact below, read from both
(``envpool.make_spec``/``make_gymnasium``/``make_dm`` of ``myoHandPoseRandom-v0``,
``myoFingerReachFixed-v0``, ``motorFingerPoseRandom-v0``, ``myoElbowPose1D6MExoRandom-v0``,
``myoSarcHandReachRandom-v0``, ``myoChallengeDieReorientP1-v0``):

- config: the pool's keys up to ``max_episode_steps`` (no ``reward_threshold``), then ``frame_stack`` (1) and
  ``task_name`` (the id without ``MyoSuite/``; a call may pass another id's, which then runs). With
  ``from_pixels=True`` (its pixel variant; ``from_pixels`` itself is not in the config) it adds
  ``render_width``/``render_height`` (84) and ``render_camera_id`` (-1).
- observation: ``Box(-inf, inf, (obs_dim,), float64)``; ``frame_stack=k`` gives ``(k, obs_dim)``. Its values
  are float64 throughout, where myosuite's (and rlpool's) observation is float32: through this layer rlpool's
  float32 values are widened to float64, so they differ from EnvPool's by float32 rounding. With
  ``from_pixels``: ``Box(0, 255, (3 * frame_stack, 84, 84), uint8)``, as rlpool's (EnvPool's state entry
  ``obs:pixels``, a dm ``State`` field ``pixels`` after the info entries).
- action: ``Box(-1, 1, (nu,), float32)``, as rlpool's. reward: float32 (as this layer gives every reward).
- info: ``env_id``, ``players``, ``task_id`` (int32: the id's place in ``tasks.TASKS``, sorted), ``sparse``
  (float64), ``solved`` (float64, 0 or 1), ``oracle_numpy2_broken`` (bool), ``model_nq``, ``model_nv``,
  ``model_na``, ``model_nu``, ``model_nsite``, ``model_nbody``, ``model_ngeom``, ``model_nhfielddata``,
  ``model_nmocap`` (int32), ``elapsed_step``. A reset's ``sparse`` and ``solved`` are 0.

What the versions differ in is behaviour, not layout: 1.2.5 starts a ``*Random`` task in the same state in
every env and for every seed (1.2.7 draws it, as myosuite and rlpool do); a ``*Fixed`` task's steps agree with
rlpool's up to float32 rounding (tests/envs/myosuite/test_myosuite_envpool.py, on 1.2.5; 1.2.7's differ from
1.2.5's by about 1e-15). 1.2.5 aborts the process when it renders without OpenGL.

This layout reports that config (state observations stacked by the pool faces, pixel frames by the env's own
``frame_stack``), that observation space with state observations as float64, ``sparse`` (rlpool's
``rwd_sparse``) and ``solved`` (as float64) first among the info entries; rlpool's other entries (the
``rwd_<term>`` terms, ``rwd_dense``, ``time``) follow. Not EnvPool's: the info has no ``task_id``,
``oracle_numpy2_broken`` or ``model_*`` entries; a reset's info holds myosuite's values of the reset state
(EnvPool's: 0); a pixel pool's frames are the state's ``obs`` (dm ``State.obs``) and its config has
``from_pixels`` where EnvPool's has the render size and camera (rlpool's are pool options).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rlpool.compat.envpool.layouts import FamilyLayout, register_layout


class MyoSuiteLayout(FamilyLayout):
    """EnvPool's face of the MyoSuite tasks (1.2.5's and 1.2.7's alike)."""

    info_order = ("sparse", "solved")
    info_fields = {"sparse": "rwd_sparse"}  # noqa: RUF012 - read-only class default
    info_dtypes = {"solved": np.float64}  # noqa: RUF012 - read-only class default
    info_bounds = {"solved": (0.0, 1.0)}  # noqa: RUF012 - read-only class default

    def stacks_frames(self, opts: dict[str, Any]) -> bool:
        """State observations are stacked by the pool faces; pixel frames by the env."""
        return not opts.get("from_pixels", False)

    def config(self, config: dict[str, Any]) -> dict[str, Any]:
        """EnvPool's config: its pool keys (no ``reward_threshold``), ``frame_stack``, ``task_name``, then rlpool's."""
        rest = dict(config)
        mode = rest.pop("autoreset_mode")
        rest.pop("reward_threshold", None)
        if rest.get("from_pixels") is False:  # EnvPool's state variant has no such key
            rest.pop("from_pixels")
        out = {k: rest.pop(k) for k in list(rest)[: list(rest).index("max_episode_steps") + 1]}
        out["frame_stack"] = rest.pop("frame_stack", 1)  # the pool faces put theirs here where they stack
        out["task_name"] = rest.pop("task_name")
        return {**out, **rest, "autoreset_mode": mode}

    def observation_space(self, space: Any) -> Any:
        """A state observation's ``Box(-inf, inf)``, float64, as EnvPool declares it; pixel frames as they are."""
        from gymnasium import spaces

        if not np.issubdtype(space.dtype, np.floating):
            return space
        return spaces.Box(-np.inf, np.inf, space.shape, np.float64)

    def obs(self, obs: Any) -> Any:
        """State observations as float64, EnvPool's dtype; pixel frames as they are."""
        return obs.astype(np.float64) if obs.dtype == np.float32 else obs


_LAYOUT = MyoSuiteLayout()


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return _LAYOUT if env_type == "MyoSuite" else None
