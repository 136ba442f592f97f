"""What to install for an optional feature: one phrasing everywhere, and each extra's packages as pyproject pins them.

rlpool installs from a checkout, so no message may say ``pip install 'rlpool[<extra>]'`` (that asks PyPI). Every
``install_hint(extra, packages)`` call in the sources, and every C++ literal of the same phrasing, names packages
that pyproject.toml's extra of that name brings, pins included.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rlpool.extras import install_hint

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "rlpool"
EXTRAS: dict[str, list[str]] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
    "optional-dependencies"
]
CC_HINT = re.compile(
    r"pip install ((?:'[^']+' ?)+) \(rlpool's (\w+) extra: pip install '\.\[(\w+)\]' in an rlpool checkout\)"
)
C_STRINGS = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:\s*\n\s*"(?:[^"\\\n]|\\.)*")*')
"""A C++ string literal, with the literals that follow it on the next lines (which C++ joins into one)."""


def requirement(spec: str) -> str:
    """``"dm-control==1.0.50; python_version < '3.13'"`` -> ``"dm-control==1.0.50"``."""
    return spec.split(";")[0].strip()


def test_the_phrasing() -> None:
    assert install_hint("dm", "dm-env>=1.6") == (
        "pip install 'dm-env>=1.6' (rlpool's dm extra: pip install '.[dm]' in an rlpool checkout)"
    )
    assert install_hint("x", "a b==1").startswith("pip install 'a' 'b==1' (rlpool's x extra")


def hint_calls() -> list[tuple[str, str, str]]:
    """``(file, extra, packages)`` of every ``install_hint`` call with literal arguments under src/rlpool."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or len(node.args) != 2:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name != "install_hint":
                continue
            extra, packages = node.args
            assert isinstance(extra, ast.Constant), f"{path}: install_hint's extra must be a literal"
            if isinstance(packages, ast.Constant):
                found.append((str(path.relative_to(ROOT)), extra.value, packages.value))
            else:  # an f-string of the family's own constants (a pinned version): its literal parts only
                found.append((str(path.relative_to(ROOT)), extra.value, None))
    return found


def test_every_hint_names_its_extras_packages() -> None:
    calls = hint_calls()
    assert len(calls) >= 9, calls
    for path, extra, packages in calls:
        assert extra in EXTRAS, f"{path}: no extra {extra!r} in pyproject.toml"
        if packages is None:
            continue
        brought = {requirement(s) for s in EXTRAS[extra]}
        for package in packages.split():
            assert package in brought, f"{path}: {package!r} is not what the {extra} extra brings: {sorted(brought)}"


def test_formatted_hints_name_their_extras_packages() -> None:
    """The hints built from a family's constants (dmc, robotics), and the C++ literals, as they read."""
    from rlpool.envs.dmc import suite_source

    texts = [suite_source.install_hint()]
    for path in sorted(SRC.rglob("*.cc")):
        code = path.read_text()
        # Adjacent C++ string literals read as one string.
        texts += [re.sub(r'"\s*\n\s*"', "", m) for m in C_STRINGS.findall(code)]
    hints = [m for text in texts for m in CC_HINT.findall(text)]
    assert len(hints) >= 4, hints
    for packages, extra, extra_again in hints:
        assert extra == extra_again and extra in EXTRAS, extra
        brought = {requirement(s) for s in EXTRAS[extra]}
        for package in re.findall(r"'([^']+)'", packages):
            assert package in brought, (extra, package, sorted(brought))


def test_no_message_asks_pypi_for_rlpool() -> None:
    """Messages (strings that are not docstrings) in the sources; the families' page texts (``docs.py``) are
    prose for docs/envs/, checked with the pages."""
    found = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".py", ".cc", ".h") or "__pycache__" in path.parts or path.name == "docs.py":
            continue
        text = path.read_text()
        if path.suffix == ".py":
            tree = ast.parse(text)
            docstrings = {
                id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
            }
            strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                       and id(n) not in docstrings]
        else:
            strings = re.findall(r'"(?:[^"\\\n]|\\.)*"', text)
        found += [f"{path.relative_to(ROOT)}: {s}" for s in strings if "rlpool[" in s]
    assert found == []
