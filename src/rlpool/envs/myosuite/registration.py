"""MyoSuite task ids: myosuite 2.11.6's own (``myoHandPoseRandom-v0``) and EnvPool 1.2.7's (``MyoSuite/<id>``).

Each id runs the C++ env type ``MyoSuite`` with ``task_name`` = the myosuite id and myosuite's time limit
(``tasks.py``); ``prepare`` gives it the unpacked models. Only the ids whose class the C++ env implements
(``IMPLEMENTED``) are registered, less ``NOT_YET``: ids of an implemented class that need more than the class.
"""

from __future__ import annotations

from rlpool import _rlpool_core
from rlpool.envs.myosuite import prepare
from rlpool.envs.myosuite.tasks import TASKS, Task
from rlpool.registry import register

ENV_TYPE = "MyoSuite"
ALIAS_PREFIX = "MyoSuite/"
"""EnvPool 1.2.7 registers each myosuite id also as ``MyoSuite/<id>``."""

IMPLEMENTED = frozenset({
    "pose_v0:PoseEnvV0",
    "reach_v0:ReachEnvV0",
    "key_turn_v0:KeyTurnEnvV0",
    "obj_hold_v0:ObjHoldFixedEnvV0",
    "obj_hold_v0:ObjHoldRandomEnvV0",
    "pen_v0:PenTwirlFixedEnvV0",
    "pen_v0:PenTwirlRandomEnvV0",
    "torso_v0:TorsoEnvV0",
    "walk_v0:ReachEnvV0",
    "walk_v0:WalkEnvV0",
    "walk_v0:TerrainEnvV0",
    "baoding_v1:BaodingEnvV1",
    "reorient_v0:ReorientEnvV0",
    "relocate_v0:RelocateEnvV0",
    "myodm_v0:TrackEnv",
    "reorient_sar_v0:Geometries8EnvV0",
    "reorient_sar_v0:Geometries100EnvV0",
    "reorient_sar_v0:InDistribution",
    "reorient_sar_v0:OutofDistribution",
    "tabletennis_v0:TableTennisEnvV0",
    "run_track_v0:RunTrack",
    "chasetag_v0:ChaseTagEnvV0",
    "soccer_v0:SoccerEnvV0",
    "bimanual_v0:BimanualEnvV1",
})
"""The classes (``tasks.Task.cls``) whose ids are registered: one line per class the C++ env implements."""

NOT_YET: frozenset[str] = frozenset()
"""Ids of an implemented class that are not registered, and why."""


def registered_tasks() -> tuple[Task, ...]:
    """The myosuite tasks registered here (each under its id and ``MyoSuite/<id>``), in ``TASKS``'s order."""
    return tuple(t for t in TASKS if t.cls in IMPLEMENTED and t.id not in NOT_YET)


# The family's folder may be there before its C++ env type is compiled in (a build without it): its ids are
# then left out (tests/envs/myosuite/test_myosuite_package.py checks that this build has it).
if ENV_TYPE in {name for name, _, _ in _rlpool_core.env_types()}:
    for _task in registered_tasks():
        for _id in (_task.id, ALIAS_PREFIX + _task.id):
            register(_id, ENV_TYPE, max_episode_steps=_task.horizon, prepare=prepare, task_name=_task.id)
