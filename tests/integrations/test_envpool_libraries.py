"""Training libraries' own EnvPool code paths, unmodified, on rlpool through ``rlpool.compat.install()``.

Each library runs in a virtualenv of its own, cached under rlpool's cache, that sees this environment's
packages (rlpool, torch, numpy, gymnasium) through a ``.pth`` file and holds the library at its pinned
release, installed by pip with what it needs beyond them. A short run of the library's EnvPool path (its
vector env over ``import envpool``, a couple of training epochs) must finish, and ``envpool`` must have been
rlpool's layer. Full lane only (CI): the first run installs the libraries.

- rl_games 1.6.5: its ``envpool`` vecenv (``make(..., num_envs, batch_size)``, ``step(action, env_ids)``,
  ``info["reward"]``) under its Runner, PPO (a2c_discrete) on CartPole-v1.
- Tianshou 2.0.1 (with its ``eval`` extra, which the high-level API imports): its ``EnvPoolFactory``
  (``make_gymnasium``) under a high-level PPO experiment on CartPole-v1.
- TorchRL 0.14.1 with gym 0.23.1: its ``MultiThreadedEnv`` (``envpool.make(..., env_type="gym")``, whose
  ``spec.action_space`` it converts as a gym space: the legacy layer's, as EnvPool's were with that gym)
  passes ``check_env_specs`` and feeds its ``Collector`` and ``ClipPPOLoss`` for a few PPO updates.
"""

from __future__ import annotations

import site
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cached_venv import cached_venv, pip_install
from lane import FULL, import_torch_or_skip, require

from rlpool.cache import cache_root

pytestmark = pytest.mark.skipif(not FULL, reason="full lane (RLPOOL_FULL_REFERENCE=1, as in CI): installs libraries")

SERVED_BY_RLPOOL = "import envpool; print('ENVPOOL', envpool.__spec__.origin)"


def library_python(name: str, requirements: list[str]) -> Path:
    """A cached virtualenv's Python with ``requirements`` on top of this environment's packages."""
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    folder = cache_root() / "integrations" / f"{name}-{tag}"
    outer = [p for p in site.getsitepackages() if Path(p).is_dir()]

    def install(python: Path) -> None:
        inner = subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True
        ).strip()
        # After the virtualenv's own site-packages: what pip installs there comes first.
        lines = "".join(f"import site; site.addsitedir({p!r})\n" for p in outer)
        (Path(inner) / "_rlpool_outer.pth").write_text(lines)
        pip_install(python, requirements)

    try:
        return cached_venv(folder, [*requirements, *outer], install, what=f"{name}'s virtualenv")
    except Exception as e:  # no network, no pip: the library cannot run here
        require(f"{name}'s virtualenv could not be made in {folder}: {e}")
        raise


def run_script(python: Path, script: str, timeout: float = 600) -> str:
    """Run ``script`` in ``python`` from rlpool's cache dir; its stdout, or a failure quoting its output.

    The script ends by printing which module ``envpool`` was, which must be rlpool's layer.
    """
    code = textwrap.dedent(script) + "\n" + SERVED_BY_RLPOOL + "\n"
    result = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, timeout=timeout, cwd=cache_root()
    )
    assert result.returncode == 0, f"exit {result.returncode}:\n{(result.stdout + result.stderr)[-4000:]}"
    served = [line for line in result.stdout.splitlines() if line.startswith("ENVPOOL ")]
    assert served and "rlpool" in served[-1], f"envpool was not rlpool's layer: {served}"
    return result.stdout


def test_rl_games_envpool_vecenv_trains():
    import_torch_or_skip()
    python = library_python("rl_games-1.6.5", ["rl-games==1.6.5"])
    out = run_script(
        python,
        """
        import rlpool.compat
        rlpool.compat.install()
        from rl_games.torch_runner import Runner

        config = {
            "params": {
                "seed": 5,
                "algo": {"name": "a2c_discrete"},
                "model": {"name": "discrete_a2c"},
                "network": {
                    "name": "actor_critic", "separate": False, "space": {"discrete": {}},
                    "mlp": {"units": [32, 32], "activation": "relu", "initializer": {"name": "default"}},
                },
                "config": {
                    "name": "CartPole-v1_envpool", "env_name": "envpool", "device": "cpu", "device_name": "cpu",
                    "reward_shaper": {"scale_value": 0.1}, "normalize_advantage": True, "gamma": 0.99,
                    "tau": 0.95, "learning_rate": 3e-4, "score_to_win": 500, "grad_norm": 1.0,
                    "entropy_coef": 0.01, "truncate_grads": True, "e_clip": 0.2, "clip_value": True,
                    "num_actors": 8, "horizon_length": 32, "minibatch_size": 64, "mini_epochs": 2,
                    "critic_coef": 1, "max_epochs": 3, "normalize_input": False, "normalize_value": False,
                    "value_bootstrap": False, "bounds_loss_coef": 0.0, "lr_schedule": None,
                    "env_config": {"env_name": "CartPole-v1", "has_lives": False},
                },
            }
        }
        runner = Runner()
        runner.load(config)
        runner.reset()
        runner.run({"train": True, "play": False, "checkpoint": None, "sigma": None})
        print("TRAINED")
        """,
    )
    assert "TRAINED" in out


def test_tianshou_envpool_factory_trains():
    import_torch_or_skip()
    python = library_python("tianshou-2.0.1", ["tianshou[eval]==2.0.1"])
    out = run_script(
        python,
        """
        import rlpool.compat
        rlpool.compat.install()
        from tianshou.highlevel.config import OnPolicyTrainingConfig
        from tianshou.highlevel.env import EnvFactoryRegistered, EnvPoolFactory, VectorEnvType
        from tianshou.highlevel.experiment import ExperimentConfig, PPOExperimentBuilder

        experiment = PPOExperimentBuilder(
            EnvFactoryRegistered(task="CartPole-v1", venv_type=VectorEnvType.DUMMY, envpool_factory=EnvPoolFactory()),
            ExperimentConfig(persistence_enabled=False, watch=False, device="cpu", log_file_enabled=False),
            OnPolicyTrainingConfig(max_epochs=2, epoch_num_steps=1024, num_training_envs=4, num_test_envs=2,
                                   collection_step_num_env_steps=256, batch_size=64, test_step_num_episodes=2),
        ).build()
        result = experiment.run()
        print("TRAINED", result.trainer_result is not None)
        """,
    )
    assert "TRAINED True" in out


def test_torchrl_multithreaded_env_trains():
    import_torch_or_skip()
    python = library_python("torchrl-0.14.1", ["torchrl==0.14.1", "gym==0.23.1", "treevalue==1.5.0"])
    out = run_script(
        python,
        """
        import rlpool.compat
        rlpool.compat.install()
        import torch
        from tensordict.nn import TensorDictModule
        from torchrl.collectors import Collector
        from torchrl.envs import MultiThreadedEnv
        from torchrl.envs.utils import check_env_specs
        from torchrl.modules import MLP, ProbabilisticActor, ValueOperator
        from torchrl.objectives import ClipPPOLoss
        from torchrl.objectives.value import GAE

        torch.manual_seed(0)
        env = MultiThreadedEnv(8, "CartPole-v1", create_env_kwargs={"seed": 0})
        check_env_specs(env)
        logits = TensorDictModule(MLP(in_features=4, out_features=2, num_cells=[32]), in_keys=["observation"],
                                  out_keys=["logits"])
        actor = ProbabilisticActor(logits, in_keys=["logits"], spec=env.action_spec,
                                   distribution_class=torch.distributions.Categorical, return_log_prob=True)
        critic = ValueOperator(MLP(in_features=4, out_features=1, num_cells=[32]), in_keys=["observation"])
        collector = Collector(env, actor, frames_per_batch=256, total_frames=2048)
        advantage = GAE(gamma=0.99, lmbda=0.95, value_network=critic)
        loss = ClipPPOLoss(actor, critic)
        optim = torch.optim.Adam(loss.parameters(), lr=3e-4)
        batches = 0
        for data in collector:
            # MultiThreadedEnv's reward and done are (num_workers,) per step; GAE wants a trailing 1.
            for key in ("reward", "done", "terminated", "truncated"):
                data["next", key] = data["next", key].unsqueeze(-1)
            advantage(data)
            out = loss(data.reshape(-1))
            total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
            optim.zero_grad()
            total.backward()
            optim.step()
            batches += 1
        collector.shutdown()
        env.close()
        print("TRAINED", batches)
        """,
    )
    assert "TRAINED 8" in out
