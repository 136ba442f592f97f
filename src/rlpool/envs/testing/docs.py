"""The hand-written reference text of the engine-testing family (``docs/envs/testing.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/testing.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="testing",
        title="Engine testing",
        intro="""
Envs that exist to test and measure rlpool's engine (threading, completion order, hand-off costs, errors)
rather than to learn.
""",
        envs=(
            EnvDoc(
                title="BusyWork",
                env_types=("BusyWork",),
                summary="""
Each step spins a CPU core for as many microseconds as the action says, so that tests and benchmarks can
give steps controlled, uneven costs.
""",
                actions=(Part("spin for this many microseconds", size=0),),
                observation=(
                    Part(("steps taken in this episode", "a running value: value / 2 + action at each step "
                          "(uniform integer in [0, 999] after a reset)")),
                ),
                reward="The action (the microseconds spent).",
                starting_state="Step count 0, the running value a random integer in [0, 999].",
                termination="Terminates after `episode_length` steps.",
                version_history=("`v0`: the first version.",),
            ),
        ),
    )
