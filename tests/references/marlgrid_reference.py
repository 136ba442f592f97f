"""EnvPool 1.2.7's envpool.marlgrid as the reference for rlpool's MARLGrid, run in a child Python.

EnvPool 1.2.7 needs a Python of its own (``envpool127.envpool_python()``, a cached CPython 3.13 virtualenv): the
child makes the same id twice with the same seed -- once with pixel observations, once with
``observation_format="full_matrix"`` (the whole grid, which EnvPool's info does not give) -- steps both with
the parent's actions and writes every observation, reward, flag and the agents' positions and directions to an
npz, by env id (EnvPool orders a batch of several players per env as its threads finished). Both of its pools
draw the same levels and act the same (the format changes no draw), so the full matrix at a reset is the grid
behind the pixel episode. ``state_blob`` turns it into an rlpool state blob (marlgrid_env.h's layout) for
``set_state``. Goalcycle's bonus tiles show no id in EnvPool's output, so their ids are a caller's guess
(``bonus_ids``).
"""

from __future__ import annotations

import json
import struct
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import envpool127
import numpy as np

# Kinds in rlpool's state (marlgrid_env.h) by EnvPool's full-matrix channel (empty, wall, goal, bonus, lava).
_KIND_OF_CHANNEL = np.array([0, 1, 2, 4, 3], dtype=np.uint8)

_CHILD = r"""
import json, sys
import numpy as np
import envpool
for job in json.load(open(sys.argv[1])):
    task, n, seed, opts = job["task"], job["num_envs"], job["seed"], job["options"]
    actions = np.load(job["actions"]) if job["actions"] else None
    pix = envpool.make_gymnasium(task, num_envs=n, seed=seed, **opts)
    full = envpool.make_gymnasium(task, num_envs=n, seed=seed, **{**opts, "observation_format": "full_matrix"})
    A = pix.config["n_agents"]
    def per_agent(x, info):
        x = np.asarray(x)[np.lexsort((info["players"]["id"], info["players"]["env_id"]))]
        return x.reshape((n, A) + x.shape[1:])
    o, info = pix.reset()
    fo, finfo = full.reset()
    out = {"full": per_agent(fo, finfo)[:, 0], "pos0": per_agent(info["players"]["pos"], info),
           "dir0": per_agent(info["players"]["dir"], info), "obs0": per_agent(o, info)}
    assert np.array_equal(out["pos0"], per_agent(finfo["players"]["pos"], finfo))
    if actions is not None:
        keys = ("obs", "reward", "terminated", "truncated", "pos", "dir", "active", "done")
        rec = {k: [] for k in keys}
        for t in range(actions.shape[0]):
            o, r, te, tr, info = pix.step(actions[t].reshape(-1).astype(np.int32))
            full.step(actions[t].reshape(-1).astype(np.int32))
            p = info["players"]
            for k, v in (("obs", o), ("reward", r), ("pos", p["pos"]), ("dir", p["dir"]), ("active", p["active"]),
                         ("done", p["done"])):
                rec[k].append(per_agent(v, info))
            rows = np.argsort(np.asarray(info["env_id"]))  # envs in the order EnvPool's threads finished
            rec["terminated"].append(np.asarray(te)[rows])
            rec["truncated"].append(np.asarray(tr)[rows])
        out.update({k: np.stack(v) for k, v in rec.items()})
    np.savez(job["out"], **out)
    pix.close(); full.close()
"""


def envpool_missing() -> str | None:
    """Why EnvPool 1.2.7 cannot be run here (naming what is missing), or None."""
    return envpool127.missing()


def run_envpool(task_id: str, num_envs: int, seed: int, actions: np.ndarray | None = None,
                **options: Any) -> dict[str, np.ndarray]:
    """EnvPool's reset (and, given ``actions`` [T, num_envs, A], its steps) of ``task_id``, per env and agent.

    Keys: full (agent 0's full matrix at the reset), pos0, dir0, obs0 (the reset); with actions also obs,
    reward, pos, dir, active, done ([T, num_envs, A, ...]) and terminated, truncated ([T, num_envs]).
    """
    job = {"task": task_id, "num_envs": num_envs, "seed": seed, "actions": actions, "options": options}
    return run_envpool_jobs({"job": job})["job"]


def run_envpool_jobs(jobs: dict[str, dict[str, Any]]) -> dict[str, dict[str, np.ndarray]]:
    """Several ``run_envpool`` calls (name -> its arguments as a dict) in one child, which imports EnvPool once."""
    with tempfile.TemporaryDirectory() as tmp:
        specs = []
        for j, (name, job) in enumerate(jobs.items()):
            act_path = ""
            if job.get("actions") is not None:
                act_path = str(Path(tmp) / f"actions{j}.npy")
                np.save(act_path, np.asarray(job["actions"], dtype=np.int32))
            specs.append({"task": job["task"], "num_envs": job["num_envs"], "seed": job["seed"],
                          "options": job.get("options", {}), "actions": act_path, "out": str(Path(tmp) / f"{j}.npz"),
                          "name": name})
        (Path(tmp) / "jobs.json").write_text(json.dumps(specs))
        child = [str(envpool127.envpool_python()), "-c", _CHILD, str(Path(tmp) / "jobs.json")]
        done = subprocess.run(child, capture_output=True, text=True, timeout=1800, cwd=tmp)
        if done.returncode != 0:
            raise RuntimeError(f"EnvPool's child failed:\n{done.stderr[-2000:]}")
        results = {}
        for spec in specs:
            with np.load(spec["out"]) as data:
                results[spec["name"]] = {k: data[k] for k in data.files}
        return results


def grid_kinds(full: np.ndarray) -> np.ndarray:
    """The cells' kinds (rlpool's state numbering), [..., y, x], of EnvPool full-matrix observations [..., y, x, 13]."""
    return _KIND_OF_CHANNEL[np.asarray(full)[..., :5].argmax(-1)]


def state_blob(kinds: np.ndarray, bonus: np.ndarray, pos: np.ndarray, dirs: np.ndarray, *,
               active: np.ndarray | None = None, done: np.ndarray | None = None,
               bonus_state: np.ndarray | None = None, step_count: int = 0) -> bytes:
    """rlpool's MarlGrid state (marlgrid_env.h): cells' kinds and bonus ids [y, x], agents' pos [A, 2] and dir [A].

    The occupants are listed agent by agent (a cell's agents in index order, as a reset places them).
    """
    n = kinds.shape[0]
    agents = len(dirs)
    active = np.ones(agents, bool) if active is None else active
    done = np.zeros(agents, bool) if done is None else done
    bonus_state = np.full(agents, -1) if bonus_state is None else bonus_state
    blob = b"MLG1" + struct.pack("<BBi", n, agents, step_count)
    cells = np.stack([kinds.astype(np.uint8), bonus.astype(np.uint8)], -1)
    blob += cells.tobytes()
    for i in range(agents):
        blob += struct.pack("<iiiifBBxx", int(pos[i][0]), int(pos[i][1]), int(dirs[i]), int(bonus_state[i]), 0.0,
                            bool(active[i]), bool(done[i]))
    placed = [i for i in range(agents) if tuple(pos[i]) != (-1, -1)]
    return blob + bytes([len(placed), *placed])


def bonus_ids(kinds: np.ndarray, order: tuple[int, ...]) -> np.ndarray:
    """Bonus ids [y, x] giving the bonus tiles, in row-major order, the ids ``order``."""
    ids = np.zeros(kinds.shape, dtype=np.uint8)
    cells = np.argwhere(kinds == 4)
    for (y, x), b in zip(cells, order, strict=True):
        ids[y, x] = b
    return ids


def chi2_two_sample(a: np.ndarray, b: np.ndarray) -> float:
    """p-value of the chi-square test that two count vectors over the same categories come from one law."""
    from scipy.stats import chi2_contingency

    table = np.stack([a, b]).astype(float)
    table = table[:, table.sum(0) > 0]
    if table.shape[1] < 2:
        return 1.0
    return float(chi2_contingency(table)[1])
