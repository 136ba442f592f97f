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
            EnvDoc(
                title="NestedDict",
                env_types=("NestedDict",),
                summary="""
A dict observation with nested dicts, as gymnasium-robotics' goal envs have (`{"observation": ...,
"desired_goal": {"b": ..., "a": ...}, "achieved_goal": {...}}`), and an info entry that rlpool's faces hide
(`_distance`) beside one they show (`count`): it tests how every face and API layer hands them out. The
option `obs_names` names the observation entries (`"outer.inner"`: entry `inner` of the nested dict `outer`).
""",
                actions=(Part("the reward", size=0),),
                observation_text="""
Entry k (in `obs_names`' order) has shape (k + 1,); its element j is 1000 k + 10 j + start + t, where
start is drawn at reset and t counts the steps of the episode. `info["count"]` is t; the hidden
`_distance` is t / 2 (an API layer may show it under a key of its own).
""",
                reward="The action.",
                starting_state="t = 0, start a uniform integer in [0, 99].",
                termination="Terminates after `episode_length` steps.",
                version_history=("`v0`: the first version.",),
            ),
        ),
    )
