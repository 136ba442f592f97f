"""The options of ``make`` that choose where the envs run (kept out of a spec's ``config``), checked.

Plain data and checks, with no backend imported: the spec reads these, ``rlpool.backends.new_pool`` acts on them.
"""

from __future__ import annotations

from typing import Any

from rlpool.options import check_int

PLACEMENT_STRATEGIES = ("SPREAD", "PACK", "STRICT_SPREAD", "STRICT_PACK")

BACKEND_OPTIONS: dict[str, Any] = {
    "backend": "local",
    "num_workers": None,
    "max_restarts": 0,
    "num_cpus_per_worker": 1,
    "worker_options": None,
    "placement_strategy": "SPREAD",
    "placement_timeout_s": 60.0,
}
"""The options of ``make`` that choose where the envs run (kept out of ``config``).

``backend``: "local" (this process's threads) or "ray" (``num_workers`` Ray actors; None: one
per alive node, at most ``num_envs``). ``max_restarts``: how often Ray restarts a dead actor
(0: never; its envs are lost). ``num_cpus_per_worker``: each actor's CPUs (its placement-group
bundle; also its default thread count). ``worker_options``: more ``.options()`` of each actor
(e.g. ``{"resources": {...}, "runtime_env": {...}}``). ``placement_strategy``: the placement
group's (SPREAD, PACK, STRICT_SPREAD, STRICT_PACK). ``placement_timeout_s``: how long to wait
for the cluster to have room for every actor.
"""

BACKEND_OPTION_NAMES = frozenset(BACKEND_OPTIONS)


# Actor options the backend sets and relies on: the bundle each actor fills, the restarts the driver counts,
# no retried calls (a retried step would step its envs twice) and one call at a time on an actor's pool.
_OWNED_ACTOR_OPTIONS = frozenset(
    {"num_cpus", "max_restarts", "max_task_retries", "scheduling_strategy", "max_concurrency", "concurrency_groups"}
)


def check_backend_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The backend options in ``kwargs`` checked, with defaults filled in."""
    opts = {k: kwargs.get(k, v) for k, v in BACKEND_OPTIONS.items()}
    if opts["backend"] not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {opts['backend']!r}")
    if opts["backend"] == "local":
        extra = sorted(k for k in BACKEND_OPTIONS if k != "backend" and k in kwargs)
        if extra:
            raise ValueError(f"{extra} are options of backend='ray'; this pool has backend='local'")
        return opts
    if kwargs.get("thread_affinity_offset", -1) != -1:
        raise ValueError(
            "thread_affinity_offset is not taken with backend='ray': every actor's pool would pin its threads "
            "to the same cores of its node (Ray places the actors; num_cpus_per_worker sizes them)"
        )
    if opts["num_workers"] is not None:
        check_int("num_workers", opts["num_workers"], 1)
    check_int("max_restarts", opts["max_restarts"], -1)
    cpus = opts["num_cpus_per_worker"]
    if isinstance(cpus, bool) or not isinstance(cpus, (int, float)) or not cpus >= 0:
        raise ValueError(f"num_cpus_per_worker must be a number >= 0, got {cpus!r}")
    if opts["worker_options"] is not None and not isinstance(opts["worker_options"], dict):
        raise TypeError(f"worker_options must be a dict of Ray actor options, got {opts['worker_options']!r}")
    owned = sorted(set(opts["worker_options"] or {}) & _OWNED_ACTOR_OPTIONS)
    if owned:
        raise ValueError(
            f"worker_options may not set {owned}: the Ray backend sets them itself (num_cpus_per_worker, "
            "max_restarts and placement_strategy are its options; one call at a time per actor)"
        )
    if opts["placement_strategy"] not in PLACEMENT_STRATEGIES:
        raise ValueError(
            f"placement_strategy must be one of {PLACEMENT_STRATEGIES}, got {opts['placement_strategy']!r}"
        )
    timeout = opts["placement_timeout_s"]
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"placement_timeout_s must be a number > 0, got {timeout!r}")
    return opts
