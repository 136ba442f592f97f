"""A pinned wheel fetched as a file and unpacked into the cache (``rlpool.pinned_wheel``), without network.

A stand-in wheel built in the test's folder, fetched by a fake pip (a script that copies it from a folder of
links, logs each call and finds nothing where the folder lacks it): fetched, unpacked and announced once; a
wheel of another sha256 refused; no pip, and a pip that fails, each said; a wheel put in the cache's root used
without fetching (one of another sha256 not); a damaged folder replaced; a wheel whose files differ from its
RECORD, an unpacking left incomplete and an unwritable cache refused, nothing left behind; threads, and
processes, fetching at once: one download.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest
from stand_in_wheels import left_beside, make_wheel, must_not_download, offline_cache, sha256

from rlpool import pinned_wheel

FILE = "rlpool_stand_in-1.0-py3-none-any.whl"
FILES = {"stand_in/a.txt": "first\n", "stand_in/sub/b.txt": "second\n", "elsewhere/c.txt": "not unpacked\n"}
DONE = "DONE"
"""Written last by ``unpack``: a folder without it is incomplete."""


class StandInError(RuntimeError):
    """The stand-in wheel could not be had."""


def stand_in(sha: str) -> pinned_wheel.PinnedWheel:
    """The stand-in wheel, pinned to ``sha``."""
    return pinned_wheel.PinnedWheel(
        package="rlpool-stand-in", version="1.0", file=FILE, sha256=sha, megabytes=1, purpose="the tests' files",
        needed="the tests' files come from rlpool-stand-in==1.0", error=StandInError,
        what_to_do="Do what the test says.",
    )


def unpack(wheel: Path, folder: Path) -> None:
    """``stand_in/`` from ``wheel`` into ``folder``, each file checked against the RECORD, then ``DONE``."""
    with zipfile.ZipFile(wheel) as z:
        record = pinned_wheel.record_hashes(z, "rlpool_stand_in-1.0.dist-info")
        for name in z.namelist():
            if name.startswith("stand_in/"):
                data = z.read(name)
                if hashlib.sha256(data).hexdigest() != record.get(name):
                    raise StandInError(f"{name} differs from the RECORD")
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                (folder / name).write_bytes(data)
    (folder / DONE).write_text("")


def complete(folder: Path) -> bool:
    """Whether ``unpack`` finished ``folder``."""
    return (folder / DONE).is_file()


FAKE_PIP = """\
import shutil, sys, time
from pathlib import Path
links, log, *args = sys.argv[1:]
with open(log, "a") as f:
    f.write(" ".join(args) + "\\n")
time.sleep(0.3)  # long enough for other fetches to arrive meanwhile
wheel = Path(links) / "rlpool_stand_in-1.0-py3-none-any.whl"
if not wheel.is_file():
    sys.exit("ERROR: No matching distribution found for " + args[1])
shutil.copy(wheel, Path(args[args.index("-d") + 1]))
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache: its root."""
    return offline_cache(tmp_path, monkeypatch)


@pytest.fixture
def pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The fake pip, in place of pip: the folder it fetches from (empty) and its log of calls."""
    links, log = tmp_path / "links", tmp_path / "pip.log"
    links.mkdir()
    log.write_text("")
    script = tmp_path / "fake_pip.py"
    script.write_text(FAKE_PIP)
    monkeypatch.setattr(pinned_wheel, "pip_command", lambda: [sys.executable, str(script), str(links), str(log)])
    return links, log


def calls(log: Path) -> list[str]:
    """The fake pip's calls, one line each."""
    return log.read_text().splitlines()


def test_names() -> None:
    wheel = stand_in("0" * 64)
    assert (wheel.requirement, wheel.dist_info) == ("rlpool-stand-in==1.0", "rlpool_stand_in-1.0.dist-info")


def test_sha256_and_record(tmp_path: Path) -> None:
    path = make_wheel(tmp_path, FILE, FILES)
    assert pinned_wheel.sha256_of(path) == sha256(path)
    with zipfile.ZipFile(path) as z:
        record = pinned_wheel.record_hashes(z, "rlpool_stand_in-1.0.dist-info")
        assert record == {n: hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist() if not n.endswith("RECORD")}


def test_fetched_unpacked_and_announced_once(cache: Path, pip: tuple[Path, Path],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    links, log = pip
    wheel = stand_in(sha256(make_wheel(links, FILE, FILES)))
    folder = cache / "stand-in" / "files"
    assert pinned_wheel.fetch_into(wheel, folder, unpack, complete) == folder
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*.txt")) == ["stand_in/a.txt", "stand_in/sub/b.txt"]
    [call] = calls(log)  # into a folder beside the unpacked one
    assert call.startswith(f"download rlpool-stand-in==1.0 --no-deps --only-binary=:all: -d {folder.parent}/.files.")
    assert capsys.readouterr().err == (
        f"rlpool: fetching rlpool-stand-in==1.0 (1 MB) with pip for the tests' files, once, into {folder}\n")
    assert pinned_wheel.fetch_into(wheel, folder, unpack, complete) == folder  # complete: nothing fetched
    assert len(calls(log)) == 1 and capsys.readouterr().err == ""
    assert left_beside(folder) == [] and not (cache / FILE).exists()  # the wheel is not kept


def test_a_download_of_another_sha256_is_refused(cache: Path, pip: tuple[Path, Path]) -> None:
    make_wheel(pip[0], FILE, FILES)
    folder = cache / "stand-in" / "files"
    with pytest.raises(StandInError, match=r"^the downloaded rlpool_stand_in-1\.0-py3-none-any\.whl has sha256 "
                       r"[0-9a-f]{64}, but rlpool-stand-in==1\.0's is 0{64}: refusing to use it\. Do what the test"):
        pinned_wheel.fetch_into(stand_in("0" * 64), folder, unpack, complete)
    assert not folder.exists() and left_beside(folder) == []


def test_without_pip_the_error_says_so(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pinned_wheel, "pip_command", lambda: None)
    with pytest.raises(StandInError, match=r"^the tests' files come from rlpool-stand-in==1\.0; rlpool fetches its "
                       r"wheel with pip, but no pip was found .* on PATH\)\. Do what the test says\.$"):
        pinned_wheel.fetch_into(stand_in("0" * 64), cache / "stand-in" / "files", unpack, complete)


def test_a_failing_pip_is_quoted(cache: Path, pip: tuple[Path, Path]) -> None:
    folder = cache / "stand-in" / "files"
    with pytest.raises(StandInError) as e:
        pinned_wheel.fetch_into(stand_in("0" * 64), folder, unpack, complete)
    message = str(e.value)
    for part in ("the tests' files come from rlpool-stand-in==1.0, and its wheel could not be fetched: `",
                 " download rlpool-stand-in==1.0 --no-deps --only-binary=:all: -d ", "` exited with 1:\n",
                 "ERROR: No matching distribution found for rlpool-stand-in==1.0\n", "Do what the test says."):
        assert part in message, part
    assert not folder.exists() and left_beside(folder) == []


def test_a_wheel_in_the_cache_root_is_used_without_download(cache: Path, pip: tuple[Path, Path],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A wheel put in the cache's root by hand is unpacked from there; one of another sha256 is not."""
    wheel = stand_in(sha256(make_wheel(cache, FILE, FILES)))
    folder = cache / "stand-in" / "files"
    with pytest.raises(StandInError, match="could not be fetched"):  # so pip is asked, and finds nothing
        pinned_wheel.fetch_into(stand_in("0" * 64), folder, unpack, complete)
    assert len(calls(pip[1])) == 1 and not folder.exists()
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    assert pinned_wheel.fetch_into(wheel, folder, unpack, complete) == folder
    assert (folder / "stand_in" / "a.txt").read_text() == "first\n"
    assert (cache / FILE).is_file() and left_beside(folder) == []


def test_a_damaged_folder_is_replaced(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wheel = stand_in(sha256(make_wheel(cache, FILE, FILES)))
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    folder = cache / "stand-in" / "files"
    folder.mkdir(parents=True)
    (folder / "stray.txt").write_text("from an unpacking cut short")
    assert pinned_wheel.fetch_into(wheel, folder, unpack, complete) == folder
    assert sorted(p.name for p in folder.iterdir()) == [DONE, "stand_in"]
    (folder / DONE).unlink()
    (folder / "stand_in" / "a.txt").write_text("damaged")
    assert pinned_wheel.fetch_into(wheel, folder, unpack, complete) == folder
    assert (folder / "stand_in" / "a.txt").read_text() == "first\n" and left_beside(folder) == []


@pytest.mark.parametrize("case", ["tampered", "incomplete", "unwritable"])
def test_what_cannot_be_unpacked_is_refused(case: str, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that differs from the RECORD, an unpacking that leaves no DONE, a cache that is a file: nothing kept."""
    wheel = stand_in(sha256(make_wheel(cache, FILE, FILES, tamper="stand_in/a.txt" if case == "tampered" else None)))
    monkeypatch.setattr(pinned_wheel, "download", must_not_download)
    folder = cache / "stand-in" / "files"
    steps = {"tampered": unpack, "incomplete": lambda path, staged: None, "unwritable": unpack}[case]
    if case == "unwritable":
        (cache / "stand-in").write_text("a file where the folder should be")
    message = {
        "tampered": r"stand_in/a\.txt differs from the RECORD",
        "incomplete": r"rlpool_stand_in-1\.0-py3-none-any\.whl: what was unpacked from it is incomplete",
        "unwritable": r"^the tests' files come from rlpool-stand-in==1\.0, and its wheel could not be unpacked into "
                      r".*files \(.*\): set \$RLPOOL_CACHE_DIR to a writable folder\. Do what the test says\.$",
    }[case]
    with pytest.raises(StandInError, match=message):
        pinned_wheel.fetch_into(wheel, folder, steps, complete)
    assert not folder.exists()
    if case != "unwritable":
        assert left_beside(folder) == []


def test_threads_fetching_at_once_download_once(cache: Path, pip: tuple[Path, Path]) -> None:
    wheel = stand_in(sha256(make_wheel(pip[0], FILE, FILES)))
    folder = cache / "stand-in" / "files"
    results: list[Path | BaseException] = []

    def fetch() -> None:
        try:
            results.append(pinned_wheel.fetch_into(wheel, folder, unpack, complete))
        except BaseException as e:  # reported below
            results.append(e)

    threads = [threading.Thread(target=fetch) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [folder] * 4 and len(calls(pip[1])) == 1
    assert complete(folder) and left_beside(folder) == []


# A process fetching the stand-in: this file's folder and tests/ on its path, the pins and fake pip from argv.
CHILD = """\
import sys
from pathlib import Path
sys.path[:0] = sys.argv[1:3]
import test_pinned_wheel as t
from rlpool import pinned_wheel
folder, sha, *pip = sys.argv[3:]
pinned_wheel.pip_command = lambda: pip
print(pinned_wheel.fetch_into(t.stand_in(sha), Path(folder), t.unpack, t.complete))
"""


def test_processes_fetching_at_once_download_once(cache: Path, pip: tuple[Path, Path]) -> None:
    sha = sha256(make_wheel(pip[0], FILE, FILES))
    folder = cache / "stand-in" / "files"
    here = Path(__file__).resolve().parent
    command = [sys.executable, "-c", CHILD, str(here), str(here.parent), str(folder), sha,
               *pinned_wheel.pip_command()]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 3, outs
    assert [out.strip() for out, _ in outs] == [str(folder)] * 3
    assert sum(err.count("rlpool: fetching rlpool-stand-in==1.0") for _, err in outs) == 1, json.dumps(outs)
    assert len(calls(pip[1])) == 1 and complete(folder) and left_beside(folder) == []
