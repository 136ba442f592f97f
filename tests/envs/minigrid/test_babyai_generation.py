"""BabyAI's generation against minigrid 3.2.0: agent, objects, doors, missions and per-episode max_steps of
1000 starts by chi-square; the instruction language's sentence shapes.

CI runs a few level families; ``RLPOOL_FULL_REFERENCE=1`` runs every id.
"""

from __future__ import annotations

import os
import re

import numpy as np
import pytest
from minigrid_reference import chi_square_p, compare_generation, minigrid_starts, rlpool_starts
from test_babyai import IDS, quiet

FULL = os.environ.get("RLPOOL_FULL_REFERENCE") == "1"


def _strip_ids(states):
    for s in states:
        s.vars = []  # the instruction tree holds object ids, numbered differently on each side
    return states


GEN = ["BabyAI-GoToLocal-v0", "BabyAI-GoToObjMaze-v0", "BabyAI-PutNextLocal-v0", "BabyAI-OpenDoor-v0",
       "BabyAI-PickupDist-v0", "BabyAI-UnlockPickupDist-v0", "BabyAI-MiniBossLevel-v0"]


@pytest.mark.parametrize("task_id", IDS if FULL else GEN)
def test_generation_matches_minigrid(task_id):
    """Agent, objects, doors, walls, missions and max_steps of 1000 starts: minigrid's distributions."""
    n = 1000
    ours = _strip_ids(rlpool_starts(task_id, n, seed=7))
    theirs = _strip_ids(quiet(minigrid_starts, task_id, n, seed=7))
    pvalues = compare_generation(ours, theirs)
    pvalues["max_steps"] = chi_square_p([s.max_steps for s in ours], [s.max_steps for s in theirs])
    bad = {k: p for k, p in pvalues.items() if p < 1e-4}
    assert not bad, bad


_WORDS = re.compile(r"\b(red|green|blue|purple|yellow|grey|box|ball|key|door|object)\b")


@pytest.mark.parametrize("task_id", ["BabyAI-BossLevel-v0", "BabyAI-SynthSeq-v0"])
def test_mission_shapes_match_minigrid(task_id):
    """The instruction language's sentences: their shapes (colours and kinds blanked), by chi-square."""
    n = 1000
    ours = [_WORDS.sub("_", s.mission) for s in rlpool_starts(task_id, n, seed=3)]
    theirs = [_WORDS.sub("_", s.mission) for s in quiet(minigrid_starts, task_id, n, seed=3)]
    assert chi_square_p(ours, theirs) > 1e-4
    # Connectives and articles of surface(): the same share of each.
    for word in (", then ", " after you ", " and ", " in front of you", " behind you", " on your left", "the ", "a "):
        a = sum(word in m for m in ours) / n
        b = sum(word in m for m in theirs) / n
        assert abs(a - b) <= 4 * np.sqrt(max(a * (1 - a), b * (1 - b), 1e-6) * 2 / n), (word, a, b)
