"""The toy-text tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's Blackjack observation and ids.

EnvPool gives Blackjack's observation, a tuple of three Discrete values in rlpool and gymnasium, as one
int32 vector (``Box(0, 31, (3,))``), and knows CliffWalking and Blackjack as ``tabular/...-v0`` too.
"""

from __future__ import annotations

from rlpool.compat.envpool.layouts import FamilyLayout, TupleAsInt32Box, register_ids, register_layout

_BLACKJACK = TupleAsInt32Box()


@register_layout
def _layout(task_id: str, env_type: str) -> FamilyLayout | None:
    return _BLACKJACK if env_type == "Blackjack" else None


register_ids({
    "tabular/CliffWalking-v0": ("CliffWalking-v1", {}),
    "tabular/Blackjack-v0": ("Blackjack-v1", {}),
})
