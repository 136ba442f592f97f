"""The hand-written reference text of the toy text family (``docs/envs/toy_text.md``).

``rlpool.tools.docgen`` finds this module, calls ``reference_doc()`` and adds what the registry
computes: task ids, spaces, time limits and options. The ids themselves are ``registration.py``'s.
"""

from __future__ import annotations

from rlpool.tools.docpage import EnvDoc, FamilyDoc, Part


def reference_doc() -> FamilyDoc:
    """The hand-written text of docs/envs/toy_text.md (see ``rlpool.tools.docgen``)."""
    return FamilyDoc(
        name="toy_text",
        title="Toy text",
        intro="""
Small tabular problems: gymnasium 1.4's FrozenLake, Taxi, CliffWalking and Blackjack (the same ids,
limits, reward thresholds and random transitions, plus the older ids EnvPool users have), bsuite's Catch
and gym 0.21's NChain. Observations and actions are int64 (`Discrete`) except Catch's board. Where
gymnasium sets no time limit, the task has none either: `max_episode_steps` is 2**31 - 1, as EnvPool has it.
With `render_mode="rgb_array"`, FrozenLake, Taxi, CliffWalking and Blackjack draw gymnasium's picture, pixel
for pixel (its images, read from the installed gymnasium, scaled and blitted as pygame does); Catch and
NChain, which no reference draws, show a picture of their state: Catch its board (up to 32 pixels a cell,
white where the observation is 1), NChain a row of squares with the agent's in blue.
""",
        envs=(
            EnvDoc(
                title="FrozenLake",
                env_types=("FrozenLake",),
                summary="""
Walk from the start tile S to the goal G across a frozen lake without falling into a hole H. The ice is
slippery by default, so a move may go sideways.
""",
                actions=(Part(("move left", "move down", "move right", "move up")),),
                observation_text="""
The position `row * ncol + col` (`ncol` = the map's width). The predefined maps (`map_name`, or `size`
as EnvPool names it), rows top to bottom:

```
4x4: SFFF  FHFH  FFFH  HFFG
8x8: SFFFFFFF  FFFFFFFF  FFFHFFFF  FFFFFHFF  FFFHFFFF  FHHFFFHF  FHFFHFHF  FFFHFFFG
```

`desc` gives a map of your own, rows joined by commas. `info["prob"]` is the probability of the
transition just taken.
""",
                reward="1 on the step that reaches G, else 0.",
                starting_state="On the start tile S (with several S tiles in `desc`, one of them uniformly).",
                termination="""
Terminates when the agent enters a hole H or the goal G. On slippery ice (`is_slippery`) the agent moves
in the intended direction with probability `success_rate`, else in one of the two perpendicular
directions (each with probability (1 - `success_rate`) / 2); a move into the edge stays in place.
""",
                version_history=(
                    "`v1`: fixes to the rewards; later gymnasium releases added the `success_rate` and "
                    "reward-schedule options (rlpool has `success_rate`).",
                    "`v0`: the first version.",
                ),
            ),
            EnvDoc(
                title="Taxi",
                env_types=("Taxi",),
                summary="""
A taxi on a 5×5 grid picks up a passenger at one of four marked places (R, G, Y, B) and drops them off
at another (Dietterich, 2000). Walls (`|`) block some moves:

```
+---------+
|R: | : :G|
| : | : : |
| : : : : |
| | : | : |
|Y| : |B: |
+---------+
```
""",
                actions=(
                    Part(("move south (down)", "move north (up)", "move east (right)", "move west (left)",
                          "pick up the passenger", "drop off the passenger")),
                ),
                observation_text="""
The state `((taxi_row * 5 + taxi_col) * 5 + passenger) * 4 + destination`: `passenger` is 0 R (row 0,
column 0), 1 G (0, 4), 2 Y (4, 0), 3 B (4, 3) or 4 (in the taxi); `destination` is 0–3 with the same
places. `info["prob"]` is the probability of the transition just taken, and `info["action_mask"]` (int8,
6) marks the actions that change the state.
""",
                reward="""
-1 per step, +20 for delivering the passenger, -10 for an illegal pick-up (the passenger is not waiting
where the taxi is) or drop-off (no passenger aboard, or not at one of the four places). A move into a wall
costs the -1 and changes nothing.
""",
                starting_state="""
Uniform over the 300 states with the taxi anywhere, the passenger waiting at one of the four places and a
destination different from it.
""",
                termination="""
Terminates when the passenger is dropped off at the destination. With `is_rainy`, a move goes the
intended way with probability `rainy_probability` (0.8) and to either side with half the rest each; a
move blocked by a wall or the grid's edge does not drift. With `fickle_passenger`, in
`fickle_probability` (30%) of episodes the passenger picks another destination once, on the taxi's
first move after boarding.
""",
                version_history=(
                    "`v4` (gymnasium 1.3): rainy drifts fixed: walls block only east/west drifts, left and right "
                    "are seen from the heading, and a move into the grid's edge no longer drifts; the "
                    "`rainy_probability` and `fickle_probability` options. Without rain, the same as `v3`. "
                    "(rlpool's `Taxi-v3` keeps gymnasium 1.2's rain rules; in EnvPool 1.2.7 `Taxi-v3` names its "
                    "`Taxi-v4`.)",
                    "`v3`: map corrected and a cleaner description; gym 0.25 added `info[\"action_mask\"]`; "
                    "gymnasium 1.2.0 added the `is_rainy` and `fickle_passenger` options (Dietterich, 2000).",
                    "`v2`: the taxi no longer starts with the passenger at the destination; observations "
                    "updated during rollouts; reward threshold updated.",
                    "`v1`: (3, 2) removed from the locations; passenger index checked to be < 4.",
                    "`v0`: the first version.",
                ),
            ),
            EnvDoc(
                title="CliffWalking",
                env_types=("CliffWalking",),
                summary="""
Cross a 4×12 grid from the bottom-left corner to the bottom-right one along the edge of a cliff (Sutton
& Barto, example 6.6). The cliff is the bottom row between them; stepping into it sends the agent back
to the start.
""",
                actions=(Part(("move up", "move right", "move down", "move left")),),
                observation_text="""
The position `row * 12 + col`: the start is 36 (row 3, column 0), the goal 47 (row 3, column 11), the
cliff 37–46. `info["prob"]` is the probability of the transition just taken.
""",
                reward="-1 per step; -100 for a step into the cliff (which also returns the agent to the start).",
                starting_state="State 36, the bottom-left corner.",
                termination="""
Terminates when the agent reaches the goal (47); falling off the cliff does not end the episode. With
`is_slippery`, a move goes the intended way or to either side, each with probability 1/3; a move into
the edge stays in place.
""",
                version_history=(
                    "`v1`: gymnasium 1.0 added the slippery variant (`CliffWalkingSlippery-v1`, "
                    "`is_slippery=True`).",
                    "`v0`: the first version; gymnasium 1.x registers only `v1`, `CliffWalking-v0` is "
                    "EnvPool's id for the same env.",
                ),
            ),
            EnvDoc(
                title="Blackjack",
                env_types=("Blackjack",),
                summary="""
Blackjack against a dealer with a fixed strategy, cards drawn from an infinite deck (Sutton & Barto,
example 5.1). Get a hand closer to 21 than the dealer's without going over.
""",
                actions=(Part(("stick (stop drawing)", "hit (draw a card)")),),
                observation=(
                    Part(("the player's sum (an ace counts 11 while that keeps the sum <= 21)",
                          "the dealer's face-up card (1 is an ace, 10 a ten or a face card)",
                          "1 if the player has a usable ace (one counted as 11), else 0")),
                ),
                reward="""
+1 for a win, -1 for a loss, 0 for a draw, given when the game ends. With `natural=True` (and
`sab=False`) a win with a natural blackjack (an ace and a ten-card) pays +1.5; with `sab=True`, as
`Blackjack-v1` registers it, a natural wins +1 against any dealer hand that is not a natural.
""",
                starting_state="The dealer draws two cards (one face up), then the player two.",
                termination="""
Terminates when the player sticks (the dealer then draws until their sum is 17 or more, and the hands
are compared) or goes over 21 (a loss).
""",
                version_history=(
                    "`v1`: the handling of naturals fixed.",
                    "`v0`: the first version.",
                ),
            ),
            EnvDoc(
                title="Catch",
                env_types=("Catch",),
                summary="""
bsuite's Catch: a ball falls one row per step from the top of a board; move the paddle along the bottom
row to catch it.
""",
                actions=(Part(("move the paddle left", "stay", "move the paddle right")),),
                observation=(
                    Part("board cell `row * columns + column` (the observation is `rows × columns`): 1 where the "
                         "ball or the paddle is, else 0", size=0),
                ),
                reward="+1 if the paddle is under the ball when it reaches the bottom row, else -1; 0 before.",
                starting_state="""
The ball in the top row at a uniformly random column; the paddle in the bottom row at column
`columns // 2`.
""",
                termination="Terminates when the ball reaches the bottom row (after `rows - 1` steps).",
                version_history=("`v0`: bsuite's Catch under EnvPool's id; `height`/`width` are EnvPool's names for "
                                 "`rows`/`columns`.",),
            ),
            EnvDoc(
                title="NChain",
                env_types=("NChain",),
                summary="""
A chain of `n` states (Strens, 2000): walking forward pays nothing until the far end, which pays
`large` per step; going back to the start pays `small` at once. It tests exploration: the greedy choice
is the small reward.
""",
                actions=(Part(("move forward along the chain", "go back to the start")),),
                observation_text="The current state, 0 (the start) to `n - 1` (the end of the chain).",
                reward="""
Moving forward pays 0, or `large` at the end of the chain (where the agent stays); going back pays
`small`. With probability `slip` the other action happens (and pays).
""",
                starting_state="State 0.",
                termination="Never terminates; gym cut episodes at 1000 steps, as the task does.",
                version_history=("`v0`: gym 0.21's `NChain-v0` (removed from later gym releases).",),
            ),
        ),
    )
