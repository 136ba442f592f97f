"""Envs written in Python: the generic NumbaEnv C++ type runs functions numba compiled.

Users import ``rlpool.python_env``, which re-exports the public names of:

- ``declare``: declaring a task: gymnasium spaces and state declarations to
  engine arrays, argument checks, the ``_spec`` text (``PythonTask``);
- ``codegen``: the wrapper module numba compiles into the two C-callable
  functions (the argument slots of ``numba_env.cc``);
- ``compiler``: compilation, its disk cache (``cache_dir``) and ``CompileError``;
- ``tasks``: ``register``, the table of registered tasks and ``task_info``;
- ``reference``: the same functions run as plain Python (``Rng``, ``ReferenceEnv``);
- ``_numba``: numba extensions the compiled wrappers use (the ``rng`` type,
  error capture, result checks);
- ``registration``: the family's built-in tasks (none);
- ``numba_env.cc``: the C++ env type ``NumbaEnv``.

Importing this package (as ``import rlpool`` does, for ``registration``) loads
none of these modules: numba is imported only when a task is compiled.
"""
