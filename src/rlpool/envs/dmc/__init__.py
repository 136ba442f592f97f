"""DeepMind Control Suite tasks (dm_control 1.0.50's ``suite.ALL_TASKS``), in C++ on libmujoco.

The task logic -- initial states, observations, rewards, termination -- is C++
(one file per domain here). The models are dm_control's own: when a task is
made, the installed dm_control builds it (``suite.load``), exactly as a
dm_control user gets it, and its compiled model is saved once as an MJB file in
rlpool's cache (``$RLPOOL_CACHE_DIR/dmc``), which the C++ envs load.
"""
