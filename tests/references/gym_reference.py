"""The gymnasium env a task is checked against: the installed (current) gymnasium, or an older one for an older id.

rlpool's tasks name the current gymnasium id with their dynamics (``registry.task(t).gymnasium_id``: EnvPool's
``CliffWalking-v0`` is ``CliffWalking-v1``, ``Taxi-v3`` without rain is ``Taxi-v4``). Where an older id keeps
older dynamics that the current gymnasium no longer has (``Taxi-v3`` with ``is_rainy``: gymnasium 1.3 changed
the rain), the reference is that older gymnasium's own env module, loaded from its wheel on PyPI (fetched by
pip by name and version, sha256 checked, cached) on top of the installed gymnasium — the test environment
itself stays on the current gymnasium.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium as gym

from rlpool import pinned_wheel, registry
from rlpool.cache import cache_root

# Older gymnasium releases whose env modules serve as references: version -> wheel sha256.
WHEELS = {"1.2.2": "f04ec362b1fdf73a8b327db5ef89384a3f2ba411e05d3521513414fbbb2199c8"}


def cache_dir() -> Path:
    """Where the tests keep what they fetch or derive from a reference (wheels, sources, tables): a folder of
    rlpool's cache (``RLPOOL_CACHE_DIR`` moves it with the rest)."""
    return cache_root() / "test-references"


def _sources(version: str) -> Path:
    """gymnasium ``version``'s Python sources, from its pinned wheel (fetched once with pip, sha256 checked,
    unpacked under a lock by ``pinned_wheel.fetch_into``)."""
    wheel = pinned_wheel.PinnedWheel(
        package="gymnasium", version=version, file=f"gymnasium-{version}-py3-none-any.whl", sha256=WHEELS[version],
        megabytes=1, purpose="the tests' older gymnasium references", needed=f"the tests need gymnasium=={version}",
        error=RuntimeError, what_to_do="Check that pip reaches a package index.")

    def unpack(path: Path, staged: Path) -> None:
        with zipfile.ZipFile(path) as z:
            z.extractall(staged, [n for n in z.namelist() if n.startswith("gymnasium/") and n.endswith(".py")])
        (staged / "complete").write_text("ok\n")

    return pinned_wheel.fetch_into(wheel, cache_dir() / f"gymnasium-{version}", unpack,
                                   lambda folder: (folder / "complete").is_file())


def legacy_module(version: str, module: str) -> ModuleType:
    """gymnasium ``version``'s module ``module`` (e.g. ``gymnasium.envs.toy_text.taxi``), its imports served by
    the installed gymnasium (for these env modules, the shared pieces they import did not change)."""
    name = f"gymnasium_{version.replace('.', '_')}__{module.replace('.', '_')}"
    if name in sys.modules:
        return sys.modules[name]
    source = _sources(version) / (module.replace(".", "/") + ".py")
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
