"""BabyAI: minigrid 3.2.0's BabyAI-* levels, the levels and their instruction language in C++ (``babyai_*.cc``).

Each id is minigrid's, with its constructor options as task options. As in minigrid, ``max_steps`` (when not
given) is set each episode from the instruction: the navigations it needs (2 for a put-next, 1 for any other
action, summed over a sequence) times the maze's area (``room_size ** 2 * num_rows * num_cols``); the static
time limit is the largest such value. Missions are 512-byte arrays (EnvPool's size for BabyAI).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rlpool.envs.minigrid import babyai_state  # noqa: F401  (the levels' variables for from_minigrid)
from rlpool.registry import register


def _bound(navs: int, room_size: int, num_rows: int, num_cols: int) -> Callable[[dict[str, Any]], int]:
    """The largest per-episode max_steps: options override the level's fixed room layout where they exist."""

    def bound(o: dict[str, Any]) -> int:
        return navs * o.get("room_size", room_size) ** 2 * o.get("num_rows", num_rows) * o.get("num_cols", num_cols)

    return bound


def babyai(task_id: str, env_type: str, navs: int, layout: tuple[int, int, int] = (8, 1, 1), **defaults: Any) -> None:
    """Register a BabyAI id.

    ``navs``: the most navigations an instruction of the level needs; ``layout``: the level's default
    (room_size, num_rows, num_cols), which its options (``defaults``) override. A level with a fixed limit
    (minigrid passes ``max_steps``) gives ``max_steps`` in ``defaults``.
    """
    bound = _bound(navs, *layout)

    def prepare(options: dict[str, Any]) -> dict[str, Any]:
        if options["max_steps"] == 0:
            return {"max_steps": bound(options), "per_episode_max_steps": True}
        return {}

    static = defaults["max_steps"] if "max_steps" in defaults else bound(defaults)
    register(task_id, env_type, max_episode_steps=static, prepare=prepare,
             episode_steps=lambda o: int(o["max_steps"]), mission_bytes=512, **defaults)


# goto.py
babyai("BabyAI-GoToRedBallGrey-v0", "BabyAIGoToRedBallGrey", 1)
babyai("BabyAI-GoToRedBall-v0", "BabyAIGoToRedBall", 1)
babyai("BabyAI-GoToRedBallNoDists-v0", "BabyAIGoToRedBall", 1, num_dists=0)
babyai("BabyAI-GoToObj-v0", "BabyAIGoToObj", 1)
babyai("BabyAI-GoToObjS4-v0", "BabyAIGoToObj", 1, room_size=4)
babyai("BabyAI-GoToObjS6-v1", "BabyAIGoToObj", 1, room_size=6)
babyai("BabyAI-GoToLocal-v0", "BabyAIGoToLocal", 1)
for _s, _n in ((5, 2), (6, 2), (6, 3), (6, 4), (7, 4), (7, 5), (8, 2), (8, 3), (8, 4), (8, 5), (8, 6), (8, 7)):
    babyai(f"BabyAI-GoToLocalS{_s}N{_n}-v0", "BabyAIGoToLocal", 1, room_size=_s, num_dists=_n)
babyai("BabyAI-GoTo-v0", "BabyAIGoTo", 1, (8, 3, 3))
babyai("BabyAI-GoToOpen-v0", "BabyAIGoTo", 1, (8, 3, 3), doors_open=True)
babyai("BabyAI-GoToObjMaze-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1)
babyai("BabyAI-GoToObjMazeOpen-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1, doors_open=True)
babyai("BabyAI-GoToObjMazeS4R2-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1, room_size=4, num_rows=2, num_cols=2)
for _s in (4, 5, 6, 7):
    babyai(f"BabyAI-GoToObjMazeS{_s}-v0", "BabyAIGoTo", 1, (8, 3, 3), num_dists=1, room_size=_s)
babyai("BabyAI-GoToImpUnlock-v0", "BabyAIGoToImpUnlock", 1, (8, 3, 3))
babyai("BabyAI-GoToRedBlueBall-v0", "BabyAIGoToRedBlueBall", 1)
babyai("BabyAI-GoToDoor-v0", "BabyAIGoToDoor", 1, (7, 3, 3))
babyai("BabyAI-GoToObjDoor-v0", "BabyAIGoToObjDoor", 1, (8, 3, 3))

# open.py
babyai("BabyAI-Open-v0", "BabyAIOpen", 1, (8, 3, 3))
babyai("BabyAI-OpenRedDoor-v0", "BabyAIOpenRedDoor", 1, (5, 1, 2))
babyai("BabyAI-OpenDoor-v0", "BabyAIOpenDoor", 1, (8, 3, 3))
babyai("BabyAI-OpenDoorDebug-v0", "BabyAIOpenDoor", 1, (8, 3, 3), debug=True)
babyai("BabyAI-OpenDoorColor-v0", "BabyAIOpenDoor", 1, (8, 3, 3), select_by="color")
babyai("BabyAI-OpenDoorLoc-v0", "BabyAIOpenDoor", 1, (8, 3, 3), select_by="loc")
babyai("BabyAI-OpenTwoDoors-v0", "BabyAIOpenTwoDoors", 2, (6, 3, 3), max_steps=20 * 6**2)
babyai("BabyAI-OpenRedBlueDoors-v0", "BabyAIOpenTwoDoors", 2, (6, 3, 3), max_steps=20 * 6**2, first_color="red",
       second_color="blue")
babyai("BabyAI-OpenRedBlueDoorsDebug-v0", "BabyAIOpenTwoDoors", 2, (6, 3, 3), max_steps=20 * 6**2,
       first_color="red", second_color="blue", strict=True)
for _n in (2, 4):
    babyai(f"BabyAI-OpenDoorsOrderN{_n}-v0", "BabyAIOpenDoorsOrder", 2, (6, 3, 3), max_steps=20 * 6**2, num_doors=_n)
    babyai(f"BabyAI-OpenDoorsOrderN{_n}Debug-v0", "BabyAIOpenDoorsOrder", 2, (6, 3, 3), max_steps=20 * 6**2,
           num_doors=_n, debug=True)

# pickup.py
babyai("BabyAI-Pickup-v0", "BabyAIPickup", 1, (8, 3, 3))
babyai("BabyAI-UnblockPickup-v0", "BabyAIUnblockPickup", 1, (8, 3, 3))
babyai("BabyAI-PickupDist-v0", "BabyAIPickupDist", 1, (7, 1, 1))
babyai("BabyAI-PickupDistDebug-v0", "BabyAIPickupDist", 1, (7, 1, 1), debug=True)
babyai("BabyAI-PickupAbove-v0", "BabyAIPickupAbove", 1, (6, 3, 3), max_steps=8 * 6**2)

# putnext.py
babyai("BabyAI-PutNextLocal-v0", "BabyAIPutNextLocal", 2)
babyai("BabyAI-PutNextLocalS5N3-v0", "BabyAIPutNextLocal", 2, room_size=5, num_objs=3)
babyai("BabyAI-PutNextLocalS6N4-v0", "BabyAIPutNextLocal", 2, room_size=6, num_objs=4)
for _s, _n, _carrying in ((4, 1, False), (5, 2, False), (5, 1, False), (6, 3, False), (7, 4, False), (5, 2, True),
                          (6, 3, True), (7, 4, True)):
    babyai(f"BabyAI-PutNextS{_s}N{_n}{'Carrying' if _carrying else ''}-v0", "BabyAIPutNext", 2, (_s, 1, 2),
           max_steps=8 * _s**2, room_size=_s, objs_per_room=_n, **({"start_carrying": True} if _carrying else {}))

# unlock.py
babyai("BabyAI-Unlock-v0", "BabyAIUnlock", 1, (8, 3, 3))
babyai("BabyAI-UnlockLocal-v0", "BabyAIUnlockLocal", 1, (8, 3, 3))
babyai("BabyAI-UnlockLocalDist-v0", "BabyAIUnlockLocal", 1, (8, 3, 3), distractors=True)
babyai("BabyAI-KeyInBox-v0", "BabyAIKeyInBox", 1, (8, 3, 3))
# minigrid's UnlockPickup tests `max is None` (never true): its max_steps is set per episode.
babyai("BabyAI-UnlockPickup-v0", "BabyAIUnlockPickup", 1, (6, 1, 2))
babyai("BabyAI-UnlockPickupDist-v0", "BabyAIUnlockPickup", 1, (6, 1, 2), distractors=True)
babyai("BabyAI-BlockedUnlockPickup-v0", "BabyAIBlockedUnlockPickup", 1, (6, 1, 2), max_steps=16 * 6**2)
babyai("BabyAI-UnlockToUnlock-v0", "BabyAIUnlockToUnlock", 1, (6, 1, 3), max_steps=30 * 6**2)

# other.py
babyai("BabyAI-ActionObjDoor-v0", "BabyAIActionObjDoor", 1, (7, 3, 3))
for _s in (5, 6, 7):
    babyai(f"BabyAI-FindObjS{_s}-v0", "BabyAIFindObj", 1, (_s, 3, 3), max_steps=20 * _s**2, room_size=_s)
babyai("BabyAI-KeyCorridor-v0", "BabyAIKeyCorridor", 1, (6, 3, 3), max_steps=30 * 6**2)
for _s, _r in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3)):
    babyai(f"BabyAI-KeyCorridorS{_s}R{_r}-v0", "BabyAIKeyCorridor", 1, (_s, _r, 3), max_steps=30 * _s**2,
           room_size=_s, num_rows=_r)
for _s in (8, 12, 16, 20):
    babyai(f"BabyAI-OneRoomS{_s}-v0", "BabyAIOneRoom", 1, (_s, 1, 1), room_size=_s)
for _s, _n in ((5, 2), (8, 9)):
    babyai(f"BabyAI-MoveTwoAcrossS{_s}N{_n}-v0", "BabyAIMoveTwoAcross", 4, (_s, 1, 2), max_steps=16 * _s**2,
           room_size=_s, objs_per_room=_n)

# LevelGen levels (goto.py's GoToSeq, pickup.py's PickupLoc, synth.py): one env type with LevelGen's options.
_LG = "BabyAILevelGen"
_NO_LOCK: dict[str, Any] = {"locked_room_prob": 0.0}
babyai("BabyAI-GoToSeq-v0", _LG, 4, (8, 3, 3), action_kinds="goto", locations=False, unblocking=False, **_NO_LOCK)
babyai("BabyAI-GoToSeqS5R2-v0", _LG, 4, (8, 3, 3), action_kinds="goto", locations=False, unblocking=False,
       room_size=5, num_rows=2, num_cols=2, num_dists=4, **_NO_LOCK)
babyai("BabyAI-PickupLoc-v0", _LG, 1, (8, 3, 3), action_kinds="pickup", instr_kinds="action", num_rows=1,
       num_cols=1, num_dists=8, unblocking=False, **_NO_LOCK)
babyai("BabyAI-Synth-v0", _LG, 2, (8, 3, 3), instr_kinds="action", locations=False, implicit_unlock=False)
babyai("BabyAI-SynthS5R2-v0", _LG, 2, (8, 3, 3), instr_kinds="action", locations=False, implicit_unlock=False,
       room_size=5, num_rows=2)
babyai("BabyAI-SynthLoc-v0", _LG, 2, (8, 3, 3), instr_kinds="action", implicit_unlock=False)
babyai("BabyAI-SynthSeq-v0", _LG, 8, (8, 3, 3), implicit_unlock=False)
babyai("BabyAI-MiniBossLevel-v0", _LG, 8, (8, 3, 3), num_cols=2, num_rows=2, room_size=5, num_dists=7,
       locked_room_prob=0.25)
babyai("BabyAI-BossLevel-v0", _LG, 8, (8, 3, 3))
babyai("BabyAI-BossLevelNoUnlock-v0", _LG, 8, (8, 3, 3), implicit_unlock=False, **_NO_LOCK)
