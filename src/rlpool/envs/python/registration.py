"""No built-in tasks: Python-written tasks register themselves through ``rlpool.python_env.register``."""
