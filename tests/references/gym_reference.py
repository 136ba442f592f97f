"""The gymnasium env a task is checked against: the installed (current) gymnasium, or an older one for an older id.

rlpool's tasks name the current gymnasium id with their dynamics (``registry.task(t).gymnasium_id``: EnvPool's
``CliffWalking-v0`` is ``CliffWalking-v1``, ``Taxi-v3`` without rain is ``Taxi-v4``). Where an older id keeps
older dynamics that the current gymnasium no longer has (``Taxi-v3`` with ``is_rainy``: gymnasium 1.3 changed
the rain), the reference is that older gymnasium's own env module, loaded from its wheel on PyPI (fetched by
pip by name and version, sha256 checked, cached) on top of the installed gymnasium — the test environment
itself stays on the current gymnasium.
"""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium as gym

from rlpool import registry
from rlpool.cache import cache_root, write_atomically
from rlpool.pinned_wheel import file_lock

# Older gymnasium releases whose env modules serve as references: version -> wheel sha256.
WHEELS = {"1.2.2": "f04ec362b1fdf73a8b327db5ef89384a3f2ba411e05d3521513414fbbb2199c8"}


def cache_dir() -> Path:
    """Where the tests keep what they fetch or derive from a reference (wheels, sources, tables): a folder of
    rlpool's cache (``RLPOOL_CACHE_DIR`` moves it with the rest)."""
    return cache_root() / "test-references"


def _wheel(version: str) -> Path:
    """gymnasium ``version``'s wheel, fetched once with pip and checked against its pinned sha256."""
    name = f"gymnasium-{version}-py3-none-any.whl"
    path = cache_dir() / name
    if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != WHEELS[version]:
        path.parent.mkdir(parents=True, exist_ok=True)
        run = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(path.parent),
             f"gymnasium=={version}"],
            capture_output=True, text=True,
        )
        if run.returncode != 0 or not path.exists():
            raise RuntimeError(f"could not fetch gymnasium=={version} with pip:\n{run.stdout}{run.stderr}")
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != WHEELS[version]:
            path.unlink()
            raise RuntimeError(f"{name} has sha256 {digest}, expected {WHEELS[version]}")
    return path


def legacy_module(version: str, module: str) -> ModuleType:
    """gymnasium ``version``'s module ``module`` (e.g. ``gymnasium.envs.toy_text.taxi``), its imports served by
    the installed gymnasium (for these env modules, the shared pieces they import did not change)."""
    name = f"gymnasium_{version.replace('.', '_')}__{module.replace('.', '_')}"
    if name in sys.modules:
        return sys.modules[name]
    source_dir = cache_dir() / f"gymnasium-{version}"
    source = source_dir / (module.replace(".", "/") + ".py")
    if not source.exists():
        cache_dir().mkdir(parents=True, exist_ok=True)
        with file_lock(cache_dir() / f".gymnasium-{version}.lock"):  # xdist's other worker may fetch it too
            if not source.exists():
                with zipfile.ZipFile(_wheel(version)) as wheel:
                    write_atomically(source, wheel.read(module.replace(".", "/") + ".py"))
    spec = importlib.util.spec_from_file_location(name, source)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[name] = loaded
    spec.loader.exec_module(loaded)
    return loaded


def gym_id(task_id: str) -> str:
    """The current gymnasium's id for rlpool's ``task_id``."""
    return registry.task(task_id).gymnasium_id or task_id


def make(task_id: str, **options: Any) -> gym.Env:
    """The reference env of rlpool's ``task_id`` with rlpool's options (``desc`` as gymnasium's list of rows)."""
    if "desc" in options:
        options = {**options, "desc": options["desc"].split(",")}
    if task_id == "Taxi-v3" and options.get("is_rainy"):
        limit = options.pop("max_episode_steps", None)
        env: gym.Env = legacy_module("1.2.2", "gymnasium.envs.toy_text.taxi").TaxiEnv(**options)
        env = gym.wrappers.OrderEnforcing(env)
        return gym.wrappers.TimeLimit(env, limit or registry.task(task_id).max_episode_steps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gym.make(gym_id(task_id), **options)
