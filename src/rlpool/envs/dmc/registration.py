"""DeepMind Control Suite tasks under EnvPool's ids (``CheetahRun-v1``, ``HumanoidCMUWalk-v1``, ...).

The models are dm_control 1.0.50's: ``model_file`` saves its suite's compiled model of a task as an MJB file,
once per dm_control and MuJoCo version. The suite is the installed dm_control's
(``pip install 'dm-control==1.0.50'``, rlpool's ``dmc`` extra), or, where dm_control is not installed, a copy
of its wheel that rlpool fetches as a file (``suite_source``).
"""

from __future__ import annotations

import importlib.metadata
import math
import threading
from dataclasses import dataclass
from typing import Any

from rlpool import _rlpool_core
from rlpool.cache import cache_root, write_atomically
from rlpool.envs.dmc import suite_source
from rlpool.registry import register

DM_CONTROL_VERSION = suite_source.VERSION
"""The dm_control release whose suite the C++ tasks follow (installed by the ``dmc`` extra, or fetched)."""

NO_TIME_LIMIT_STEPS = 2**31 - 1
"""max_episode_steps of a task without time limit (dm_control's lqr: ``time_limit=inf``)."""


@dataclass(frozen=True)
class Domain:
    """A dm_control domain: its tasks and the timing dm_control gives them."""

    name: str
    tasks: tuple[str, ...]
    timestep: float
    """The model's physics timestep (s), from its XML."""
    n_sub_steps: int
    """Physics steps per control step (dm_control's control_timestep / timestep)."""
    time_limit: float
    """The default episode length in seconds (dm_control's ``time_limit``)."""


DOMAINS = (
    Domain("acrobot", ("swingup", "swingup_sparse"), 0.01, 1, 10.0),
    Domain("ball_in_cup", ("catch",), 0.002, 10, 20.0),
    Domain("cartpole", ("balance", "balance_sparse", "swingup", "swingup_sparse", "two_poles", "three_poles"),
           0.01, 1, 10.0),
    Domain("cheetah", ("run",), 0.01, 1, 10.0),
    Domain("dog", ("stand", "walk", "trot", "run", "fetch"), 0.005, 3, 15.0),
    Domain("finger", ("spin", "turn_easy", "turn_hard"), 0.01, 2, 20.0),
    Domain("fish", ("upright", "swim"), 0.004, 10, 40.0),
    Domain("hopper", ("stand", "hop"), 0.005, 4, 20.0),
    Domain("humanoid", ("stand", "walk", "run", "run_pure_state"), 0.005, 5, 25.0),
    Domain("humanoid_CMU", ("stand", "walk", "run"), 0.002, 10, 20.0),
    Domain("lqr", ("lqr_2_1", "lqr_6_2"), 0.03, 1, math.inf),
    Domain("manipulator", ("bring_ball", "bring_peg", "insert_ball", "insert_peg"), 0.001, 10, 10.0),
    Domain("pendulum", ("swingup",), 0.02, 1, 20.0),
    Domain("point_mass", ("easy", "hard"), 0.02, 1, 20.0),
    Domain("quadruped", ("walk", "run", "escape", "fetch"), 0.005, 4, 20.0),
    Domain("reacher", ("easy", "hard"), 0.02, 1, 20.0),
    Domain("stacker", ("stack_2", "stack_4"), 0.001, 10, 10.0),
    Domain("swimmer", ("swimmer6", "swimmer15"), 0.002, 15, 30.0),
    Domain("walker", ("stand", "walk", "run"), 0.0025, 10, 25.0),
)


def camel(name: str) -> str:
    """``"ball_in_cup"`` -> ``"BallInCup"``, ``"humanoid_CMU"`` -> ``"HumanoidCMU"``, ``"lqr_2_1"`` -> ``"Lqr21"``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def task_id(domain: str, task: str) -> str:
    """EnvPool's id of a dm_control task: ``("cheetah", "run")`` -> ``"CheetahRun-v1"``."""
    return f"{camel(domain)}{camel(task)}-v1"


def env_type(domain: str) -> str:
    """The C++ env type of a domain: ``"cheetah"`` -> ``"DmcCheetah"``."""
    return f"Dmc{camel(domain)}"


_lock = threading.Lock()
_files: dict[tuple[str, str], str] = {}


def model_file(domain: str, task: str) -> str:
    """Path of the MJB file of dm_control 1.0.50's compiled model for ``domain``/``task``, made on first use.

    The file is named after dm_control's version and the installed mujoco's, so a cached one is found from
    metadata alone: dm_control (a second to import) is imported, or fetched (``suite_source``), only to
    compile a model that is not cached. Raises ``suite_source.DmControlUnavailableError`` (an ImportError)
    naming dm-control==1.0.50 and what to install when the suite can be neither imported nor fetched.
    """
    with _lock:
        if (domain, task) in _files:
            return _files[domain, task]
        mujoco = importlib.metadata.version("mujoco")
        path = cache_root() / "dmc" / f"{domain}-{task}-dm_control{DM_CONTROL_VERSION}-mujoco{mujoco}.mjb"
        if not path.is_file():
            write_atomically(path, suite_source.compiled_model(domain, task))
        _files[domain, task] = str(path)
        return _files[domain, task]


def _register(domain: Domain) -> None:
    def prepare(config: dict[str, Any]) -> dict[str, Any]:
        task = config["task_name"]
        if task not in domain.tasks:
            raise ValueError(f"task_name {task!r} is not a task of dm_control's {domain.name}; known: {domain.tasks}")
        return {"_model_file": model_file(domain.name, task)}

    def episode_steps(config: dict[str, Any]) -> int:
        limit = config["time_limit"]
        if not limit > 0:
            raise ValueError(f"time_limit must be > 0 seconds (inf: no limit), got {limit}")
        if math.isinf(limit):
            return NO_TIME_LIMIT_STEPS
        # dm_control: an episode ends once step_count >= time_limit / (timestep * n_sub_steps).
        control_steps = limit / (domain.timestep * domain.n_sub_steps)
        return min(NO_TIME_LIMIT_STEPS, max(1, math.ceil(control_steps / config["frame_skip"])))

    for task in domain.tasks:
        register(
            task_id(domain.name, task),
            env_type(domain.name),
            max_episode_steps=episode_steps({"time_limit": domain.time_limit, "frame_skip": 1}),
            time_limit=domain.time_limit,
            prepare=prepare,
            episode_steps=episode_steps,
            task_name=task,
        )


_COMPILED = {name for name, _, _ in _rlpool_core.env_types()}
for _domain in DOMAINS:
    if env_type(_domain.name) in _COMPILED:  # tests/envs/dmc/test_dmc.py checks that every domain is
        _register(_domain)
