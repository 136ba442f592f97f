"""Box2D: LunarLander, BipedalWalker and CarRacing as gymnasium 1.x defines them, on the real Box2D.

Box2D 2.3 (C++) is compiled by rlpool's build from box2d-py's source distribution
(see ``family.cmake``); the task logic is C++ (``*.cc`` here). EnvPool 1.2.5's
``-v2`` ids are kept with EnvPool's spaces.
"""

from __future__ import annotations

from rlpool import _rlpool_core
from rlpool.registry import register

_COMPILED = {name for name, _, _ in _rlpool_core.env_types()}

if "LunarLander" in _COMPILED:
    register("LunarLander-v3", "LunarLander", max_episode_steps=1000, reward_threshold=200.0)
    register("LunarLanderContinuous-v3", "LunarLander", max_episode_steps=1000, reward_threshold=200.0,
             continuous=True)
    # EnvPool 1.2.5's ids: the same dynamics, its unbounded observation space.
    register("LunarLander-v2", "LunarLander", max_episode_steps=1000, reward_threshold=200.0,
             gymnasium_id="LunarLander-v3", unbounded_observation=True)
    register("LunarLanderContinuous-v2", "LunarLander", max_episode_steps=1000, reward_threshold=200.0,
             gymnasium_id="LunarLanderContinuous-v3", continuous=True, unbounded_observation=True)

if "BipedalWalker" in _COMPILED:
    register("BipedalWalker-v3", "BipedalWalker", max_episode_steps=1600, reward_threshold=300.0)
    register("BipedalWalkerHardcore-v3", "BipedalWalker", max_episode_steps=2000, reward_threshold=300.0,
             hardcore=True)

if "CarRacing" in _COMPILED:
    register("CarRacing-v3", "CarRacing", max_episode_steps=1000, reward_threshold=900.0)
    # EnvPool 1.2.5's id: the same dynamics and spaces.
    register("CarRacing-v2", "CarRacing", max_episode_steps=1000, reward_threshold=900.0,
             gymnasium_id="CarRacing-v3")
