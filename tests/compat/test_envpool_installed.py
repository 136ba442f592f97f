"""The EnvPool comparisons must not skip silently where EnvPool can be installed.

The test extra installs EnvPool 1.2.5 on CPython 3.11+ on Linux x86-64 (where it has wheels); there, a
missing EnvPool would turn every side-by-side comparison into a skip, so this test fails instead.
"""

import importlib.util
import platform
import sys

import pytest

HAS_WHEEL = sys.version_info >= (3, 11) and sys.platform == "linux" and platform.machine() == "x86_64"


@pytest.mark.skipif(not HAS_WHEEL, reason="EnvPool 1.2.5 has no wheel for this platform")
def test_envpool_is_installed_where_it_has_a_wheel() -> None:
    assert importlib.util.find_spec("envpool") is not None, (
        "envpool is not installed: `pip install -e '.[test]'` brings envpool==1.2.5 on this platform, "
        "and without it the EnvPool comparisons skip"
    )
