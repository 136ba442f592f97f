"""Minigrid (minigrid 3.2.0's MiniGrid-* and BabyAI-* tasks) in C++.

``decode_mission`` turns the ``mission`` observation (UTF-8 bytes, zero-padded
to ``mission_bytes``) back into text; ``rlpool.envs.minigrid.state`` builds a
state blob from a live minigrid env (``set_state``) and reads one back.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["decode_mission", "encode_mission"]


def _row_text(row: np.ndarray) -> str:
    raw = row.tobytes()
    end = raw.find(b"\0")
    return (raw if end < 0 else raw[:end]).decode("utf-8", errors="replace")


def decode_mission(mission: Any) -> Any:
    """The mission text of a ``mission`` observation.

    One env's array (shape ``(mission_bytes,)``) gives a ``str``; a batch
    (``(num_envs, mission_bytes)``, or more leading axes) gives a numpy array of
    ``str`` (dtype object) of the leading shape.
    """
    arr = np.asarray(mission)
    if arr.dtype != np.uint8:
        raise TypeError(f"decode_mission expects a uint8 array, got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError("decode_mission expects an array of at least one dimension (the mission bytes)")
    if arr.ndim == 1:
        return _row_text(arr)
    flat = arr.reshape(-1, arr.shape[-1])
    out = np.empty(flat.shape[0], dtype=object)
    for i, row in enumerate(flat):
        out[i] = _row_text(row)
    return out.reshape(arr.shape[:-1])


def encode_mission(text: str, mission_bytes: int = 96) -> np.ndarray:
    """The ``mission`` observation of ``text``: its UTF-8 bytes, zero-padded (or cut) to ``mission_bytes``."""
    data = text.encode("utf-8")[:mission_bytes]
    out = np.zeros(mission_bytes, dtype=np.uint8)
    out[: len(data)] = np.frombuffer(data, dtype=np.uint8)
    return out
