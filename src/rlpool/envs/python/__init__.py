"""Envs written in Python: the generic NumbaEnv C++ type runs functions numba compiled (see rlpool.python_env)."""
