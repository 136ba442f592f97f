"""Environment families. Importing this registers every task id."""

from rlpool.envs.classic_control import registration as _classic_control  # noqa: F401
from rlpool.envs.testing import registration as _testing  # noqa: F401
