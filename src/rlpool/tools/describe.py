"""``describe(spec)``: a plain-text description of one configured task.

What ``EnvSpec.describe()`` returns and ``rlpool list --options TASK`` prints.
"""

from rlpool.tools.docgen import describe

__all__ = ["describe"]
