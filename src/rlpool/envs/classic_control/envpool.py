"""The classic-control tasks through ``rlpool.compat.envpool``: EnvPool 1.2.5's ids of them.

Their results look as EnvPool's do already (no layout); EnvPool also knows CartPole and Pendulum as
``phys2d/...``, and ``Pendulum-v0`` is its name of the v1 dynamics.
"""

from __future__ import annotations

from rlpool.compat.envpool.layouts import register_ids

register_ids({
    "phys2d/CartPole-v0": ("CartPole-v0", {}),
    "phys2d/CartPole-v1": ("CartPole-v1", {}),
    "Pendulum-v0": ("Pendulum-v1", {}),
    "phys2d/Pendulum-v0": ("Pendulum-v1", {}),
})
