"""C++ unit tests of engine units on their own (tests/cpp/*_test.cc).

Each test program is compiled with the system C++ compiler, with no Python and no
nanobind, against only the engine sources it tests, then run; it fails with the
program's output. Works from a clean clone: nothing needs to be built first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INCLUDE_ROOT = ROOT / "src" / "rlpool"  # rlpool's one include root: "_core/engine/episode.h"
CPP_TESTS = Path(__file__).resolve().parent

# Test program -> the sources it links, from the include root.
PROGRAMS = {
    "autoreset_test.cc": [],
    "cost_model_test.cc": ["_core/engine/cost_model.cc"],
    "episode_test.cc": ["_core/engine/episode.cc", "_core/env/env.cc", "_core/gfx/pixels.cc", "_core/gfx/resize.cc"],
    "draw_test.cc": ["envs/box2d/car_racing_render.cc"],
    "jax_random_test.cc": [],
    "rng_seed_test.cc": [],
}
FLAGS = ["-std=c++20", "-O1", "-Wall", "-Wextra", "-pthread"]


def test_every_program_is_listed():
    assert sorted(p.name for p in CPP_TESTS.glob("*_test.cc")) == sorted(PROGRAMS)


def find_compiler() -> str | None:
    for name in (os.environ.get("CXX"), "c++", "g++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Compiles all programs at once (in parallel); maps each to (executable, compiler output, ok)."""
    cxx = find_compiler()
    if cxx is None:
        pytest.skip("no C++ compiler (set CXX, or install c++/g++)")
    out_dir = tmp_path_factory.mktemp("cpp_units")
    jobs = {}
    for program, units in PROGRAMS.items():
        exe = out_dir / Path(program).stem
        cmd = [cxx, *FLAGS, "-I", str(INCLUDE_ROOT), str(CPP_TESTS / program), *(str(INCLUDE_ROOT / u) for u in units)]
        cmd += ["-o", str(exe)]
        jobs[program] = (exe, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    results = {}
    for program, (exe, proc) in jobs.items():
        output, _ = proc.communicate(timeout=300)
        results[program] = (exe, output, proc.returncode == 0)
    return results


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_cpp_unit(built, program):
    exe, compile_output, ok = built[program]
    assert ok, f"compiling {program} failed:\n{compile_output}"
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"{program} failed:\n{run.stdout}{run.stderr}"
