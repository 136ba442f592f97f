"""The object geometries of MyoSuite's SAR reorientation tasks, taken from myosuite 2.11.6's wheel when it is unpacked.

myosuite's ``envs/myo/myobase/reorient_sar_v0.py`` writes, in the ``reset`` method of each of its four classes
(``Geometries8EnvV0``, ``Geometries100EnvV0``, ``InDistribution``, ``OutofDistribution``), four dict literals
``caps``, ``ellips``, ``cyl`` and ``box`` (index -> ``[size (3), rgba (4)]``) that a reset picks the object's
size and colour from. They are myosuite's data, which rlpool does not carry: ``write_sar_tables`` reads them from
the unpacked wheel's source with ``ast`` (the file is neither imported nor run; each dict is a literal, read with
``ast.literal_eval``), checks them, and writes one float64 ``.npy`` of shape ``(n, 7)`` per class and table --
row ``i`` is entry ``i``: its size, then its rgba -- as ``rlpool-data/sar/<class>-<table>.npy`` in the unpacked
folder (an unpack step), which the C++ env (``reorient_sar.cc``) reads.
"""

from __future__ import annotations

import ast
import io
import math
from pathlib import Path

import numpy as np

SOURCE = Path("myosuite/envs/myo/myobase/reorient_sar_v0.py")
"""The wheel's file that holds the tables, relative to the unpacked folder."""
DATA = Path("rlpool-data/sar")
"""Where the tables are written, relative to the unpacked folder."""
CLASSES = ("Geometries8EnvV0", "Geometries100EnvV0", "InDistribution", "OutofDistribution")
"""The classes whose ``reset`` holds tables."""
TABLES = ("caps", "ellips", "cyl", "box")
"""The tables of each class: the geoms a reset draws (capsule, ellipsoid, cylinder, box)."""


def table_path(folder: Path, cls: str, table: str) -> Path:
    """Where the table ``table`` of class ``cls`` is written under the unpacked ``folder``."""
    return folder / DATA / f"{cls}-{table}.npy"


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _table(node: ast.expr, origin: str, what: str) -> np.ndarray:
    """A dict literal ``{0: [[s, s, s], [r, g, b, a]], 1: ...}`` as an ``(n, 7)`` float64 array, or a ValueError."""
    if not isinstance(node, ast.Dict):
        raise ValueError(f"{origin}: {what} is not a dict literal: refusing to use it")
    try:
        table = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError) as e:
        raise ValueError(f"{origin}: {what} is no literal: refusing to use it") from e
    # A key written twice would be silently dropped by the dict: refuse it as the other defects.
    if len(table) != len(node.keys) or sorted(table) != list(range(len(table))) or not table:
        raise ValueError(f"{origin}: {what}'s keys are not 0..n-1, each once: refusing to use it")
    rows = []
    for key in range(len(table)):
        entry = table[key]
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], list) and len(entry[0]) == 3
                and isinstance(entry[1], list) and len(entry[1]) == 4
                and all(_is_number(x) for x in entry[0] + entry[1])):
            raise ValueError(f"{origin}: {what}[{key}] is not [size (3 numbers), rgba (4 numbers)]: refusing to use it")
        rows.append([float(x) for x in entry[0] + entry[1]])
    return np.asarray(rows, dtype=np.float64)


def parse_sar_tables(source: bytes, origin: str) -> dict[tuple[str, str], np.ndarray]:
    """The tables of ``reorient_sar_v0.py``'s ``source``: ``(class, table)`` -> ``(n, 7)`` float64 (size, rgba).

    Each class's ``reset`` assigns each table once, as ``name = {...}`` at its top level. Raises ValueError
    naming ``origin`` and what is missing or malformed.
    """
    try:
        tree = ast.parse(source, filename=origin)
    except (SyntaxError, ValueError) as e:
        raise ValueError(f"{origin} is no Python source ({e}): refusing to use it") from e
    out: dict[tuple[str, str], np.ndarray] = {}
    for cls in CLASSES:
        node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
        body = node.body if node else []
        reset = next((n for n in body if isinstance(n, ast.FunctionDef) and n.name == "reset"), None)
        if reset is None:
            raise ValueError(f"{origin}: no {cls}.reset")
        assigned: dict[str, list[ast.expr]] = {}
        for stmt in reset.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                assigned.setdefault(stmt.targets[0].id, []).append(stmt.value)
        for table in TABLES:
            values = assigned.get(table, [])
            if len(values) != 1:
                raise ValueError(f"{origin}: {cls}.reset assigns {table} {len(values)} times, not once")
            out[(cls, table)] = _table(values[0], origin, f"{cls}.reset's {table}")
    return out


def write_sar_tables(folder: Path) -> None:
    """Write the SAR tasks' tables from ``folder``'s ``reorient_sar_v0.py`` under ``folder/rlpool-data/sar``.

    ``folder`` is the unpacked wheel's folder (the one that holds ``myosuite/``). Raises ValueError where the
    source is missing or its tables are not as expected.
    """
    source = folder / SOURCE
    try:
        text = source.read_bytes()
    except OSError as e:
        raise ValueError(f"{source}: the SAR tasks' source could not be read ({e})") from e
    tables = parse_sar_tables(text, str(source))
    (folder / DATA).mkdir(parents=True, exist_ok=True)
    for (cls, table), array in tables.items():
        buffer = io.BytesIO()
        np.save(buffer, array, allow_pickle=False)
        table_path(folder, cls, table).write_bytes(buffer.getvalue())
