"""Where dm_control 1.0.50's suite comes from (``rlpool.envs.dmc.suite_source``): installed, or its wheel as a file.

The fetch is tested without network, on a stand-in wheel whose pins the test patches in (a ``dm_control``
package whose ``suite.load`` builds a two-body model, and a ``locomotion`` that must not be unpacked): fetched
with pip from a local folder by processes at once, unpacked, imported and compiled, in this process and in a
child Python (another dm_control installed); what its errors say, a file that differs from the wheel's RECORD,
a copy without its marker, another dm_control already imported. What every pinned wheel's fetch does (a wheel
of another sha256, no pip, threads at once, ...) is tested once, in ``tests/core/test_pinned_wheel.py``.
dm_control being missing is simulated by patching ``installed_version``, in child Pythons where this one has
imported it.
The real wheel (fetched once into the cache; where that is impossible, offline, these tests skip naming
dm-control, and in CI fail) must give the installed dm_control's compiled models byte for byte.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import mujoco
import pytest
from lane import require
from stand_in_wheels import left_beside, make_wheel, must_not_download, offline_cache, sha256

from rlpool import pinned_wheel
from rlpool.envs.dmc import registration, suite_source

VERSION = suite_source.VERSION
FOLDER = f"dm_control-{VERSION}"

STAND_IN_SUITE = '''
import types
import mujoco
ALL_TASKS = (("cheetah", "run"),)
XML = '<mujoco model="stand-in"><worldbody><body name="b1"><freejoint/><geom size=".1"/></body></worldbody></mujoco>'
def load(domain, task, task_kwargs=None):
    physics = types.SimpleNamespace(model=types.SimpleNamespace(ptr=mujoco.MjModel.from_xml_string(XML)))
    return types.SimpleNamespace(physics=physics)
'''


def stand_in_wheel(folder: Path, tamper: str | None = None) -> Path:
    """A wheel named as the pinned one: a stand-in dm_control whose suite builds a two-body model.

    ``tamper``: a file whose content then differs from its sha256 in the RECORD.
    """
    dist = f"dm_control-{VERSION}.dist-info"
    files = {
        "dm_control/__init__.py": "",
        "dm_control/suite/__init__.py": STAND_IN_SUITE,
        "dm_control/locomotion/__init__.py": "import labmaze\n",
        f"{dist}/licenses/LICENSE": "Apache License 2.0 (stand-in)\n",
        f"{dist}/licenses/AUTHORS": "stand-in\n",
    }
    return make_wheel(folder, suite_source.WHEEL, files, tamper)


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache and a pip that finds nothing (no index; links only where a test adds them): the cache root."""
    return offline_cache(tmp_path, monkeypatch)


def leftovers(cache: Path) -> list[str]:
    """What a fetch left in the cache's dmc folder besides the copy, its lock and compiled models."""
    return [name for name in left_beside(cache / "dmc" / FOLDER) if not name.endswith(".mjb")]


def child(script: str, *args: str) -> str:
    """Run ``script`` in a child Python (this environment) with ``args``; its stdout (stderr on failure)."""
    out = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


# --- the fetch, without network ------------------------------------------------------------------------------


def test_unfetchable_wheel_raises_a_clear_error(offline: Path) -> None:
    with pytest.raises(suite_source.DmControlUnavailableError) as e:
        suite_source.unpacked_folder()
    message = str(e.value)
    for part in ("dm-control==1.0.50", "not installed", "could not be fetched", "No matching distribution",
                 "pip download", "pip install 'dm-control==1.0.50' (rlpool's dmc extra: pip install '.[dmc]'",
                 "lxml", suite_source.WHEEL):
        assert part in message, part
    assert isinstance(e.value, ImportError)
    assert not (offline / "dmc" / FOLDER).exists() and leftovers(offline) == []


def test_a_file_that_differs_from_the_record_is_refused(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wheel = stand_in_wheel(offline, tamper="dm_control/suite/__init__.py")
    monkeypatch.setattr(suite_source, "WHEEL_SHA256", sha256(wheel))
    with pytest.raises(suite_source.DmControlUnavailableError,
                       match=r"dm_control/suite/__init__\.py differs from its sha256 in the wheel's RECORD"):
        suite_source.unpacked_folder()
    assert not (offline / "dmc" / FOLDER).exists() and leftovers(offline) == []


def test_a_wheel_in_the_cache_is_unpacked_and_a_damaged_copy_replaced(offline: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    wheel = stand_in_wheel(offline)
    monkeypatch.setattr(suite_source, "WHEEL_SHA256", sha256(wheel))
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    folder = suite_source.unpacked_folder()
    assert folder == offline / "dmc" / FOLDER
    assert sorted(p.name for p in folder.iterdir()) == ["AUTHORS", "LICENSE", suite_source.MARKER, "dm_control"]
    assert sorted(p.name for p in (folder / "dm_control").iterdir()) == ["__init__.py", "suite"]  # no locomotion
    (folder / suite_source.MARKER).unlink()  # as an unpacking cut short would leave it: not used, replaced
    (folder / "dm_control" / "suite" / "__init__.py").write_text("damaged")
    assert suite_source.unpacked_folder() == folder
    assert (folder / "dm_control" / "suite" / "__init__.py").read_text() == STAND_IN_SUITE
    assert leftovers(offline) == []


# What a Python without dm_control does (installed_version patched: None), the stand-in's pins patched in:
# prints where dm_control came from, whether its folder stayed on sys.path, and the compiled model's bodies.
WITHOUT_DM_CONTROL = """\
import sys, mujoco
from rlpool.envs.dmc import registration, suite_source
suite_source.WHEEL_SHA256 = sys.argv[1]
suite_source.installed_version = lambda: sys.argv[2] or None
path = registration.model_file("cheetah", "run")
model = mujoco.MjModel.from_binary_path(path)
loaded = sys.modules.get("dm_control")
print(path, loaded.__file__ if loaded else None, str(suite_source.cache_folder()) in sys.path, model.nbody,
      model.body(1).name)
"""


def test_without_dm_control_the_wheel_is_fetched_imported_and_compiled(offline: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Processes at once: one fetch; each imports the copy's suite (its folder off sys.path afterwards)."""
    links = tmp_path / "links"
    sha = sha256(stand_in_wheel(links))
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    procs = [subprocess.Popen([sys.executable, "-c", WITHOUT_DM_CONTROL, sha, ""], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 3, outs
    folder = offline / "dmc" / FOLDER
    mjb = offline / "dmc" / f"cheetah-run-dm_control{VERSION}-mujoco{mujoco.__version__}.mjb"
    for out, _ in outs:
        assert out.split() == [str(mjb), str(folder / "dm_control" / "__init__.py"), "False", "2", "b1"], out
    assert sum(err.count("rlpool: fetching dm-control==1.0.50") for _, err in outs) == 1, outs
    assert leftovers(offline) == []


def test_with_another_dm_control_installed_a_child_compiles_the_copys_model(offline: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """dm_control 1.0.49 installed: the model is still 1.0.50's, compiled by a child; this process imports none."""
    sha = sha256(stand_in_wheel(offline))
    out = child(WITHOUT_DM_CONTROL, sha, "1.0.49").split()
    assert out[1:] == ["None", "False", "2", "b1"], out


def test_another_imported_dm_control_is_not_shadowed(monkeypatch: pytest.MonkeyPatch) -> None:
    other = types.ModuleType("dm_control")
    other.__file__ = "/elsewhere/dm_control/__init__.py"
    monkeypatch.setitem(sys.modules, "dm_control", other)
    monkeypatch.setattr(suite_source, "installed_version", lambda: "1.0.49")
    with pytest.raises(suite_source.DmControlUnavailableError,
                       match=r"imported dm_control 1\.0\.49 from /elsewhere.*dm-control==1\.0\.50"):
        suite_source.suite()


# --- the real wheel --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_copy() -> Path:
    """The unpacked copy of the real wheel (fetched into the cache once); skips (fails in CI) where it cannot be."""
    try:
        return suite_source.unpacked_folder()
    except suite_source.DmControlUnavailableError as e:
        require(f"needs dm-control=={VERSION}'s wheel, fetched with pip: {e}")
        raise


TASKS = [("cheetah", "run"), ("lqr", "lqr_6_2"), ("quadruped", "escape"), ("humanoid_CMU", "stand")]

COMPILE = """\
import json, sys
from rlpool.envs.dmc import registration, suite_source
suite_source.installed_version = lambda: sys.argv[1] or None
paths = [registration.model_file(d, t) for d, t in json.loads(sys.argv[2])]
loaded = sys.modules.get("dm_control")
print(json.dumps([paths, loaded.__file__ if loaded else None]))
"""


@pytest.mark.parametrize("installed", ["", "1.0.49"], ids=["not-installed", "another-version"])
def test_the_copy_compiles_the_same_models(real_copy: Path, installed: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The real wheel's copy, in this process or a child, compiles what this session's dm_control compiles."""
    cache = tmp_path / "cache"
    (cache / "dmc").mkdir(parents=True)
    (cache / "dmc" / FOLDER).symlink_to(real_copy)  # the copy this session fetched: not fetched again
    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(cache))
    paths, loaded = json.loads(child(COMPILE, installed, json.dumps(TASKS)))
    assert loaded == (str(cache / "dmc" / FOLDER / "dm_control" / "__init__.py") if not installed else None)
    monkeypatch.undo()
    for (domain, task), path in zip(TASKS, paths, strict=True):
        assert Path(path).parent == cache / "dmc"
        assert Path(path).read_bytes() == Path(registration.model_file(domain, task)).read_bytes(), (domain, task)


def test_the_installed_dm_control_is_preferred() -> None:
    if suite_source.installed_version() != VERSION:
        pytest.skip(f"dm-control=={VERSION} is not installed here (its fetched copy is used)")
    code = "from rlpool.envs.dmc import suite_source; print(suite_source.suite().__file__)"
    env = {**os.environ, "RLPOOL_CACHE_DIR": "/nonexistent/rlpool-cache"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert "/nonexistent/" not in out and out.strip().endswith("dm_control/suite/__init__.py")
