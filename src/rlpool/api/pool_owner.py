"""What every API face of a pool shares: the pool itself and the calls that don't depend on the API."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rlpool.backends import new_pool
from rlpool.options import check_int, env_id_list
from rlpool.spec import EnvSpec


class Frames(np.ndarray):
    """What ``render()`` returns: a ``(len(env_ids), height, width, 3)`` uint8 array of RGB frames.

    A plain ndarray that also counts as a ``Sequence`` of frames, which is what
    gymnasium's vector wrappers (``RecordVideo``, ``HumanRendering``) check for.
    """


Sequence.register(Frames)


class PoolOwner:
    """Owns one C++ pool built from an ``EnvSpec``; every API face derives from it.

    The gymnasium, gym and dm faces, the EnvPool layer's pools and the SB3 ``VecEnv``
    build their pool with ``_init_pool`` and tear it down with ``_close_pool`` (both
    for subclasses); ``send``, ``async_reset``, ``get_state`` and ``set_state`` are
    the same for every face. The task's methods (``EnvSpec.task_methods``, e.g. a goal
    task's ``compute_reward``) are attributes of every face: ``envs.compute_reward(...)``.
    """

    spec: Any
    config: Any
    num_envs: int
    batch_size: int
    _pool: Any

    def _init_pool(self, spec: EnvSpec, *, export_discount: bool = False) -> None:
        """Build the pool ``spec`` describes; sets ``spec``, ``config``, ``num_envs`` and ``batch_size``.

        ``export_discount`` makes results carry the env's own discount
        (``info["_rlpool_discount"]``) for the dm faces' ``StepTypes``.
        """
        self.spec = spec
        # Kept apart from ``spec``, which gymnasium.make (and the EnvPool layer) replace with their own.
        self._env_spec = spec
        self.config = spec.config
        # The render options, kept apart: a face may show another config (EnvPool's keys, in compat).
        self._render_config = {k: spec.config[k] for k in spec.config if k.startswith("render_")}
        self._pool = new_pool(spec)
        if export_discount:
            self._pool.export_discount = True
        self.num_envs = spec.config["num_envs"]
        self.batch_size = spec.config["batch_size"]

    def _task_methods(self) -> dict[str, Callable[..., Any]]:
        """The task's methods by name (``EnvSpec.task_methods``); empty before ``_init_pool`` has run."""
        spec = self.__dict__.get("_env_spec")  # not getattr: __getattr__ below must not recurse
        return {} if spec is None else spec.task_methods

    def __getattr__(self, name: str) -> Any:
        """A task method by name (``envs.compute_reward(...)``); any other missing attribute is an AttributeError."""
        if not name.startswith("_"):
            method = self._task_methods().get(name)
            if method is not None:
                return method
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}", name=name, obj=self)

    def send(self, action: Any, env_id: Any = None) -> None:
        """Queue one action per env in ``env_id`` (default: all envs) and return at once."""
        self._pool.send(action, env_id)

    def async_reset(self) -> None:
        """Start resetting every env; collect the first observations with ``recv()``."""
        self._pool.async_reset()

    def get_state(self, env_id: int) -> bytes:
        """Snapshot of env ``env_id``'s dynamic state (family-specific bytes)."""
        return self._pool.get_state(env_id)

    def set_state(self, env_id: int, state: bytes) -> None:
        """Restore env ``env_id`` from ``get_state`` bytes; its next step continues from there."""
        self._pool.set_state(env_id, state)

    def render(self, env_ids: Any = None, camera_id: int | None = None) -> Frames | None:
        """Draw envs ``env_ids`` (default: the ``render_env_id`` option) from camera ``camera_id``.

        With ``render_mode="rgb_array"``: a ``(len(env_ids), render_height, render_width, 3)``
        uint8 array (``Frames``). With ``render_mode="human"``: shows the one env's frame in
        an OpenCV window and returns None.
        """
        config = self._render_config
        mode = config["render_mode"]
        if mode is None:
            raise RuntimeError(
                "render() needs render_mode='rgb_array' or 'human' when the env is made (render_mode is None)"
            )
        ids = env_id_list("env_ids", config["render_env_id"] if env_ids is None else env_ids, self.num_envs)
        camera = config["render_camera_id"] if camera_id is None else check_int("camera_id", camera_id, -1)
        frames = self._pool.render(ids, config["render_width"], config["render_height"], camera)
        if mode == "human":
            if len(ids) != 1:
                raise ValueError(f"render_mode='human' shows one env; got env_ids {ids}")
            self._show(frames[0])
            return None
        return frames.view(Frames)

    def _show(self, frame: np.ndarray) -> None:
        """Show ``frame`` in this pool's OpenCV window (render_mode="human")."""
        try:
            import cv2
        except ImportError as e:
            raise RuntimeError(
                "render_mode='human' needs OpenCV with a GUI: pip install 'rlpool[render]' (opencv-python)"
            ) from e
        name = f"rlpool {self.spec.id}"
        try:
            cv2.imshow(name, np.ascontiguousarray(frame[:, :, ::-1]))  # OpenCV wants BGR
            cv2.waitKey(1)
        except cv2.error as e:
            raise RuntimeError(
                f"render_mode='human' could not open an OpenCV window ({e}); it needs a display and an OpenCV "
                "built with a GUI (opencv-python, not opencv-python-headless)"
            ) from e
        self._window = name

    def _close_pool(self) -> None:
        """Stop the worker threads; calling it again (or after a failed ``_init_pool``) does nothing."""
        window = getattr(self, "_window", None)
        if window is not None:
            self._window = None
            import cv2

            try:
                cv2.destroyWindow(window)
            except cv2.error:
                pass  # already closed by the user
        if hasattr(self, "_pool") and not self._pool.closed:  # no _pool when __init__ failed
            self._pool.close()
