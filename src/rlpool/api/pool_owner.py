"""What every API face of a pool shares: the pool itself and the calls that don't depend on the API."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rlpool.backends import new_pool
from rlpool.extras import install_hint
from rlpool.options import check_int, env_id_list
from rlpool.spec import EnvSpec


class Frames(np.ndarray):
    """What ``render()`` returns: a ``(len(env_ids), height, width, 3)`` uint8 array of RGB frames.

    A plain ndarray that also counts as a ``Sequence`` of frames, which is what
    gymnasium's vector wrappers (``RecordVideo``, ``HumanRendering``) check for.
    """


Sequence.register(Frames)


ASYNC_STEP_NEEDS_ENV_ID = "env_id is required while some envs are in flight"
"""The start of the pool's error for a step without ``env_id`` while envs are in flight (every backend's)."""


def _calling_vector_wrapper() -> str | None:
    """The class name of the innermost gymnasium vector wrapper among the calling frames, if any."""
    try:
        from gymnasium.vector import VectorWrapper
    except ImportError:  # pragma: no cover - gymnasium is a dependency
        return None
    frame = sys._getframe(2)
    while frame is not None:
        caller = frame.f_locals.get("self")
        if isinstance(caller, VectorWrapper):
            return type(caller).__name__
        frame = frame.f_back
    return None


def _has_display() -> bool:
    """Whether a window can open: on Linux and other X11/Wayland systems a display must be set; elsewhere yes."""
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


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

    def _async_step_error(
        self, error: ValueError, env_id: Any, ids_from: str = "info['env_id']"
    ) -> ValueError | None:
        """The clearer error for ``step(actions)`` without ``env_id`` on an async pool, else None.

        Called only once the pool has refused a step (never on a step that works): an async pool's results
        are ``batch_size`` rows of whichever envs finished first, so a step must say which envs its actions
        are for. Where the caller is one of gymnasium's vector wrappers (found in the calling frames), the
        error names it: those wrappers keep per-row state, so they need a sync pool. ``ids_from`` says where
        this face's results carry their env ids.
        """
        if env_id is not None or self.batch_size == self.num_envs or ASYNC_STEP_NEEDS_ENV_ID not in str(error):
            return None
        message = (
            f"this pool is async (batch_size={self.batch_size} < num_envs={self.num_envs}): each result holds "
            f"the {self.batch_size} envs that finished first, so step(actions) needs env_id={ids_from} of "
            "the last result (the envs the actions are for), or use send(actions, env_id) and recv()"
        )
        wrapper = _calling_vector_wrapper()
        if wrapper is not None:
            message += (
                f". It was called by gymnasium's vector wrapper {wrapper}: gymnasium's vector wrappers assume a "
                f"sync pool, whose rows are always envs 0..num_envs-1; make the pool with "
                f"batch_size=num_envs ({self.num_envs})"
            )
        return ValueError(message)

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
        an OpenCV window and returns None (where no window can open, a warning once, and no frame shown).
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
        """Show ``frame`` in this pool's OpenCV window (render_mode="human").

        Where no window can open (no display, or an OpenCV built without a GUI, such as
        opencv-python-headless), the frame is not shown and a RuntimeWarning says why, once per pool: as
        gymnasium's own envs, whose human mode runs headless without a window. Without OpenCV at all it
        raises, naming what to install (as gymnasium's envs raise without pygame).
        """
        if getattr(self, "_no_window", False):
            return
        if not _has_display():
            self._skip_window("no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)")
            return
        try:
            import cv2
        except ImportError as e:
            hint = install_hint("render", "opencv-python")
            raise RuntimeError(f"render_mode='human' needs OpenCV with a GUI: {hint}") from e
        name = f"rlpool {self.spec.id}"
        try:
            cv2.imshow(name, np.ascontiguousarray(frame[:, :, ::-1]))  # OpenCV wants BGR
            cv2.waitKey(1)
        except cv2.error as e:
            self._skip_window(
                f"OpenCV could not open a window ({str(e).strip()}); it needs an OpenCV built with a GUI "
                "(opencv-python, not opencv-python-headless)"
            )
            return
        self._window = name

    def _skip_window(self, why: str) -> None:
        """Stop showing frames in human mode, with one RuntimeWarning saying why."""
        self._no_window = True
        warnings.warn(
            f"render_mode='human' shows no window: {why}; frames are not shown (render_mode='rgb_array' "
            "returns them)",
            RuntimeWarning,
            stacklevel=4,
        )

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
