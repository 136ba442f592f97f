"""The project's license and citation files agree with pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")


def test_license_is_the_declared_one() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"]
    assert declared == {"text": "Apache-2.0"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("Copyright the rlpool authors.")
    assert "Apache License\n                           Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text and "9. Accepting Warranty or Additional Liability." in text


def test_citation_file_parses() -> None:
    yaml = pytest.importorskip("yaml")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert cff["cff-version"] == "1.2.0" and cff["title"] == "rlpool" and cff["type"] == "software"
    assert cff["authors"] == [{"name": "the rlpool authors"}] and "cite" in cff["message"]
    assert cff["version"] == project["version"] and cff["license"] == project["license"]["text"]
    assert "repository-code" not in cff
    (envpool,) = cff["references"]
    assert envpool["title"] == "EnvPool: A Highly Parallel Reinforcement Learning Environment Execution Engine"
    assert envpool["authors"][0] == {"family-names": "Weng", "given-names": "Jiayi"} and envpool["year"] == 2022
    assert "NeurIPS 2022" in envpool["collection-title"] and "Datasets and Benchmarks" in envpool["collection-title"]
