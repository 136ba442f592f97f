"""The env reference: docs/envs/*.md are up to date, complete, and describe() covers every task."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from lane import REPO, build_missing, require

import rlpool
from rlpool.options import POOL_OPTIONS
from rlpool.registry import option_docs, task
from rlpool.tools import docgen as reference

DOCS = REPO / "docs" / "envs"
REGENERATE = "python -m rlpool.tools.docgen --write docs/envs"
HAVE_ROMS = importlib.util.find_spec("ale_py") is not None  # the Atari tasks' spaces need ale-py's ROMs


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    if not HAVE_ROMS:
        pytest.skip("ale-py is not installed: the Atari page cannot be generated")
    require(build_missing())  # every family's page describes its tasks' spaces
    return reference.pages()


def _family_tasks() -> dict[str, list[str]]:
    """Family page name -> the registered task ids its env docs cover."""
    out: dict[str, list[str]] = {}
    for family in reference.family_docs():
        types = {t for env in family.envs for t in env.env_types}
        out[f"{family.name}.md"] = [t for t in rlpool.list_all_envs() if task(t).env_type in types]
    return out


def test_pages_are_up_to_date(pages):
    assert {"classic_control.md", "toy_text.md", "atari.md", "mujoco.md"} <= set(pages)
    committed = {name: (DOCS / name).read_text(encoding="utf-8") for name in pages if (DOCS / name).is_file()}
    if committed != pages:
        # Asked again of a fresh interpreter: tests register tasks of their own (e.g. TaskMethodsProbe-v0),
        # which the pages of this process list but the committed ones must not. (Where this process's pages
        # equal the committed ones, that fresh run, about 20 s, is not needed.)
        check = subprocess.run(
            [sys.executable, "-m", "rlpool.tools.docgen", "--check", str(DOCS)], capture_output=True, text=True
        )
        assert check.returncode == 0, f"{check.stderr}\nregenerate with `{REGENERATE}` and commit"
    extra = sorted(p.name for p in DOCS.glob("*.md") if p.name not in pages)
    assert not extra, f"docs/envs has pages no family generates: {extra}"


def test_every_task_of_a_family_is_on_its_page(pages):
    tasks = _family_tasks()
    documented = {t for ids in tasks.values() for t in ids}
    for task_id in rlpool.list_all_envs():
        env_type = task(task_id).env_type
        assert task_id in documented or env_type in reference.UNDOCUMENTED_ENV_TYPES, task_id
    for name, ids in tasks.items():
        assert ids, name
        for task_id in ids:
            assert f"| `{task_id}` |" in pages[name], f"{task_id} has no row on {name}"


def _sections(page: str) -> list[list[str]]:
    """A page's lines split at its `## ` headings."""
    sections: list[list[str]] = [[]]
    for line in page.splitlines():
        if line.startswith("## "):
            sections.append([])
        sections[-1].append(line)
    return sections


def test_every_option_is_on_its_page_with_its_default(pages):
    for name, ids in _family_tasks().items():
        sections = _sections(pages[name])
        for task_id in ids:
            # The env's section: the one whose task table has the task's row.
            lines = next(sec for sec in sections if any(line.startswith(f"| `{task_id}` |") for line in sec))
            task_row = next(line for line in lines if line.startswith(f"| `{task_id}` |"))
            for o in option_docs(task_id):
                default = f"`{reference.format_value(o.default, page=True)}`"
                option_row = next((line for line in lines if line.startswith(f"| `{o.name}` |")), None)
                assert option_row is not None, f"{name}: option {o.name} of {task_id} is missing"
                if o.doc:
                    assert o.doc.replace("|", "\\|") in option_row, f"{name}: the doc of {o.name} is missing"
                if "per task" in option_row:
                    assert default in task_row, f"{name}: {task_id}'s {o.name} default {default} is missing"
                else:
                    assert default in option_row, f"{name}: {task_id}'s {o.name} default {default} is missing"
        pool = next(sec for sec in sections if sec[0] == "## Pool options")
        for pool_option, default in POOL_OPTIONS.items():
            assert any(line.startswith(f"| `{pool_option}` | `{default!r}` |") for line in pool), pool_option


def test_pages_name_no_machine_paths(pages):
    home = str(Path.home())
    for name, text in pages.items():
        assert "site-packages" not in text and f"{home}/" not in text, name


@pytest.mark.parametrize("task_id", rlpool.list_all_envs())
def test_describe_names_every_option(task_id):
    if task(task_id).env_type == "Atari" and not HAVE_ROMS:
        pytest.skip("ale-py is not installed")
    require(build_missing([task_id]))
    spec = rlpool.make_spec(task_id)
    text = spec.describe()
    assert text.startswith(f"{task_id}  (env type {spec.task.env_type})")
    for label in ("Action space: ", "Observation space: ", "Episode end:", "Pool options:"):
        assert label in text, label
    for o in option_docs(task_id):
        assert f"  {o.name} = " in text
    for name in POOL_OPTIONS:
        assert f"{name}=" in text


def test_describe_shows_the_configured_values():
    text = rlpool.make_spec("FrozenLake-v1", is_slippery=False, max_episode_steps=7).describe()
    assert "is_slippery = False  (default: True)" in text
    assert "map_name = '4x4'  (default)\n" in text
    assert "after max_episode_steps = 7 steps" in text
    # An option that changes the layout: the element table follows the configured space.
    text = rlpool.make_spec("Hopper-v5", exclude_current_positions_from_observation=False).describe()
    assert "Observation space: Box(-inf, inf, (12,), float64)" in text
    assert "  0      x of the torso (m)" in text
    text = rlpool.make_spec("Humanoid-v5", include_cvel_in_observation=False).describe()
    assert "cvel" not in text.split("Observation space")[1].split("Reward:")[0]
    assert "175–191  qfrc_actuator" in text


def test_describe_of_a_python_written_task(monkeypatch, tmp_path):
    pytest.importorskip("numba")
    from gymnasium import spaces

    from rlpool import python_env

    monkeypatch.setenv("RLPOOL_CACHE_DIR", str(tmp_path))
    if "DescribedDrift-v0" not in rlpool.list_all_envs():
        import numpy as np

        @python_env.register(
            "DescribedDrift-v0",
            obs=spaces.Box(-1.0, 1.0, (1,), np.float32),
            action=spaces.Discrete(2),
            state=1,
            options={"speed": 0.5},
            max_episode_steps=10,
        )
        class DescribedDrift:
            @staticmethod
            def reset(state, obs):
                state[0] = 0.0
                obs[0] = 0.0

            @staticmethod
            def step(state, action, obs):
                obs[0] = state[0]
                return 0.0, False

    text = rlpool.make_spec("DescribedDrift-v0").describe()
    assert "speed = 0.5  (default)" in text and "(no description)" in text
    assert "docs/python_envs.md" in text


def test_check_command(tmp_path, capsys, monkeypatch, pages):
    # The command's logic on the pages this module generated once (the fixture), not two more generations.
    monkeypatch.setattr(reference, "pages", lambda: pages)
    assert reference.main(["--write", str(tmp_path)]) == 0
    assert reference.main(["--check", str(tmp_path)]) == 0
    page = tmp_path / "classic_control.md"
    page.write_text(page.read_text() + "edited\n")
    assert reference.main(["--check", str(tmp_path)]) == 1
    assert REGENERATE in capsys.readouterr().err
