"""Virtualenvs the tests keep under rlpool's cache: a reference that cannot share this environment (metaworld's
MuJoCo pin, craftax's JAX stack, EnvPool 1.2.7's Python) or a training library with its own dependencies.

``cached_venv`` makes one once, under a file lock (two test processes may want it at once), and makes it
again when what it should hold (``wanted``: its requirements, one per line) changes; ``pip_install`` runs
pip in it and fails with pip's own words. A caller turns a failure into ``require(...)`` (a skip naming what
is missing, a failure in CI). ``ask`` is one request to a reference's child Python there: a JSON line each way.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from rlpool import pinned_wheel

MARKER = "REQUIREMENTS"


def cached_venv(
    folder: Path,
    wanted: Sequence[str],
    install: Callable[[Path], None],
    *,
    what: str,
    base_python: str = sys.executable,
) -> Path:
    """The Python of the virtualenv in ``folder``, made first by ``base_python -m venv`` and ``install(python)``
    where it is missing or was made for other ``wanted`` requirements. Raises what making it raised."""
    marker = folder / MARKER
    text = "\n".join(wanted) + "\n"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with pinned_wheel.file_lock(folder.parent / f".{folder.name}.lock"):
        if not (marker.is_file() and marker.read_text() == text):
            print(f"making {what} in {folder} (once)", file=sys.stderr)
            shutil.rmtree(folder, ignore_errors=True)
            subprocess.run([base_python, "-m", "venv", str(folder)], check=True, capture_output=True)
            install(folder / "bin" / "python")
            marker.write_text(text)
    return folder / "bin" / "python"


def pip_install(python: Path, args: Sequence[str]) -> None:
    """``python -m pip install --quiet <args>``; a RuntimeError quoting pip's output where it fails."""
    command = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"`{' '.join(command)}` failed:\n{(result.stdout + result.stderr)[-3000:]}")


def ask(process: subprocess.Popen, stderr: IO[str], who: str, op: str, request: dict[str, Any]) -> Any:
    """Send ``{"op": op, **request}`` to a child that answers ``{"ok": ...}`` or ``{"error": ...}`` per line; the
    answer, or an AssertionError with the child's error (or the end of its ``stderr`` file where it died)."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps({"op": op, **request}) + "\n")
    process.stdin.flush()
    line = process.stdout.readline()
    if not line:
        code = process.wait()
        stderr.seek(0)
        raise AssertionError(
            f"the {who} reference ended during {op!r} (exit code {code}); its stderr ends:\n{stderr.read()[-3000:]}"
        )
    answer = json.loads(line)
    if "error" in answer:
        raise AssertionError(f"{who}'s {op}: {answer['error']}")
    return answer["ok"]
