"""Toy text: gymnasium 1.x's FrozenLake, Taxi, CliffWalking and Blackjack; bsuite's Catch; gym 0.21's NChain.

Episode limits are gymnasium's (its registry) or, where gymnasium sets none
(CliffWalking, Blackjack) or has no such task (Catch), EnvPool's: 2**31 - 1.
"""

from rlpool.registry import register

NO_LIMIT = 2**31 - 1  # EnvPool's max_episode_steps for tasks without a time limit

register("Catch-v0", "Catch", max_episode_steps=NO_LIMIT)
register("FrozenLake-v1", "FrozenLake", max_episode_steps=100, reward_threshold=0.7, map_name="4x4")
register("FrozenLake8x8-v1", "FrozenLake", max_episode_steps=200, reward_threshold=0.85, map_name="8x8")
register("Taxi-v3", "Taxi", max_episode_steps=200, reward_threshold=8.0)
register("NChain-v0", "NChain", max_episode_steps=1000)
register("CliffWalking-v0", "CliffWalking", max_episode_steps=NO_LIMIT)  # EnvPool's id
register("CliffWalking-v1", "CliffWalking", max_episode_steps=NO_LIMIT)
register("CliffWalkingSlippery-v1", "CliffWalking", max_episode_steps=NO_LIMIT, is_slippery=True)
register("Blackjack-v1", "Blackjack", max_episode_steps=NO_LIMIT, natural=False, sab=True)
