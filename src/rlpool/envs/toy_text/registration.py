"""Toy text: gymnasium 1.x's FrozenLake, Taxi, CliffWalking and Blackjack; bsuite's Catch; gym 0.21's NChain.

Episode limits are gymnasium's (its registry) or, where gymnasium sets none
(CliffWalking, Blackjack) or has no such task (Catch), EnvPool's: 2**31 - 1.
"""

from __future__ import annotations

from rlpool import images
from rlpool.registry import register

NO_LIMIT = 2**31 - 1  # EnvPool's max_episode_steps for tasks without a time limit
# FrozenLake, Taxi and CliffWalking draw gymnasium's own images (rlpool.images).
IMAGES = images.prepare("envs/toy_text/img")

register("Catch-v0", "Catch", max_episode_steps=NO_LIMIT)
register("FrozenLake-v1", "FrozenLake", max_episode_steps=100, reward_threshold=0.7, map_name="4x4", prepare=IMAGES)
register("FrozenLake8x8-v1", "FrozenLake", max_episode_steps=200, reward_threshold=0.85, map_name="8x8", prepare=IMAGES)
register("Taxi-v4", "Taxi", max_episode_steps=200, reward_threshold=8.0, prepare=IMAGES)
# gymnasium 1.2's id (EnvPool's too): the same without rain; with is_rainy, gymnasium 1.2's drift rules.
register("Taxi-v3", "Taxi", max_episode_steps=200, reward_threshold=8.0, gymnasium_id="Taxi-v4", _rain_v3=True,
         prepare=IMAGES)
register("NChain-v0", "NChain", max_episode_steps=1000)
# EnvPool's id; gymnasium 1.x has these dynamics as CliffWalking-v1 (its v0 is deprecated).
register("CliffWalking-v0", "CliffWalking", max_episode_steps=NO_LIMIT, gymnasium_id="CliffWalking-v1", prepare=IMAGES)
register("CliffWalking-v1", "CliffWalking", max_episode_steps=NO_LIMIT, prepare=IMAGES)
register("CliffWalkingSlippery-v1", "CliffWalking", max_episode_steps=NO_LIMIT, is_slippery=True, prepare=IMAGES)
register("Blackjack-v1", "Blackjack", max_episode_steps=NO_LIMIT, natural=False, sab=True, prepare=IMAGES)
