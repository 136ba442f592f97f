"""The DeepMind Control Suite's peer in ``rlpool bench``: ``dm_control``, the suite's own environments.

``dm_control`` is a Python loop over ``num_envs`` of dm_control's environments (``suite.load``), each
stepped with its row of the fixed actions and reset when its episode ends: what stepping the suite
directly costs, next to rlpool's pools and EnvPool's on the same task. The suite is dm_control 1.0.50's,
installed or the copy rlpool fetches (``suite_source``), as for the tasks' models.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from rlpool.envs.dmc import suite_source
from rlpool.envs.dmc.registration import DOMAINS
from rlpool.envs.dmc.registration import task_id as dmc_task_id
from rlpool.envs.dmc.suite_source import quiet_import
from rlpool.tools.bench import ENV_SEED, Peer, PeerUnavailable


def _suite() -> ModuleType:
    try:
        return suite_source.suite()
    except suite_source.DmControlUnavailableError as e:
        raise PeerUnavailable(f"dm_control {suite_source.VERSION}'s suite is unavailable ({e})") from None


def _dm_control_task(task: str) -> tuple[str, str]:
    """(domain, task) of a DeepMind Control Suite task id; PeerUnavailable for others or without dm_control."""
    for domain in DOMAINS:
        for name in domain.tasks:
            if dmc_task_id(domain.name, name) == task:
                _suite()
                return domain.name, name
    raise PeerUnavailable(f"{task} is not a DeepMind Control Suite task")


class DmControlRunner:
    """A Python loop over ``num_envs`` dm_control environments, each reset when its episode ends."""

    def __init__(self, task: str, num_envs: int, actions: np.ndarray) -> None:
        domain, name = _dm_control_task(task)
        suite = _suite()
        with quiet_import():  # GLFW: no display (nothing is rendered); absl on dm_control's XML
            self.envs = [suite.load(domain, name, task_kwargs={"random": ENV_SEED + i}) for i in range(num_envs)]
        for env in self.envs:
            env.reset()
        self.actions = np.asarray(actions, np.float64)
        self.batch_size = num_envs

    def run(self, calls: int) -> None:
        """Step every env ``calls`` times."""
        pairs = list(zip(self.envs, self.actions, strict=True))
        for _ in range(calls):
            for env, action in pairs:
                if env.step(action).last():
                    env.reset()

    def close(self) -> None:
        """Drop the envs."""
        self.envs = []


PEERS = (Peer("dm_control", _dm_control_task, DmControlRunner),)
