"""Every task id the installed gymnasium registers for rlpool's families is an rlpool task."""

import warnings

import gymnasium as gym
import pytest

import rlpool

# gymnasium's modules of the families rlpool has (its Box2D family and jax envs are not rlpool's yet).
FAMILIES = ("gymnasium.envs.classic_control.", "gymnasium.envs.toy_text.", "gymnasium.envs.mujoco.")


def test_every_current_gymnasium_id_of_our_families_is_registered() -> None:
    ours = set(rlpool.list_all_envs())
    theirs = sorted(
        k for k, s in gym.registry.items()
        if isinstance(s.entry_point, str) and s.entry_point.startswith(FAMILIES) and "/" not in k
    )
    assert len(theirs) > 30
    missing = [k for k in theirs if k not in ours]
    assert missing == []


def test_atari_ids_are_gymnasiums_without_the_namespace() -> None:
    ale_py = pytest.importorskip("ale_py")
    gym.register_envs(ale_py)
    theirs = {k.split("/")[1] for k in gym.registry if k.startswith("ALE/") and k.endswith("-v5")}
    assert len(theirs) == 104
    assert theirs <= set(rlpool.list_all_envs())


@pytest.mark.parametrize("task_id", [t for t in rlpool.list_all_envs() if rlpool.registry.task(t).gymnasium_id])
def test_a_named_gymnasium_id_exists_in_the_installed_gymnasium(task_id: str) -> None:
    """gymnasium's own ids, or those a package of envs adds to its registry (gymnasium-robotics' Fetch-v4...)."""
    gymnasium_id = rlpool.registry.task(task_id).gymnasium_id
    if gymnasium_id not in gym.registry:
        register_env_packages()
    assert gymnasium_id in gym.registry


def register_env_packages() -> None:
    """Add the ids of the installed env packages that register with gymnasium on import (a skip where absent)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gym.register_envs(pytest.importorskip("gymnasium_robotics"))
