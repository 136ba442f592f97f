"""Environments written in Python that the pool runs at native speed, with the GIL released.

Write ``reset`` and ``step`` as plain Python functions over numpy arrays and
register them::

    import numpy as np
    from gymnasium import spaces
    from rlpool import python_env

    @python_env.register(
        "Drift-v0",
        obs=spaces.Box(-10.0, 10.0, (1,), np.float32),
        action=spaces.Discrete(2),
        state=1,                      # one float64
        options={"speed": 0.1},       # make("Drift-v0", speed=0.2) overrides it
        max_episode_steps=100,
    )
    class Drift:
        @staticmethod
        def reset(state, obs, rng):
            state[0] = rng.uniform(-1.0, 1.0)
            obs[0] = state[0]

        @staticmethod
        def step(state, action, obs, params):
            state[0] += params.speed if action == 1 else -params.speed
            obs[0] = state[0]
            return 1.0, abs(state[0]) > 10.0      # reward, terminated

    envs = rlpool.make("Drift-v0", num_envs=64)

numba compiles both functions (its nopython subset of Python and NumPy) into
C-callable functions that the C++ env type ``NumbaEnv``
(``envs/python/numba_env.cc``) calls from the pool's worker threads; the
engine does time limits, autoreset, seeding, async batching and every API
exactly as for the built-in envs. A function receives the arguments it names:

- ``state``: the env's own state, an array (``state=4``: float64[4], or a
  numpy array as dtype/shape template) or, for ``state={"name": ...}``, a
  namedtuple of arrays. It persists between calls; ``get_state``/``set_state``
  read and write its bytes.
- ``action`` (step only): an int for ``Discrete`` actions, a float64 array for
  ``Box`` actions.
- ``obs``: where the observation goes: an array (0-d for ``Discrete``: write
  ``obs[()] = value``), a namedtuple of arrays for a ``Dict``, a tuple for a
  ``Tuple``.
- ``info``: a namedtuple of arrays, one per ``info={name: space}`` entry.
- ``rng``: the env's random generator (the engine's, seeded per env):
  ``rng.random()``, ``rng.uniform(low, high)``, ``rng.normal(loc, scale)``,
  ``rng.integers(n)`` / ``rng.integers(low, high)``, ``rng.bits()``.
- ``params``: a namedtuple of the task's ``options`` (bool, int or float).

``step`` returns ``(reward, terminated)``; ``reset`` returns nothing.
Every array index is bounds-checked, so a bad index raises instead of writing
outside the env's own buffers; an exception raised inside ``reset``/``step``
comes out of ``envs.step()`` as a ``RuntimeError`` carrying its type and
message, and that env must be reset before it steps again. Division follows
numpy (``x / 0.0`` is ``inf``, no exception).

Compiled code is cached on disk (``cache_dir()``, override with the
``RLPOOL_CACHE_DIR`` environment variable), keyed by the source files of the
functions and of the jitted helpers they call, so a second process registers
the same env without compiling. ``reference(task_id)`` runs the same
functions as plain Python, one env, for debugging and testing.

The implementation lives in ``rlpool.envs.python``, beside the C++ env type
it drives; this module is its public face and re-exports:

- ``register``, ``task_info`` (``envs/python/tasks.py``: registration);
- ``PythonTask``, ``RESET_ARGUMENTS``, ``STEP_ARGUMENTS``
  (``envs/python/declare.py``: spaces to engine arrays, the ``_spec`` text);
- ``CompileError``, ``cache_dir``, ``clear_cache``
  (``envs/python/compiler.py``: compilation and its disk cache; the wrapper
  module it compiles comes from ``envs/python/codegen.py``);
- ``Rng``, ``ReferenceEnv``, ``reference`` (``envs/python/reference.py``).
"""

from __future__ import annotations

from rlpool.envs.python.compiler import CompileError, cache_dir, clear_cache
from rlpool.envs.python.declare import RESET_ARGUMENTS as RESET_ARGUMENTS  # public, not in __all__ (as before)
from rlpool.envs.python.declare import STEP_ARGUMENTS as STEP_ARGUMENTS
from rlpool.envs.python.declare import PythonTask
from rlpool.envs.python.reference import ReferenceEnv, Rng, reference
from rlpool.envs.python.tasks import register, task_info

__all__ = [
    "CompileError",
    "PythonTask",
    "ReferenceEnv",
    "Rng",
    "cache_dir",
    "clear_cache",
    "reference",
    "register",
    "task_info",
]
