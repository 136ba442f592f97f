"""Environment families. Importing this registers every task id."""

from rlpool.envs.classic_control import registration as _classic_control  # noqa: F401
