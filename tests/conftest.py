"""Session-wide test settings."""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator

import pytest

# MuJoCo's and dm_control's Python renderers, the references for rlpool's MuJoCo frames, draw through the
# same off-screen OpenGL as rlpool (OSMesa): chosen before any test module imports them (dm_control picks
# its backend at import).
os.environ.setdefault("MUJOCO_GL", "osmesa")

# The Ctrl-C tests send SIGINT to child Pythons. Started in the background by a script (`cmd &`) or
# under nohup, pytest inherits SIGINT ignored, every child would inherit that, and Python keeps an
# inherited SIG_IGN: the children would never see a KeyboardInterrupt. A handled signal is reset to the
# default in an exec'd child, which then installs Python's usual handler.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_a_removed_folder() -> Iterator[None]:
    """Stable-Baselines3's default logger makes an ``SB3-<timestamp>`` folder in the temp dir per model.

    Point it (``SB3_LOGDIR``) at a folder that is removed when the session ends, so tests leave nothing behind.
    """
    with tempfile.TemporaryDirectory(prefix="rlpool-tests-sb3-") as folder:
        previous = os.environ.get("SB3_LOGDIR")
        os.environ["SB3_LOGDIR"] = folder
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop("SB3_LOGDIR", None)
            else:
                os.environ["SB3_LOGDIR"] = previous
