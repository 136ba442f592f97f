"""Session-wide test settings."""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator

import pytest
from lane import CI, DAY, FULL, osmesa_missing, require

# MuJoCo's and dm_control's Python renderers, the references for rlpool's MuJoCo frames, draw through the
# same off-screen OpenGL as rlpool (OSMesa): chosen before any test module imports them (dm_control picks
# its backend at import), and only where libOSMesa loads (with MUJOCO_GL=osmesa and no library, importing
# dm_control fails inside PyOpenGL; the rendering tests skip, naming the package).
if osmesa_missing() is None:
    os.environ.setdefault("MUJOCO_GL", "osmesa")

# The Ctrl-C tests send SIGINT to child Pythons. Started in the background by a script (`cmd &`) or
# under nohup, pytest inherits SIGINT ignored, every child would inherit that, and Python keeps an
# inherited SIG_IGN: the children would never see a KeyboardInterrupt. A handled signal is reset to the
# default in an exec'd child, which then installs Python's usual handler.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def osmesa() -> None:
    """For a test that renders MuJoCo frames: libOSMesa must load (else a skip naming the package; in CI a failure)."""
    require(osmesa_missing())


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


def _missing_reference(report: pytest.CollectReport | pytest.TestReport) -> bool:
    """A skip because a Python package did not import (``pytest.importorskip``)."""
    return report.skipped and "could not import" in str(report.longrepr)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[pytest.CollectReport]:
    """In CI, which installs the whole test extra, a module skipped for a missing package fails."""
    report = yield
    if CI and _missing_reference(report):
        report.outcome = "failed"
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    """In CI, a test skipped for a missing package fails."""
    report = yield
    if CI and _missing_reference(report):
        report.outcome = "failed"
    return report


# The longest test files (measured on 2 cores, in either lane) run first: the two workers take whole files
# (xdist's loadfile), and a long file begun last would leave one of them alone at the end.
LONGEST_FIRST = (
    "tests/envs/atari/test_atari_all_games.py", "tests/envs/myosuite/test_myosuite_parity.py",
    "tests/core/test_soak.py", "tests/envs/dmc/test_dmc.py", "tests/envs/minigrid/test_babyai.py",
    "tests/envs/minigrid/test_minigrid.py", "tests/envs/metaworld/test_metaworld_parity.py",
    "tests/backends/test_ray.py", "tests/tools/test_docgen.py", "tests/api/test_bad_states.py",
    "tests/envs/metaworld/test_metaworld_distributions.py", "tests/envs/box2d/test_box2d_car_racing.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the files of ``LONGEST_FIRST`` first, in that order (the others keep theirs)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say which lane ran: the reference comparisons in full, or on a sample."""
    if FULL:
        terminalreporter.write_line(f"lane: every reference comparison in full (RLPOOL_FULL_REFERENCE=1), "
                                    f"today's slices of the rotations: RLPOOL_TEST_DAY={DAY}")
    else:
        terminalreporter.write_line(
            "lane: default, each family compared with its reference on a sample; RLPOOL_FULL_REFERENCE=1 (as in CI) "
            "runs every comparison in full"
        )
