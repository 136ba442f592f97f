"""PacMan's maze, jumanji 1.1.2's ``DEFAULT_MAZE``, read from jumanji's source when a PacMan task is made.

jumanji's PacMan (``PacMan-v1``, the default ``AsciiGenerator``) builds its maze from the constant
``DEFAULT_MAZE`` in ``jumanji/environments/routing/pac_man/constants.py``: 31 strings of 28 characters ('X' a
wall, ' ' an open square, 'O' a power-up, 'T' a ghost's initial target, 'S' a scatter target, 'G' a ghost's
start, 'P' the player's). rlpool does not ship it: ``maze_file()``, called by the task's ``prepare`` hook when a
pool or spec is made (not at build or import), takes ``constants.py`` from an installed jumanji where that
holds it with the sha256 it has in jumanji's 1.1.2 wheel (from the wheel's RECORD), else from that wheel,
fetched by name, version and sha256 with pip into ``<cache>/jumanji/jumanji-1.1.2-pac_man/`` with jumanji's
licence (``wheel_files``, shared by the family). ``DEFAULT_MAZE`` is read from the source with ``ast`` (the file
is neither imported nor run) and written, one row a line, to ``<cache>/jumanji/jumanji-1.1.2-pac_man-maze.txt``,
whose path the env (``pac_man.cc``) gets as the hidden option ``_maze_file``.

Without network access the wheel, downloaded elsewhere, may be put in the cache's root folder, where it is
unpacked from instead of fetched. What cannot be had raises ``PacManDataUnavailableError``, saying what to do.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from rlpool.cache import cache_root, write_atomically
from rlpool.envs.jumanji import wheel_files

PACKAGE = wheel_files.PACKAGE
VERSION = wheel_files.VERSION
WHEEL_SHA256 = wheel_files.WHEEL_SHA256
CONSTANTS = "jumanji/environments/routing/pac_man/constants.py"
"""The source that defines ``DEFAULT_MAZE``, as the wheel names it."""
CONSTANTS_SHA256 = "04430c2a20edaa573639fe58ffe9c515f9b930dfc9bf7ca6f06315ecf09f0ec4"
"""Its sha256 in the pinned wheel (the wheel's RECORD)."""
MAZE = "DEFAULT_MAZE"
ROWS, COLS = 31, 28
SQUARES = frozenset("X OTSGP")
"""The characters jumanji's maze is written in."""


class PacManDataUnavailableError(RuntimeError):
    """jumanji's PacMan maze could not be had (no network, no pip, a file with the wrong sha256): what to do."""


def _files() -> wheel_files.WheelFiles:
    """``constants.py`` as a file of the wheel (read from this module's constants at each call)."""
    return wheel_files.WheelFiles(
        part="pac_man", files={CONSTANTS: CONSTANTS_SHA256}, purpose="PacMan's maze",
        needed=f"PacMan's maze is {PACKAGE}=={VERSION}'s {MAZE} ({CONSTANTS})",
        error=PacManDataUnavailableError, wheel_sha256=WHEEL_SHA256,
    )


def cache_folder() -> Path:
    """Where a fetched ``constants.py`` is kept: ``<rlpool cache>/jumanji/jumanji-1.1.2-pac_man`` (not created)."""
    return wheel_files.cache_folder("pac_man")


def maze_path() -> Path:
    """Where the maze is written: ``<rlpool cache>/jumanji/jumanji-1.1.2-pac_man-maze.txt``."""
    return cache_root() / PACKAGE / f"{PACKAGE}-{VERSION}-pac_man-maze.txt"


def installed_file() -> Path | None:
    """``constants.py`` of an installed jumanji (found without importing it), if it has the pinned sha256."""
    return wheel_files.installed_file(CONSTANTS, CONSTANTS_SHA256)


def constants_file() -> Path:
    """The checked ``constants.py``: installed jumanji's, else the one unpacked from the fetched wheel."""
    return installed_file() or _files().fetched() / Path(CONSTANTS).name


def _assigned(node: ast.stmt) -> ast.expr | None:
    """What a top-level statement assigns to ``DEFAULT_MAZE`` (``DEFAULT_MAZE = ...``, annotated or not)."""
    if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [MAZE]:
        return node.value
    if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == MAZE:
        return node.value
    return None


def parse_maze(source: bytes, origin: str) -> list[str]:
    """The rows of ``DEFAULT_MAZE`` assigned at the top level of ``source`` (read with ``ast``; nothing is run).

    Raises ``PacManDataUnavailableError``, naming ``origin``, where it is missing or not 31 strings of 28 of
    jumanji's maze characters.
    """
    def refuse(why: str) -> PacManDataUnavailableError:
        return PacManDataUnavailableError(
            f"{origin}: {MAZE} {why} ({ROWS} strings of {COLS} characters of {''.join(sorted(SQUARES))!r} expected): "
            f"refusing to use it. {wheel_files.what_to_do()}"
        )

    try:
        tree = ast.parse(source, filename=origin)
    except (SyntaxError, ValueError) as e:
        raise refuse(f"cannot be read: the file is no Python source ({e})") from e
    values = [value for value in map(_assigned, tree.body) if value is not None]
    if not values:
        raise refuse("is not assigned at the top level")
    try:
        rows = ast.literal_eval(values[-1])
    except (ValueError, TypeError, SyntaxError) as e:
        raise refuse("is no literal") from e
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise refuse("is no list of strings")
    if len(rows) != ROWS:
        raise refuse(f"has {len(rows)} rows")
    for r, row in enumerate(rows):
        if len(row) != COLS:
            raise refuse(f"has {len(row)} columns in row {r}")
        if not set(row) <= SQUARES:
            raise refuse(f"holds {sorted(set(row) - SQUARES)} in row {r}")
    return rows


def maze_file() -> Path:
    """The maze file: ``DEFAULT_MAZE`` of the checked ``constants.py``, one row a line, (re)written when it differs.

    Raises ``PacManDataUnavailableError`` where the maze cannot be had or the file cannot be written.
    """
    source = constants_file()
    data = "".join(row + "\n" for row in parse_maze(source.read_bytes(), str(source))).encode()
    path = maze_path()
    try:
        written = path.read_bytes() if path.is_file() else None
    except OSError:
        written = None
    try:
        if written != data:
            write_atomically(path, data)
    except OSError as e:
        raise PacManDataUnavailableError(
            f"PacMan's maze could not be written to {path} ({e}): set $RLPOOL_CACHE_DIR to a writable folder."
        ) from e
    return path


def prepare(options: dict[str, Any]) -> dict[str, Any]:
    """The registry's ``prepare`` hook of PacMan-v1: ``_maze_file``, the path of jumanji's maze as text."""
    return {"_maze_file": str(maze_file())}
