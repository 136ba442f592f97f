"""Settings for the gymnasium-robotics tests: the reference's maze files kept out of the system temp dir."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="module")
def _maze_files_in_a_removed_folder() -> Iterator[None]:
    """gymnasium-robotics' maze envs (maze_v4.py) write ``ant_maze<time>.xml`` into the parent of a
    ``TemporaryDirectory`` -- the temp dir itself -- and never remove it: one file per reference env made.

    Point ``tempfile.tempdir`` at a folder removed when each test module ends, so the tests leave nothing behind
    (per module, not per session: later modules in the same process look for their own files in the temp dir).
    """
    with tempfile.TemporaryDirectory(prefix="rlpool-tests-robotics-") as folder:
        previous = tempfile.tempdir
        tempfile.tempdir = folder
        try:
            yield
        finally:
            tempfile.tempdir = previous
