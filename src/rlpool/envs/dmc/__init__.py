"""DeepMind Control Suite tasks (dm_control 1.0.50's ``suite.ALL_TASKS``), in C++ on libmujoco.

The task logic -- initial states, observations, rewards, termination -- is C++
(one file per domain here). The models are dm_control's own: when a task is
made, dm_control 1.0.50 builds it (``suite.load``), exactly as a dm_control
user gets it, and its compiled model is saved once as an MJB file in rlpool's
cache (``$RLPOOL_CACHE_DIR/dmc``), which the C++ envs load. That dm_control is
the installed one, or, where it is not installed, a copy of its wheel that
rlpool fetches as a file into the same cache (``suite_source``).
"""
