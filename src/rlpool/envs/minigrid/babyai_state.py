"""BabyAI's variables in the Minigrid state blob: the instruction tree with its verifier's progress.

The C++ levels (``babyai_instr.h``) keep the tree as int32s, root first (pre-order). Each node::

    kind, strict, a_done, b_done, pre_carrying, then
        a sequence (before, after, and): its two subtrees
        an action: its description(s), PutNext two (the object to move, then the fixed one):
            type, colour, loc, n, n object ids, m, m x (x, y)

kind: 0 go to, 1 pick up, 2 open, 3 put next, 4 before, 5 after, 6 and. a_done / b_done: 0 not yet
verified (Python's ``False``), 1 continue, 2 success, 3 failure. pre_carrying: the id of the object carried
at the last verify (0 none). type / colour: ``OBJECT_TO_IDX`` / ``COLOR_TO_IDX``, loc an index of
``LOC_NAMES`` (left, right, front, behind); -1 for None.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rlpool.envs.minigrid.state import env_vars

_KIND = {"GoToInstr": 0, "PickupInstr": 1, "OpenInstr": 2, "PutNextInstr": 3, "BeforeInstr": 4, "AfterInstr": 5,
         "AndInstr": 6}
_STATUS = {False: 0, "continue": 1, "success": 2, "failure": 3}
_TYPE = {"door": 4, "key": 5, "ball": 6, "box": 7}
_COLOR = {"red": 0, "green": 1, "blue": 2, "purple": 3, "yellow": 4, "grey": 5}
_LOC = {"left": 0, "right": 1, "front": 2, "behind": 3}

# minigrid's BabyAI level classes (every BabyAI-* id's entry point).
LEVEL_CLASSES = (
    "GoToRedBallGrey", "GoToRedBall", "GoToRedBallNoDists", "GoToObj", "GoToLocal", "GoTo", "GoToImpUnlock",
    "GoToSeq", "GoToRedBlueBall", "GoToDoor", "GoToObjDoor", "Open", "OpenRedDoor", "OpenDoor", "OpenTwoDoors",
    "OpenDoorsOrder", "Pickup", "UnblockPickup", "PickupLoc", "PickupDist", "PickupAbove", "PutNextLocal", "PutNext",
    "Unlock", "UnlockLocal", "KeyInBox", "UnlockPickup", "BlockedUnlockPickup", "UnlockToUnlock", "ActionObjDoor",
    "FindObjS5", "KeyCorridor", "OneRoomS8", "MoveTwoAcross", "Synth", "SynthLoc", "SynthSeq", "MiniBossLevel",
    "BossLevel", "BossLevelNoUnlock",
)


def _desc(d: Any, ids: Callable[[Any], int]) -> list[int]:
    out = [_TYPE[d.type] if d.type is not None else -1, _COLOR[d.color] if d.color is not None else -1,
           _LOC[d.loc] if d.loc is not None else -1, len(d.obj_set), *(ids(o) for o in d.obj_set), len(d.obj_poss)]
    for p in d.obj_poss:
        out += [int(p[0]), int(p[1])]
    return out


def instr_vars(instr: Any, ids: Callable[[Any], int]) -> list[int]:
    """One instruction (sub)tree of minigrid's verifier as the C++ levels' variables."""
    name = type(instr).__name__
    kind = _KIND[name]
    pre = getattr(instr, "preCarrying", None)
    out = [kind, int(bool(getattr(instr, "strict", False))), _STATUS[getattr(instr, "a_done", False)],
           _STATUS[getattr(instr, "b_done", False)], ids(pre) if pre is not None else 0]
    if kind >= 4:
        return out + instr_vars(instr.instr_a, ids) + instr_vars(instr.instr_b, ids)
    if kind == 3:
        return out + _desc(instr.desc_move, ids) + _desc(instr.desc_fixed, ids)
    return out + _desc(instr.desc, ids)


@env_vars(*LEVEL_CLASSES)
def _level(env: Any, ids: Callable[[Any], int]) -> list[int]:
    return instr_vars(env.instrs, ids)
