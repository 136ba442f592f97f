"""Tests leave nothing behind in the temp dir (SB3's logger used to leave SB3-<timestamp> folders)."""

import glob
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from lane import REPO

pytest.importorskip("stable_baselines3")

ROOT = REPO


def test_a_pytest_run_that_trains_sb3_leaves_no_sb3_folder(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    (tmp_path / "test_one.py").write_text(textwrap.dedent("""
        from stable_baselines3 import PPO
        from rlpool.integrations.sb3 import RlpoolVecEnv

        def test_learn():
            PPO("MlpPolicy", RlpoolVecEnv("CartPole-v1", num_envs=2), n_steps=16, batch_size=16).learn(32)
    """))
    env = dict(os.environ, TMPDIR=str(temp), PYTHONPATH=os.pathsep.join([str(ROOT / "src"), *sys.path]))
    env.pop("SB3_LOGDIR", None)
    conftest = ROOT / "tests" / "conftest.py"
    (tmp_path / "conftest.py").write_text(conftest.read_text())
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=240,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert tempfile.gettempdir() != str(temp)  # the child, not this process, used `temp`
    assert glob.glob(str(temp / "SB3-*")) == [], os.listdir(temp)

