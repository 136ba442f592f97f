"""Sudoku's puzzle databases, jumanji 1.1.2's data files, found or fetched when a Sudoku task is made.

jumanji's Sudoku draws its puzzles from two numpy files shipped inside its package,
``jumanji/environments/logic/sudoku/data/`` (``data/__init__.py`` ``DATABASES``): ``"mixed"``
(``10000_mixed_puzzles.npy``, ``Sudoku-v0``) and ``"very-easy"`` (``1000_very_easy_puzzles.npy``,
``Sudoku-very-easy-v0``). rlpool does not ship them: ``database_file(name)``, called by the tasks' ``prepare``
hook when a pool or spec is made (not at build or import), takes the file from an installed jumanji where
that holds it with the pinned sha256, and otherwise from jumanji's 1.1.2 wheel, fetched by name, version and
sha256 with pip, the two files checked against their pinned sha256 and unpacked with jumanji's licence into
rlpool's cache: ``<cache>/jumanji/jumanji-1.1.2-sudoku/`` (``wheel_files``, shared by the family). The env
(``sudoku.cc``) reads the file whose path the hook gives it as the hidden option ``_database_file``.

Without network access the wheel, downloaded elsewhere, may be put in the cache's root folder, where it is
unpacked from instead of fetched. What cannot be had raises ``SudokuDataUnavailableError``, saying what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlpool import pinned_wheel
from rlpool.envs.jumanji import wheel_files

PACKAGE = wheel_files.PACKAGE
VERSION = wheel_files.VERSION
WHEEL = wheel_files.WHEEL
WHEEL_SHA256 = wheel_files.WHEEL_SHA256
WHEEL_MB = wheel_files.WHEEL_MB
DATA_FOLDER = "jumanji/environments/logic/sudoku/data/"
"""Where the databases lie in the wheel (and in an installed jumanji, below its package folder)."""
LICENSE = wheel_files.LICENSE

DATABASES: dict[str, str] = {
    "mixed": "10000_mixed_puzzles.npy",
    "very-easy": "1000_very_easy_puzzles.npy",
}
"""The option ``sudoku_database`` -> the file (jumanji's ``sudoku/data/__init__.py`` ``DATABASES``)."""
FILES: dict[str, str] = {
    "10000_mixed_puzzles.npy": "15f286d3c9ecaf45f1865b9eed6f8ace7d8fede6677f24bf23f818b8455c51aa",
    "1000_very_easy_puzzles.npy": "64d9607d056cf18d543d79db3a8bf24606280251e5b16b8916f3915ba619c269",
}
"""The two files, with the sha256 each has in the pinned wheel."""


class SudokuDataUnavailableError(RuntimeError):
    """jumanji's Sudoku databases could not be had (no network, no pip, a file with the wrong sha256): what to do."""


def _files() -> wheel_files.WheelFiles:
    """The two databases as files of the wheel (read from this module's constants at each call)."""
    return wheel_files.WheelFiles(
        part="sudoku", files={DATA_FOLDER + name: sha for name, sha in FILES.items()},
        purpose="Sudoku's puzzle databases",
        needed=f"Sudoku's puzzle databases are {PACKAGE}=={VERSION}'s data files ({DATA_FOLDER})",
        error=SudokuDataUnavailableError, wheel_sha256=WHEEL_SHA256,
    )


def cache_folder() -> Path:
    """Where the fetched databases are kept: ``<rlpool cache>/jumanji/jumanji-1.1.2-sudoku`` (not created here)."""
    return wheel_files.cache_folder("sudoku")


def bad_files(folder: Path) -> list[str]:
    """The names of the two files that ``folder`` lacks or holds with another sha256 than the pinned one."""
    return _files().bad_files(folder)


def installed_file(name: str) -> Path | None:
    """Database file ``name`` of an installed jumanji (found without importing it), if it has the pinned sha256."""
    return wheel_files.installed_file(DATA_FOLDER + name, FILES[name])


def wheel() -> pinned_wheel.PinnedWheel:
    """The pinned wheel (read from this module's constants at each call) and what its errors say."""
    return _files().wheel()


def database_file(name: str) -> Path:
    """The verified file of database ``name`` (``"mixed"`` or ``"very-easy"``): installed jumanji's, or fetched.

    Raises ``ValueError`` for another name, ``SudokuDataUnavailableError`` where the file cannot be had.
    """
    if name not in DATABASES:
        raise ValueError(f"sudoku_database must be one of {sorted(DATABASES)}, got {name!r}")
    file = DATABASES[name]
    installed = installed_file(file)
    if installed is not None:
        return installed
    return _files().fetched() / file


def prepare(options: dict[str, Any]) -> dict[str, Any]:
    """The registry's ``prepare`` hook of the Sudoku tasks: ``_database_file``, the path of ``sudoku_database``."""
    return {"_database_file": str(database_file(options["sudoku_database"]))}
