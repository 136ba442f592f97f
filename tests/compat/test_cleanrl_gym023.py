"""CleanRL's two EnvPool Atari scripts, as they use the env, on ``rlpool.compat.envpool_legacy`` under gym 0.23.

The scripts need gym < 0.26 (their 4-tuple ``step``, ``gym.Wrapper``, ``gym.spaces.Discrete`` assert). gym 0.23.1
goes into a virtual environment of its own (made once, kept in rlpool's cache) that sees this environment's
packages through a ``.pth`` file; ``import envpool`` there is answered by the legacy module. Needs PyPI (or a
pip index) the first time: without one the test skips, except under CI=true where it fails.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from cached_venv import cached_venv, pip_install
from lane import require

import rlpool
from rlpool.cache import cache_root

TESTS = Path(__file__).resolve().parents[1]
GYM = "gym==0.23.1"

pytestmark = pytest.mark.skipif("Breakout-v5" not in rlpool.list_all_envs(), reason="the Atari family is not built")


@pytest.fixture(scope="module")
def gym023_python() -> Path:
    """A python with gym 0.23.1 and this environment's packages (made once, kept in rlpool's cache)."""
    outer = sysconfig.get_paths()["purelib"]
    # One per outer environment (CI's virtualenv and a developer's both keep theirs).
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}-{hashlib.sha256(outer.encode()).hexdigest()[:8]}"
    folder = cache_root() / "integrations" / f"gym-0.23.1-{tag}"

    def install(python: Path) -> None:
        purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 check=True, capture_output=True, text=True).stdout.strip()
        # addsitedir, not a bare path: the outer environment's own .pth files run too (an editable install of
        # rlpool finds its compiled extension through one).
        Path(purelib, "_rlpool_outer_env.pth").write_text(f"import site; site.addsitedir({outer!r})\n")
        pip_install(python, ["--retries=3", "--timeout=30", GYM])

    try:
        return cached_venv(folder, [GYM, outer], install, what="gym 0.23.1's virtualenv")
    except Exception as e:  # no package index: the scripts cannot run here
        require(f"pip could not install {GYM} into {folder} (no package index reachable?): {e}")
        raise


def run_script(python: Path, script: str, env_id: str, num_envs: int, num_steps: int, iterations: int) -> dict:
    runner = (
        "import runpy, sys; import rlpool.compat.envpool_legacy as envpool; sys.modules['envpool'] = envpool; "
        f"sys.argv = ['{script}', '{script}', '{env_id}', '{num_envs}', '{num_steps}', '{iterations}']; "
        f"runpy.run_path({str(TESTS / 'cleanrl_envpool_scripts.py')!r}, run_name='__main__')"
    )
    # The child imports rlpool as this process did: from the outer environment (an installed or editable
    # rlpool) or, for a source-tree run, from the PYTHONPATH it inherits.
    done = subprocess.run([str(python), "-c", runner], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-4000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("script", ["ppo", "pqn"])
def test_cleanrl_atari_envpool_script_runs_on_gym023(gym023_python, script):
    out = run_script(gym023_python, script, "Breakout-v5", num_envs=8, num_steps=128, iterations=3)
    assert out["gym"] == "0.23.1"
    assert out["is_gym_env"] and out["obs_space"].startswith("gym.spaces")  # gym's spaces, not gymnasium's
    assert all(m.startswith("gym.spaces") for m in out["spec_spaces"]), out["spec_spaces"]
    assert out["steps"] == 3072 and out["obs_shape"] == [4, 84, 84] and out["n"] == 4
    # episodic_life=True: every lost life ends an episode (done); a game ends when the last life goes.
    # Random Breakout play loses a life every ~30-40 steps, a 5-life game in ~150-200.
    assert out["life_ends"] >= 40
    assert out["game_ends"] >= 5 and len(out["returns"]) == out["game_ends"]
    assert all(0 <= r <= 20 for r in out["returns"])  # clipped rewards summed over one random game


@pytest.mark.skipif(importlib.util.find_spec("gym") is not None, reason="gym is installed here")
def test_legacy_without_old_gym_keeps_gymnasium_spaces():
    """Without gym the legacy pools keep gymnasium's spaces (and the module imports no gym)."""
    import gymnasium

    import rlpool.compat.envpool_legacy as legacy

    assert legacy._GYM is None and "gym" not in sys.modules
    envs = legacy.make("CartPole-v1", env_type="gym", num_envs=2)
    assert isinstance(envs.action_space, gymnasium.spaces.Discrete)
    envs.close()


CLEANRL_DIR = os.environ.get("RLPOOL_CLEANRL_DIR")
"""A folder holding CleanRL's own scripts (``cleanrl/`` of a CleanRL checkout), to run them unmodified."""
REAL_SCRIPTS = {
    "ppo_atari_envpool.py": ["--total-timesteps", "3072", "--num-envs", "8", "--num-steps", "128", "--no-cuda"],
    "pqn_atari_envpool.py": ["--total-timesteps", "3072", "--num-envs", "8", "--num-steps", "128", "--no-cuda"],
    "ppo_atari_envpool_xla_jax_scan.py": ["--total-timesteps", "3072", "--num-envs", "8", "--num-steps", "128"],
}


@pytest.mark.skipif(CLEANRL_DIR is None, reason="set RLPOOL_CLEANRL_DIR to a CleanRL checkout's cleanrl/ folder")
@pytest.mark.parametrize("script", sorted(REAL_SCRIPTS))
def test_real_cleanrl_script_runs_unmodified(gym023_python, script, tmp_path):
    """CleanRL's own EnvPool script, from a checkout the user has, unmodified: ``import envpool`` is answered by
    ``rlpool.compat.install()`` (the legacy layer, as gym 0.23.1 is installed), a few thousand steps."""
    path = Path(CLEANRL_DIR, script)
    if not path.is_file():
        pytest.skip(f"{path} does not exist")
    needs = ["tyro", "tensorboard"] + (["flax", "optax"] if "jax" in script else [])
    pip = [str(gym023_python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *needs]
    subprocess.run(pip, check=True, capture_output=True, text=True, timeout=600)
    runner = (
        "import runpy, sys; import rlpool.compat; rlpool.compat.install(); "
        f"sys.argv = [{str(path)!r}, *{REAL_SCRIPTS[script]!r}]; runpy.run_path({str(path)!r}, run_name='__main__')"
    )
    done = subprocess.run([str(gym023_python), "-c", runner], capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
