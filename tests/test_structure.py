"""The shape of the tree: no import cycle, family knowledge only in its family's folder, no file too long.

Read from the sources (Python's ``ast`` for imports, text for C++ and CMake), so that these hold for every
build. A family is a folder under ``src/rlpool/envs/``; "outside" means anywhere else in ``src/``,
``CMakeLists.txt`` and ``cmake/``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "rlpool"
ENVS = PACKAGE / "envs"
FAMILIES = sorted(p.name for p in ENVS.iterdir() if p.is_dir() and (p / "__init__.py").exists())
# Families whose folder names are common words (a Python env, a test env): matched only as import paths.
WORD_FAMILIES = {"python", "testing"}
MAX_LINES = 1000

# ``rlpool.python_env`` is the documented face of the Python-written envs (docs/python_envs.md), whose
# machinery is the folder envs/python: the one module outside envs/ that may import a family's modules.
FAMILY_FACES = {"src/rlpool/python_env.py": "rlpool.envs.python."}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules ``path`` imports by name, anywhere in it (functions too; not TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(), str(path))
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != own}


def import_graph() -> dict[str, set[str]]:
    files = python_files()
    # The C++ extension is a module too (a leaf): ``from rlpool import _rlpool_core`` does not import the root.
    extensions = {"rlpool._rlpool_core"}
    modules = {module_name(p) for p in files} | extensions
    graph = {module_name(p): imports_of(p, modules) for p in files}
    return graph | {m: set() for m in extensions}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def outside_envs(path: Path) -> bool:
    return ENVS not in path.parents


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """Each check finds what it looks for in a made-up case."""
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert FAMILIES and "mujoco" in FAMILIES
    code = tmp_path / "core.cc"
    code.write_text('#include "envs/mujoco/mujoco_env.h"  // dmc\n')
    py = tmp_path / "face.py"
    py.write_text('"""Names dmc in prose only."""\nLAYOUTS = {"atari": 1}\n')
    cmake = tmp_path / "x.cmake"
    cmake.write_text('list(FILTER S EXCLUDE REGEX "/envs/box2d/")  # vizdoom\nset(Procgen 1)\n')
    assert _family_mentions(code) == {"mujoco"}
    assert _family_mentions(py) == {"atari"}
    assert _family_mentions(cmake) == {"box2d", "procgen"}


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == [], "import cycles"


def test_only_a_family_imports_its_modules() -> None:
    graph = import_graph()
    found = set()
    for path in python_files():
        if not outside_envs(path):
            continue
        for target in graph[module_name(path)]:
            face = FAMILY_FACES.get(str(path.relative_to(ROOT)))
            if re.match(r"rlpool\.envs\.[a-z_0-9]+", target) and not (face and target.startswith(face)):
                found.add(f"{path.relative_to(ROOT)} imports {target}")
    assert found == set()


def _family_mentions(path: Path) -> set[str]:
    """Family names in ``path``'s code: Python strings and names, C++ includes, CMake words (not comments)."""
    text = path.read_text()
    names = [f for f in FAMILIES if f not in WORD_FAMILIES]
    hits: set[str] = set()
    if path.suffix == ".py":
        tree = ast.parse(text)
        docstrings = {
            id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
        }
        for node in ast.walk(tree):
            if id(node) in docstrings:
                continue
            value = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
            words = re.findall(r"[A-Za-z_0-9]+", value) if value is not None else []
            if isinstance(node, (ast.Name, ast.Attribute)):
                words = [node.id if isinstance(node, ast.Name) else node.attr]
            hits.update(f for f in names if any(w.lower() == f for w in words))
            if value is not None:
                hits.update(f for f in FAMILIES if re.search(rf"envs[./]{f}\b", value))
    else:
        code = re.sub(r"//.*" if path.suffix in (".cc", ".h") else r"#.*", "", text)  # comments
        hits.update(f for f in FAMILIES if re.search(rf"envs/{f}\b", code))
        words = re.sub(r'"[^"\n]*"', "", code)  # prose in strings (a cache's description) may name one
        hits.update(f for f in names if re.search(rf"\b{f}\b", words, re.IGNORECASE))
    return hits


def test_family_names_only_in_their_folders() -> None:
    places = [p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".cc", ".h") and outside_envs(p)]
    places += [ROOT / "CMakeLists.txt", *sorted((ROOT / "cmake").glob("*.cmake"))]
    found = set()
    for path in places:
        if "__pycache__" in path.parts:
            continue
        for family in sorted(_family_mentions(path)):
            found.add(f"{path.relative_to(ROOT)}: {family}")
    assert found == set()


def test_no_file_over_a_thousand_lines() -> None:
    found = set()
    for base in (ROOT / "src", ROOT / "tests", ROOT / "benchmarks", ROOT / "examples"):
        for path in base.rglob("*"):
            if path.suffix in (".py", ".cc", ".h", ".cmake") and "__pycache__" not in path.parts:
                if len(path.read_text().splitlines()) > MAX_LINES:
                    found.add(str(path.relative_to(ROOT)))
    assert found == set()


def test_tests_mirror_the_source_tree() -> None:
    """Test files live in the folder of what they test; the top of tests/ holds helpers and this file."""
    top = sorted(p.name for p in (ROOT / "tests").glob("test_*.py") if p.name != Path(__file__).name)
    assert not top, f"test files at the top of tests/ (move each into the folder of what it tests): {top}"
    names: dict[str, list[str]] = {}
    for p in (ROOT / "tests").rglob("test_*.py"):
        names.setdefault(p.name, []).append(str(p.relative_to(ROOT)))
    clashes = {n: ps for n, ps in names.items() if len(ps) > 1}
    assert not clashes, f"test files share a name (pytest imports them by name): {clashes}"
    envs = ROOT / "tests" / "envs"
    strays = sorted(p.name for p in envs.iterdir() if p.is_dir() and p.name not in FAMILIES and p.name != "__pycache__")
    assert not strays, f"tests/envs/ folders with no family of that name in src/rlpool/envs/: {strays}"


def test_the_longest_first_files_exist() -> None:
    """conftest's LONGEST_FIRST names test files by path; a renamed file would silently lose its place."""
    # Read from the source: ``import conftest`` gives whichever conftest this worker loaded first.
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text())
    values = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "LONGEST_FIRST" for t in node.targets)
    ]
    assert len(values) == 1, "tests/conftest.py should assign LONGEST_FIRST once, as a literal"
    assert values[0], "LONGEST_FIRST is empty"
    assert [p for p in values[0] if not (ROOT / p).is_file()] == []
