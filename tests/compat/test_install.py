"""``rlpool.compat.install()``: ``import envpool`` in unmodified code gives rlpool's EnvPool layer.

Each scenario runs in a fresh interpreter (what ``import envpool`` gives depends on what the process imported
before). Where the real EnvPool is installed (the test extra brings 1.2.5), the scenarios also show that it
is bypassed after ``install()`` and that ``install()`` refuses once it is imported. The legacy choice is shown
with a stand-in ``gym`` package (version 0.23.1 or 0.26.2) on ``PYTHONPATH``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HAS_REAL_ENVPOOL = importlib.util.find_spec("envpool") is not None
needs_real_envpool = pytest.mark.skipif(not HAS_REAL_ENVPOOL, reason="the real EnvPool is not installed")


def run(code: str, *paths: Path) -> str:
    """Run ``code`` in a fresh interpreter (``paths`` first on its ``PYTHONPATH``); its stdout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


@pytest.fixture
def fake_gym(tmp_path: Path):
    """A folder holding a stand-in ``gym`` package of a given version (with gym's ``Env`` and ``spaces``)."""

    def make(version: str) -> Path:
        root = tmp_path / f"gym-{version}"
        (root / "gym").mkdir(parents=True)
        (root / "gym" / "__init__.py").write_text(
            f"__version__ = {version!r}\nfrom gymnasium import spaces\n\n\nclass Env:\n    pass\n"
        )
        return root

    return make


def test_import_envpool_gives_the_layer():
    out = run("""
        import importlib.util, sys
        import numpy as np
        import rlpool.compat
        import rlpool.compat.envpool as layer

        assert rlpool.compat.install() == "modern" and rlpool.compat.installed_api() == "modern"
        assert importlib.util.find_spec("envpool").origin == "rlpool.compat.envpool"  # TorchRL's probe
        import envpool

        assert envpool.make_gymnasium is layer.make_gymnasium and envpool.__version__ == layer.__version__
        assert envpool.GymnasiumEnvPool is layer.GymnasiumEnvPool and envpool.ENVPOOL_CONFIG_KEYS  # via the layer
        envs = envpool.make_gymnasium("CartPole-v1", num_envs=2)
        obs, info = envs.reset()
        assert obs.shape == (2, 4) and list(info["env_id"]) == [0, 1]
        assert len(envs.step(np.zeros(2, dtype=np.int32))) == 5
        assert type(envpool.make_gym("CartPole-v1")) is layer.GymnasiumEnvPool
        assert type(envpool.make("CartPole-v1", env_type="gymnasium")) is layer.GymnasiumEnvPool
        assert type(envpool.make_dm("CartPole-v1")) is layer.DMEnvPool
        assert envpool.make_spec("CartPole-v1", num_envs=3).config.num_envs == 3
        assert "CartPole-v1" in envpool.list_all_envs()
        # No module of the real EnvPool is loaded, installed or not.
        assert all(getattr(m, "__rlpool_envpool_layer__", None) for n, m in sys.modules.items()
                   if n == "envpool" or n.startswith("envpool."))
        print(envpool.__name__, envpool.__spec__.origin)
    """)
    assert out.split() == ["envpool", "rlpool.compat.envpool"]


def test_submodules_that_libraries_import():
    run("""
        import numpy as np
        import rlpool.compat
        import rlpool.compat.envpool as layer

        rlpool.compat.install()
        from envpool.registration import list_all_envs, make, make_gymnasium, registry
        import envpool.python.protocol

        assert make is layer.make and make_gymnasium is layer.make_gymnasium
        assert registry.list_all_envs() == list_all_envs() and "CartPole-v1" in registry.specs
        assert registry.specs["CartPole-v1"] == ("rlpool.compat.envpool", "CartPole-v1", {})
        envs = registry.make_gymnasium("CartPole-v1", num_envs=2)
        protocol = envpool.python.protocol
        assert isinstance(envs, protocol.GymnasiumEnvPool) and isinstance(envs, protocol.EnvPool)
        assert isinstance(registry.make_dm("CartPole-v1"), protocol.DMEnvPool)
        assert isinstance(registry.make_spec("CartPole-v1"), protocol.EnvSpec)
        assert envpool.registration.registry is registry
        assert envpool.python.EnvPool is protocol.EnvPool
    """)


def test_third_party_code_runs_unmodified(tmp_path):
    """Modules that import envpool as TorchRL and rl_games do, imported after install(), get the layer."""
    (tmp_path / "torchrl_like.py").write_text(textwrap.dedent("""
        import importlib.util

        _has_envpool = importlib.util.find_spec("envpool") is not None


        def build(name, n):
            import envpool

            env = envpool.make(task_id=name, env_type="gym", num_envs=n, gym_reset_return_info=True,
                               max_num_players=1)
            assert isinstance(env, (envpool.python.envpool.EnvPoolMixin,))
            return env
    """))
    (tmp_path / "rl_games_like.py").write_text(textwrap.dedent("""
        import numpy as np


        def run(name, n):
            import envpool

            env = envpool.make(name, env_type="gym", num_envs=n, batch_size=n)
            ids = np.arange(n)
            env.reset(ids)
            obs, reward, terminated, truncated, info = env.step(np.zeros(n, dtype=np.int32), ids)
            return obs.shape, sorted(info)
    """))
    out = run("""
        import numpy as np
        import rlpool.compat

        rlpool.compat.install()
        import rl_games_like
        import torchrl_like

        assert torchrl_like._has_envpool
        env = torchrl_like.build("CartPole-v1", 3)
        assert env.reset()[0].shape == (3, 4) and env.spec.action_space.n == 2
        print(rl_games_like.run("CartPole-v1", 4))
    """, tmp_path)
    assert out.strip() == "((4, 4), ['elapsed_step', 'env_id', 'players'])"


def test_modules_not_served_are_missing():
    """EnvPool's per-family modules are not served (even where the real EnvPool has them): missing, not broken."""
    out = run("""
        import importlib.util
        import rlpool.compat

        rlpool.compat.install()
        assert importlib.util.find_spec("envpool.registration") is not None
        assert importlib.util.find_spec("envpool.atari") is None
        try:
            import envpool.atari
        except ModuleNotFoundError as e:
            print(e.name)
        import envpool

        try:
            envpool.no_such_name
        except AttributeError as e:
            print(e)
    """)
    name, error = out.splitlines()
    assert name == "envpool.atari" and "rlpool's EnvPool layer" in error and "no_such_name" in error


@needs_real_envpool
def test_refuses_after_the_real_envpool_is_imported():
    out = run("""
        import envpool
        import rlpool.compat

        real = envpool.__file__
        try:
            rlpool.compat.install()
        except RuntimeError as e:
            print(e)
        import envpool as again

        assert again.__file__ == real and rlpool.compat.installed_api() is None
    """)
    assert "the real EnvPool is already imported" in out
    assert "before anything imports envpool" in out and "rlpool.compat.envpool as envpool" in out


def test_install_twice_and_uninstall():
    out = run("""
        import sys
        import rlpool.compat
        from rlpool.compat.envpool_alias import _Finder

        assert rlpool.compat.install() == rlpool.compat.install("modern") == "modern"
        assert sum(isinstance(f, _Finder) for f in sys.meta_path) == 1
        assert rlpool.compat.install("legacy") == "legacy"  # nothing imported yet: the api may change
        assert rlpool.compat.install("modern") == "modern"
        import envpool

        envs = envpool.make_gymnasium("CartPole-v1", num_envs=2)
        try:
            rlpool.compat.install("legacy")
        except RuntimeError as e:
            print("switch:", e)
        try:
            rlpool.compat.install("new")
        except ValueError as e:
            print("bad:", e)
        rlpool.compat.uninstall()
        rlpool.compat.uninstall()
        assert rlpool.compat.installed_api() is None and not any(isinstance(f, _Finder) for f in sys.meta_path)
        assert not [n for n in sys.modules if n == "envpool" or n.startswith("envpool.")]
        assert envs.reset()[0].shape == (2, 4)  # what was made keeps working
        assert rlpool.compat.install("legacy") == "legacy"
        import envpool

        assert envpool.__spec__.origin == "rlpool.compat.envpool_legacy"
    """)
    assert "switch: " in out and "uninstall() first" in out
    assert "bad: api must be 'auto', 'modern' or 'legacy'" in out


@needs_real_envpool
def test_after_uninstall_the_real_envpool_imports():
    out = run("""
        import rlpool.compat

        rlpool.compat.install()
        import envpool

        assert envpool.__spec__.origin == "rlpool.compat.envpool"
        rlpool.compat.uninstall()
        import envpool

        print(envpool.__spec__.origin)
    """)
    assert out.strip().endswith(os.path.join("envpool", "__init__.py"))


def test_auto_picks_legacy_under_old_gym(fake_gym):
    out = run("""
        import numpy as np
        import rlpool.compat

        assert rlpool.compat.install() == "legacy"
        import envpool
        import gym

        import rlpool.compat.envpool_legacy as legacy

        assert envpool.make_gym is legacy.make_gym and envpool.__spec__.origin == "rlpool.compat.envpool_legacy"
        envs = envpool.make("CartPole-v1", env_type="gym", num_envs=2)
        assert envs.reset().shape == (2, 4) and isinstance(envs, gym.Env)
        obs, reward, done, info = envs.step(np.zeros(2, dtype=np.int32))
        assert "TimeLimit.truncated" in info
        from envpool.registration import registry

        assert type(registry.make_gym("CartPole-v1")) is legacy.GymEnvPool
        print(gym.__version__)
    """, fake_gym("0.23.1"))
    assert out.strip() == "0.23.1"


def test_auto_picks_modern_under_gym_026_and_api_forces_either(fake_gym):
    run("""
        import rlpool.compat

        assert rlpool.compat.install() == "modern"
    """, fake_gym("0.26.2"))
    run("""
        import numpy as np
        import rlpool.compat

        assert rlpool.compat.install(api="modern") == "modern"
        import envpool

        assert len(envpool.make_gym("CartPole-v1", num_envs=2).step(np.zeros(2, dtype=np.int32))) == 5
    """, fake_gym("0.23.1"))
    run("""
        import numpy as np
        import rlpool.compat

        assert rlpool.compat.install(api="legacy") == "legacy"
        import envpool

        assert len(envpool.make_gym("CartPole-v1", num_envs=2).step(np.zeros(2, dtype=np.int32))) == 4
    """)
