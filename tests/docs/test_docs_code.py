"""Every code block of README.md and docs/ runs, or is marked as not runnable here with the reason.

Blocks in python/py run as a script with this interpreter; bash/sh/shell blocks run with ``bash -euo pipefail``;
in console blocks the ``$ `` lines are the commands (the other lines are output, not checked). Each runs in
a fresh process from the repository root, stdin closed, matplotlib and SDL headless, the venv's ``bin`` first
on ``PATH`` (so ``python`` and ``rlpool`` are this install's), within 30 s or the block's ``timeout``. The
markers that change this (``skip: <reason>``, ``needs <modules>``, ``timeout <seconds>``) are described in
``tests/docs_blocks.py``. Every block runs in both lanes, except one whose ``timeout`` exceeds 120 s: that one
runs in the full lane only (``RLPOOL_FULL_REFERENCE=1``, as CI), so that the default lane keeps its budget (the
blocks together should take well under a minute there). A block that would
install packages fails without running unless it is marked ``skip``. One test item per block, named by its
place (``README.md:L123``); the script written for a block keeps the Markdown's line numbers, so a traceback's
line is the line in the file.
"""

from __future__ import annotations

import functools
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from docs_blocks import PYTHON_LANGUAGES, Block, Markers, collect, parse
from lane import CI, FULL, REPO

DEFAULT_TIMEOUT = 30.0
"""Seconds a block without a ``timeout`` marker may run."""
DEFAULT_LANE_LIMIT = 120.0
"""A block whose ``timeout`` marker allows longer runs in the full lane only."""
STDERR_TAIL = 40
"""Lines of a failed block's stderr (and stdout) shown in the failure."""
INSIDE = "RLPOOL_DOCS_BLOCK"
"""Set in a block's environment: a block that runs pytest does not run the docs' blocks again."""
INSTALLS = re.compile(
    r"\b(?:pip3?|conda|mamba|micromamba|apt|apt-get|brew|uv pip)\s+install\b|\bsudo\b|\buv\s+(?:add|sync)\b"
)
"""Commands that change what is installed on the machine: a block with one must be marked ``skip``."""

BLOCKS, PROBLEMS = collect(REPO)
RUNNABLE = [block for block in BLOCKS if block.runs]


def _environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_XDIST", "PYTEST_CURRENT"))}
    env["MPLBACKEND"] = "Agg"
    env["SDL_VIDEODRIVER"] = "dummy"
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env[INSIDE] = "1"
    return env


@functools.cache
def _import_error(module: str) -> str | None:
    """Why ``module`` does not import in this interpreter (its error's last line), or None where it does."""
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        cwd=REPO,
        env=_environment(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if result.returncode == 0:
        return None
    lines = result.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit status {result.returncode}"


def _console_script(block: Block) -> str:
    """A console block's commands (``$ `` lines and their ``\\`` continuations), each on its own line."""
    lines: list[str] = []
    continued = False
    for line in block.text.splitlines():
        if continued:
            lines.append(line)
        elif line.startswith("$ "):
            lines.append(line[2:])
        else:
            lines.append("")
            continue
        continued = line.rstrip().endswith("\\")
    return "".join(f"{line}\n" for line in lines)


def _script(block: Block) -> tuple[str, list[str]]:
    """The file to write for ``block`` (its Markdown line numbers kept) and the command that runs it."""
    name = Path(block.path).name
    padding = "\n" * block.line  # the block's first line is the line after the fence
    if block.language in PYTHON_LANGUAGES:
        return padding + block.text, [sys.executable, f"{name}.py"]
    body = _console_script(block) if block.language == "console" else block.text
    trap = "trap 'echo \"docs-test: exit status $? at line $LINENO: $BASH_COMMAND\" >&2' ERR"
    return trap + padding + body, ["bash", "-euo", "pipefail", f"{name}.sh"]


def _tail(path: Path) -> str:
    lines = path.read_text(errors="replace").splitlines()
    return "\n".join(lines[-STDERR_TAIL:]) or "(empty)"


def _describe(block: Block, what: str, folder: Path) -> str:
    numbered = "\n".join(f"{block.line + i:5d} | {line}" for i, line in enumerate(block.text.splitlines(), 1))
    return (
        f"{block.id}: the {block.language} block at line {block.line} of {block.path} {what}\n"
        f"{numbered}\n"
        f"--- stderr (last {STDERR_TAIL} lines) ---\n{_tail(folder / 'stderr')}\n"
        f"--- stdout (last {STDERR_TAIL} lines) ---\n{_tail(folder / 'stdout')}"
    )


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End the block's process and whatever it started in its session (background commands included)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # the group is gone (its members all ended)
        pass
    process.wait()


def _timeout(block: Block) -> float:
    return block.markers.timeout if block.markers.timeout is not None else DEFAULT_TIMEOUT


def _params() -> list[object]:
    params: list[object] = []
    for block in RUNNABLE:
        marks: list[pytest.MarkDecorator] = []
        if _timeout(block) > 240:  # beyond pytest-timeout's limit for one test (pyproject: 300 s)
            marks.append(pytest.mark.timeout(_timeout(block) + 120))
        params.append(pytest.param(block, id=block.id, marks=marks))
    return params


def test_markers_parse() -> None:
    """Every marker parses, every skip has a reason, no marker lacks its fence, every fence closes."""
    assert not PROBLEMS, "docs-test markers or fences that are wrong:\n" + "\n".join(map(str, PROBLEMS))


SAMPLE = """\
<!-- docs-test: skip: installs packages; then  builds -->
```bash
pip install x
```

1. In a list:

   <!-- docs-test: needs jax, torch.nn;
        timeout 90 -->
   ```python
   import jax
     indented
   ```

<!-- docs-test: skip: -->
~~~py
x
~~~
<!-- docs-test: skip -->
```sh
```

<!-- docs-test: bogus 3 -->

````markdown
<!-- docs-test: skip: shown, not a marker -->
```python
```
````
<!-- docs-test: needs jax -->
```text
```
```python
never closed
"""


def test_parser_on_a_sample() -> None:
    blocks, problems = parse(SAMPLE, "sample.md")
    assert [(b.line, b.language) for b in blocks] == [
        (2, "bash"),
        (10, "python"),
        (16, "py"),
        (20, "sh"),
        (25, "markdown"),
        (31, "text"),
        (33, "python"),
    ]
    assert blocks[0].markers == Markers(skip="installs packages; then builds")
    assert blocks[1].markers == Markers(needs=("jax", "torch.nn"), timeout=90.0)
    assert blocks[1].text == "import jax\n  indented\n"
    assert "shown, not a marker" in blocks[4].text
    assert [(p.line, p.message.split(":")[0].split(" (")[0]) for p in problems] == [
        (16, "a skip needs a reason"),
        (20, "write 'skip"),
        (23, "a docs-test marker not directly followed by a code fence"),
        (23, "unknown directive 'bogus 3'"),
        (31, "a docs-test marker on a text block, which is not run anyway"),
        (33, "a code fence that is never closed"),
    ]
    assert [b.line for b in blocks if b.problems] == [16, 20, 31, 33]


def test_block_ids_are_unique() -> None:
    ids = [block.id for block in RUNNABLE]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("block", _params())
def test_block_runs(block: Block, tmp_path: Path) -> None:
    if os.environ.get(INSIDE):
        pytest.skip("inside a docs block already (a block that runs pytest does not run the blocks again)")
    if block.problems:
        pytest.fail(f"{block.id}: its docs-test marker is wrong: {'; '.join(block.problems)}", pytrace=False)
    markers = block.markers
    if markers.skip is not None:
        pytest.skip(f"marked not runnable here: {markers.skip}")
    for module in markers.needs:
        error = _import_error(module)
        if error is not None:
            message = f"the block needs {module}, which does not import here: {error}"
            if CI:
                pytest.fail(f"CI installs every package the docs need, but: {message}", pytrace=False)
            pytest.skip(message)
    if block.language == "console" and not _console_script(block).strip():
        pytest.skip("a console block without a '$ ' command line: nothing to run")
    installs = INSTALLS.search(block.text)
    if installs is not None:
        pytest.fail(
            f"{block.id}: the block runs {installs.group(0)!r}, which would install packages or act as root here; "
            "mark it <!-- docs-test: skip: installs packages --> (not run)",
            pytrace=False,
        )
    limit = _timeout(block)
    if limit > DEFAULT_LANE_LIMIT and not FULL:
        pytest.skip(
            f"runs up to {limit:g} s (its timeout marker): the full lane runs it (RLPOOL_FULL_REFERENCE=1, as CI)"
        )

    text, command = _script(block)
    (tmp_path / command[-1]).write_text(text, encoding="utf-8")
    command[-1] = str(tmp_path / command[-1])
    start = time.monotonic()
    timed_out = False
    status: int | None = None
    with open(tmp_path / "stdout", "wb") as out, open(tmp_path / "stderr", "wb") as err:
        process = subprocess.Popen(
            command,
            cwd=REPO,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        try:
            status = process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_group(process)
    took = time.monotonic() - start
    if timed_out:
        if markers.timeout is None:
            advice = (
                f"ran longer than the default {DEFAULT_TIMEOUT:g} s: add <!-- docs-test: timeout <seconds> --> "
                "directly before the fence, make it shorter, or mark it "
                "<!-- docs-test: skip: <reason> -->"
            )
        else:
            advice = f"ran longer than its timeout marker, {limit:g} s"
        pytest.fail(_describe(block, advice, tmp_path), pytrace=False)
    if status != 0:
        pytest.fail(_describe(block, f"failed: exit status {status} after {took:.1f} s", tmp_path), pytrace=False)
