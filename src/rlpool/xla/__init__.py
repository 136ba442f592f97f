"""Stepping a pool from inside ``jax.jit``: ``env.xla()`` returns ``(handle, recv, send, step)``.

EnvPool's XLA interface, over rlpool's engine::

    handle, recv, send, step = env.xla()

    def body(carry, _):
        handle, obs = carry
        action = policy(obs)
        handle, (obs, reward, terminated, truncated, info) = step(handle, action)
        return (handle, obs), reward

    jax.jit(lambda h, o: jax.lax.scan(body, (h, o), length=1000))(handle, obs)

* ``handle`` is a uint8 array naming the pool (its address and a serial the engine checks against its
  registry of live pools: a handle of a closed pool is an error, never a crash). Thread it through the
  calls: every ``send``/``recv`` takes it and returns it, which orders the calls inside a computation.
* ``send(handle, action, env_id=None) -> handle`` queues one action per env in ``env_id`` (default: all
  envs; required while envs are in flight in async mode); ``recv(handle) -> (handle, result)`` waits for
  the next batch; ``step(handle, action, env_id=None)`` is ``recv(send(...))``.
* ``result`` is what the env's own ``step`` returns for this face, as jax arrays: for the gymnasium face
  ``(obs, reward, terminated, truncated, info)`` with ``info`` holding ``env_id``, ``elapsed_step`` and the
  task's entries (with ``autoreset_mode="SameStep"`` also ``final_obs`` and ``final_info``, dense: the rows
  of envs whose episode ended hold their last observation/info, the others zeros). 64-bit fields come as
  32 bits unless ``jax_enable_x64`` is on (jax's own rule): rewards are float32 by default, and so are
  continuous actions (the env receives the float32 value, widened).
* Errors inside a call (a bad action, an env id in flight, a stale handle) come out as Python exceptions
  (jax's ``JaxRuntimeError``) when the computation's results are read.

Sync and async pools, every family. ``recv``/``send`` are XLA FFI custom calls for the **CPU** platform
(run the jitted function on a CPU device). While a jitted call is inside ``recv``, Ctrl-C waits for it to
return. jax is an optional extra (rlpool's ``jax`` extra). How the handlers are compiled:
``rlpool.xla._build``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from rlpool.arrays import DTYPES, Arrays, nest
from rlpool.extras import install_hint

__all__ = ["make_xla"]


def _jax() -> Any:
    try:
        import jax
    except ImportError as e:
        raise ImportError(
            f"xla() needs jax (with jaxlib): {install_hint('jax', 'jax>=0.10')}"
        ) from e
    return jax


def make_xla(
    pool: Any,
    arrays: Arrays,
    convert: Callable[..., Any] | None = None,
) -> tuple[np.ndarray, Callable, Callable, Callable]:
    """``(handle, recv, send, step)`` for the engine pool ``pool`` whose task writes ``arrays``.

    ``convert(obs, reward, terminated, truncated, info)`` shapes what ``recv`` returns after the handle
    (default: that tuple). Faces call this from their ``xla()``.
    """
    jax = _jax()
    import jax.numpy as jnp

    from rlpool.xla import _build

    _build.register()
    if pool.closed:
        raise RuntimeError("xla() on a closed env")
    fields = [(name, DTYPES[dtype], tuple(shape)) for name, dtype, shape in pool.fields()]
    rows = pool.batch_size
    num_envs = pool.num_envs
    n_obs, n_info = len(arrays.obs), len(arrays.info)
    same_step = len(fields) >= 2 * n_obs + 6 + 2 * n_info
    out_types = tuple(
        jax.ShapeDtypeStruct((rows, *shape), jax.dtypes.canonicalize_dtype(dtype)) for _, dtype, shape in fields
    )
    handle = np.frombuffer(pool.xla_handle(), dtype=np.uint8).copy()
    handle_type = jax.ShapeDtypeStruct(handle.shape, np.uint8)
    recv_call = jax.ffi.ffi_call(
        _build.RECV_TARGET, (handle_type, *out_types), has_side_effect=True, input_output_aliases={0: 0}
    )
    step_call = jax.ffi.ffi_call(
        _build.STEP_TARGET, (handle_type, *out_types), has_side_effect=True, input_output_aliases={0: 0}
    )
    send_call = jax.ffi.ffi_call(
        _build.SEND_TARGET, handle_type, has_side_effect=True, input_output_aliases={0: 0}
    )
    action_spec = arrays.action
    discrete = arrays.discrete_action
    all_ids = np.arange(num_envs, dtype=np.int32)

    def obs_of(values: list[Any]) -> Any:
        if arrays.obs_kind == "array":
            return values[0]
        if arrays.obs_kind == "tuple":
            return tuple(values)
        return nest((a.name, v) for a, v in zip(arrays.obs, values, strict=True))  # "outer.inner": nested

    def infos(values: list[Any], elapsed: Any) -> dict[str, Any]:
        # Every info field comes back; the hidden ("_"-named) ones are left out, as the other faces do.
        shown = {a.name: v for a, v in zip(arrays.info, values, strict=True) if not a.name.startswith("_")}
        return {"elapsed_step": elapsed, **shown}

    def checked(handle: Any) -> Any:
        handle = jnp.asarray(handle)
        if handle.shape != handle_type.shape or handle.dtype != np.uint8:
            raise TypeError(
                f"handle must be the uint8{list(handle_type.shape)} array xla() returned, "
                f"got {handle.dtype}{list(handle.shape)}"
            )
        return handle

    def unpack(out: Any) -> tuple[Any, Any]:
        new_handle, values = out[0], list(out[1:])
        k = n_obs
        info = {"env_id": values[k + 3], **infos(values[k + 5 : k + 5 + n_info], values[k + 4])}
        if same_step:
            f = k + 5 + n_info
            info["final_obs"] = obs_of(values[f : f + n_obs])
            info["final_info"] = infos(values[f + n_obs + 1 : f + n_obs + 1 + n_info], values[f + n_obs])
        result = (obs_of(values[:k]), values[k], values[k + 1], values[k + 2], info)
        return new_handle, (convert(*result) if convert is not None else result)

    def recv(handle: Any) -> tuple[Any, Any]:
        """Wait for the next batch: ``(handle, result)``."""
        return unpack(recv_call(checked(handle)))

    def send_args(handle: Any, action: Any, env_id: Any) -> tuple[Any, Any, Any]:
        action = jnp.asarray(action)
        if discrete:
            if not jnp.issubdtype(action.dtype, jnp.integer):
                raise TypeError(f"discrete actions must be integers, got dtype {action.dtype}")
            if action.dtype not in (jnp.int32, jnp.int64):
                action = action.astype(jnp.int32)
        else:
            if not jnp.issubdtype(action.dtype, jnp.floating):
                raise TypeError(f"continuous actions must be floats, got dtype {action.dtype}")
            if action.dtype not in (jnp.float32, jnp.float64):
                action = action.astype(jnp.float32)
        ids = all_ids if env_id is None else jnp.asarray(env_id)
        if ids.ndim != 1 or not jnp.issubdtype(ids.dtype, jnp.integer):
            raise TypeError(f"env_id must be a 1-D integer array, got shape {ids.shape} dtype {ids.dtype}")
        expected = (ids.shape[0], *action_spec.shape)
        if tuple(action.shape) != expected:
            raise ValueError(f"actions must have shape {expected}, got {tuple(action.shape)}")
        return checked(handle), action, jnp.asarray(ids, dtype=jnp.int32)

    def send(handle: Any, action: Any, env_id: Any = None) -> Any:
        """Queue one action per env in ``env_id`` (default: all); returns the handle."""
        return send_call(*send_args(handle, action, env_id))

    def step(handle: Any, action: Any, env_id: Any = None) -> tuple[Any, Any]:
        """``recv(send(handle, action, env_id))``, as one custom call."""
        return unpack(step_call(*send_args(handle, action, env_id)))

    return handle, recv, send, step
