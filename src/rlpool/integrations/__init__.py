"""Adapters that hand rlpool's pools to RL libraries (``rlpool.integrations.sb3``: Stable-Baselines3)."""
