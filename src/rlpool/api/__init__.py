"""The faces a user holds, over a pool's results read as numpy views of its batch buffer.

The gymnasium ``VectorEnv`` (``gymnasium``), the gym-style step (``gym``), dm_env (``dm``), one env
(``single``), and what they share: the spaces and the pool they own (``pool_owner``).
"""
