"""Toy text's random draws against their references' distributions, by chi-square tests.

The expected probabilities are gymnasium's own (its transition tables
``env.P`` and ``initial_state_distrib``, and its Blackjack functions to
enumerate deals and dealer play), gym 0.21's NChain definition and bsuite's
Catch. Each test draws enough samples that a probability off by a few points
fails it (the tests were checked by breaking a probability in the C++ envs).
rlpool is seeded, so every test sees the same samples on every run.
"""

from __future__ import annotations

import functools
import math
from collections import Counter

import gym_reference
import numpy as np
import pytest
from gymnasium.envs.toy_text import blackjack as gym_blackjack
from test_toy_text import blackjack_state

import rlpool

pytestmark = pytest.mark.timeout(120)

ALPHA = 1e-3


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square(df): the regularized upper incomplete gamma function Q(df/2, x/2)."""
    a, z = df / 2.0, x / 2.0
    if z <= 0.0:
        return 1.0
    log_prefactor = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1.0:  # series for the lower function P, then Q = 1 - P
        term = total = 1.0 / a
        k = a
        while term > total * 1e-16:
            k += 1.0
            term *= z / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = z + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return math.exp(log_prefactor) * h


def test_chi2_sf_known_values():
    # chi-square(2) survival is exp(-x/2); the others are table values
    assert chi2_sf(4.0, 2) == pytest.approx(math.exp(-2.0), rel=1e-12)
    assert chi2_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi2_sf(124.342, 100) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(9.21034037197618, 2) == pytest.approx(0.01, rel=1e-9)
    assert chi2_sf(0.0, 3) == 1.0


def pearson(observed: np.ndarray, expected: np.ndarray) -> float:
    observed, expected = np.asarray(observed, float), np.asarray(expected, float)
    return float(np.sum((observed - expected) ** 2 / expected))


def assert_fits(observed, probs, label: str) -> None:
    """Pearson chi-square test of counts against probabilities (at least 5 expected per cell)."""
    observed = np.asarray(observed, float)
    expected = observed.sum() * np.asarray(probs, float)
    assert expected.min() >= 5, (label, "too few samples for a chi-square test")
    x2 = pearson(observed, expected)
    p = chi2_sf(x2, len(probs) - 1)
    assert p > ALPHA, (label, x2, p, observed, expected)


# The reference env of an rlpool task: the current gymnasium's (or an older one's, for an older id).
gym_make = gym_reference.make


def pack(task_id: str, s: int) -> bytes:
    if task_id.startswith("Taxi"):
        return np.array([s, 0], np.int64).tobytes()
    return np.int64(s).tobytes()


# --------------------------------------------------------------------------- transitions vs env.P


def sample_transitions(task_id: str, options: dict, n_states: int, n_actions: int, rounds: int, seed: int):
    """``rounds`` samples of every (state, action): rows of (pair, next state, reward, terminated, prob)."""
    pairs = n_states * n_actions
    env = rlpool.make(task_id, num_envs=pairs, seed=seed, **options)
    env.reset()
    states = [pack(task_id, s) for s in range(n_states)]
    actions = np.tile(np.arange(n_actions), n_states)
    out = []
    for _ in range(rounds):
        set_state = env.set_state
        for i in range(pairs):
            set_state(i, states[i // n_actions])
        obs, reward, term, _, info = env.step(actions)
        prob = info.get("prob", np.ones(pairs))  # NChain reports no prob
        out.append(np.stack([np.arange(pairs), obs, reward, term, prob], axis=1))
    env.close()
    return np.concatenate(out)


def transition_test(task_id: str, options: dict, rounds: int, seed: int = 0) -> tuple[float, int, float, int]:
    """Check every outcome against gymnasium's P.

    Returns the chi-square statistic and degrees of freedom pooled over every
    random (state, action), the smallest per-pair p-value, and the number of
    random pairs.
    """
    g = gym_make(task_id, **options).unwrapped
    n_s, n_a = g.observation_space.n, g.action_space.n
    samples = sample_transitions(task_id, options, n_s, n_a, rounds, seed)
    rows, counts = np.unique(samples, axis=0, return_counts=True)
    observed: dict[int, Counter] = {}
    for row, count in zip(rows, counts, strict=True):
        pair, s2, r, t, p = row
        observed.setdefault(int(pair), Counter())[(int(s2), float(r), bool(t), float(p))] += int(count)
    x2_total, df_total, worst, n_random = 0.0, 0, 1.0, 0
    for s in range(n_s):
        for a in range(n_a):
            expected: Counter = Counter()
            for p, s2, r, t in g.P[s][a]:  # gymnasium lists an outcome once per way of reaching it
                expected[(int(s2), float(r), bool(t), float(p))] += p
            seen = observed[s * n_a + a]
            assert set(seen) <= set(expected), (task_id, options, s, a, seen, expected)  # nothing gymnasium can't do
            if len(expected) < 2:
                continue
            keys = sorted(expected)
            o = np.array([seen[k] for k in keys], float)
            e = rounds * np.array([expected[k] for k in keys]) / sum(expected.values())
            x2 = pearson(o, e)
            x2_total += x2
            df_total += len(keys) - 1
            worst = min(worst, chi2_sf(x2, len(keys) - 1))
            n_random += 1
    return x2_total, df_total, worst, n_random


SLIPPERY = [
    # (task, options, samples of each (state, action))
    ("FrozenLake-v1", {}, 1500),
    ("FrozenLake8x8-v1", {}, 400),
    ("FrozenLake-v1", {"success_rate": 0.75}, 1500),
    ("FrozenLake-v1", {"desc": "SFFHF,FHFFG,HFSFH"}, 1500),
    ("CliffWalkingSlippery-v1", {}, 600),
    ("CliffWalking-v1", {"is_slippery": True}, 100),
    ("Taxi-v4", {"is_rainy": True}, 120),
    ("Taxi-v4", {"is_rainy": True, "rainy_probability": 0.6}, 120),
    ("Taxi-v3", {"is_rainy": True}, 120),  # gymnasium 1.2.2's rain (its TaxiEnv, fetched from its wheel)
]


@pytest.mark.parametrize(("task_id", "options", "rounds"), SLIPPERY, ids=[f"{t}-{o}" for t, o, _ in SLIPPERY])
def test_stochastic_transitions_match_gymnasium_table(task_id, options, rounds):
    x2, df, worst, n_random = transition_test(task_id, options, rounds)
    assert df > 0
    assert chi2_sf(x2, df) > ALPHA, (x2, df)  # pooled over every random (state, action)
    assert worst > ALPHA / n_random, worst  # each pair on its own (Bonferroni)


# --------------------------------------------------------------------------- start states


@pytest.mark.parametrize(
    ("task_id", "options", "n"),
    [
        ("Taxi-v4", {}, 30000),
        ("Taxi-v3", {}, 6000),
        ("Taxi-v3", {"is_rainy": True}, 6000),
        ("FrozenLake-v1", {"desc": "SFFHF,FHSFG,HFSFH"}, 3000),
    ],
    ids=str,
)
def test_start_states_match_gymnasium(task_id, options, n):
    ref = gym_make(task_id, **options).unwrapped.initial_state_distrib
    env = rlpool.make(task_id, num_envs=n, seed=123, **options)
    obs, _ = env.reset()
    counts = np.bincount(obs, minlength=ref.size)
    assert np.all(counts[ref == 0] == 0)  # only states gymnasium starts in
    assert_fits(counts[ref > 0], ref[ref > 0], task_id)
    env.close()


def test_taxi_start_states_cover_gymnasium_samples():
    # gymnasium's own resets land on the states rlpool draws from, and vice versa
    g = gym_make("Taxi-v4")
    g.reset(seed=0)
    theirs = {g.reset()[0] for _ in range(6000)}
    env = rlpool.make("Taxi-v3", num_envs=6000, seed=1)
    ours = set(env.reset()[0].tolist())
    assert theirs == ours and len(ours) == 300
    env.close()


# --------------------------------------------------------------------------- Taxi's fickle passenger


def test_taxi_fickle_passenger_matches_gymnasium():
    """Step every carrying state and action with fickle_step set; gymnasium, fed rlpool's draw, agrees."""

    class Draw:
        def __init__(self) -> None:
            self.dest: int | None = None

        def random(self) -> float:
            return 0.5  # the dry taxi has one outcome per (state, action)

        def choice(self, items):
            assert self.dest in list(items), (self.dest, items)
            return self.dest

    g = gym_make("Taxi-v4", fickle_passenger=True).unwrapped
    g.reset(seed=0)
    draw = Draw()
    g.np_random = draw
    carrying = [s for s in range(500) if (s // 4) % 5 == 4]
    rounds = 60
    env = rlpool.make("Taxi-v4", num_envs=len(carrying) * 6, seed=4, fickle_passenger=True)
    env.reset()
    new_dest = Counter()
    for _ in range(rounds):
        for i, s in enumerate(np.repeat(carrying, 6)):
            env.set_state(i, np.array([s, 1], np.int64).tobytes())
        obs, reward, term, _, _ = env.step(np.tile(np.arange(6), len(carrying)))
        for i, (s, a) in enumerate(zip(np.repeat(carrying, 6), np.tile(np.arange(6), len(carrying)), strict=True)):
            s2, fickle_after = np.frombuffer(env.get_state(i), np.int64)
            g.s, g.fickle_step = int(s), True
            draw.dest = int(s2 % 4)
            gs2, greward, gterm, _, _ = g.step(int(a))
            assert (obs[i], reward[i], term[i]) == (gs2, greward, gterm), (s, a)
            assert bool(fickle_after) == g.fickle_step, (s, a)
            if not g.fickle_step:  # the passenger changed their mind
                new_dest[(int(s % 4), int(s2 % 4))] += 1
    env.close()
    for old in range(4):
        counts = [new_dest[(old, d)] for d in range(4) if d != old]
        assert new_dest[(old, old)] == 0
        assert_fits(counts, [1 / 3] * 3, f"fickle destination from {old}")


@pytest.mark.parametrize(("task_id", "options", "p"), [
    ("Taxi-v3", {}, 0.3), ("Taxi-v4", {}, 0.3), ("Taxi-v4", {"fickle_probability": 0.55}, 0.55),
])
def test_taxi_fickle_step_is_drawn_with_fickle_probability(task_id, options, p):
    env = rlpool.make(task_id, num_envs=20000, seed=9, fickle_passenger=True, **options)
    env.reset()
    fickle = np.array([np.frombuffer(env.get_state(i), np.int64)[1] for i in range(20000)])
    counts = np.bincount(fickle, minlength=2)
    assert_fits(counts, [1 - p, p], "fickle_step at reset")  # gymnasium: np_random.random() < fickle_probability
    plain = rlpool.make("Taxi-v3", num_envs=100, seed=9)
    plain.reset()
    assert all(np.frombuffer(plain.get_state(i), np.int64)[1] == 0 for i in range(100))
    env.close()
    plain.close()


# --------------------------------------------------------------------------- Blackjack's cards


def card_probs() -> dict[int, float]:
    """gymnasium's deck: each entry of ``blackjack.deck`` equally likely."""
    deck = gym_blackjack.deck
    return {c: deck.count(c) / len(deck) for c in sorted(set(deck))}


def test_blackjack_first_deal_matches_gymnasium():
    # Exact distribution of the first observation: every deal of four cards through gymnasium's functions.
    probs = card_probs()
    exact: Counter = Counter()
    u = gym_make("Blackjack-v1").unwrapped
    for d0 in probs:
        for d1 in probs:
            for p0 in probs:
                for p1 in probs:
                    u.dealer, u.player = [d0, d1], [p0, p1]
                    exact[u._get_obs()] += probs[d0] * probs[d1] * probs[p0] * probs[p1]
    env = rlpool.make("Blackjack-v1", num_envs=60000, seed=2)
    obs, _ = env.reset()
    seen = Counter(zip(*(o.tolist() for o in obs), strict=True))
    assert set(seen) <= set(exact)
    keys = sorted(exact)
    # Pool the rarest observations so every cell expects at least 5.
    order = sorted(keys, key=lambda k: exact[k])
    cells, acc, merged = [], [], 0.0
    for k in order:
        acc.append(k)
        merged += exact[k]
        if merged * 60000 >= 5:
            cells.append((acc, merged))
            acc, merged = [], 0.0
    if acc:
        cells[-1] = (cells[-1][0] + acc, cells[-1][1] + merged)
    assert_fits([sum(seen[k] for k in ks) for ks, _ in cells], [p for _, p in cells], "first deal")
    env.close()


def test_blackjack_hit_draws_from_gymnasium_deck():
    n = 30000
    env = rlpool.make("Blackjack-v1", num_envs=n, seed=3)
    env.reset()
    for i in range(n):
        env.set_state(i, blackjack_state([2, 2], [10, 7]))
    env.step(np.ones(n, np.int64))
    cards = [env.get_state(i)[3] for i in range(n)]  # the player's third card
    probs = card_probs()
    assert_fits([cards.count(c) for c in probs], list(probs.values()), "hit card")
    env.close()


@functools.cache
def dealer_outcomes(raw: int, ace: bool) -> dict[int, float]:
    """Distribution of the dealer's final score from a hand (raw sum, holds an ace), by gymnasium's rules."""
    hand = [1, raw - 1] if ace else [raw]  # any hand with this raw sum and ace-ness scores the same
    if gym_blackjack.sum_hand(hand) >= 17:
        return {gym_blackjack.score(hand): 1.0}
    out: Counter = Counter()
    for card, p in card_probs().items():
        for score, q in dealer_outcomes(raw + card, ace or card == 1).items():
            out[score] += p * q
    return dict(out)


@pytest.mark.parametrize(
    ("player", "dealer"), [([10, 9], [2, 2]), ([10, 7], [1, 5]), ([9, 3], [6]), ([1, 10], [10, 1])]
)
def test_blackjack_dealer_play_matches_gymnasium(player, dealer):
    """Rewards of "stick": rlpool's dealer against the exact distribution of gymnasium's dealer."""
    n = 30000
    env = rlpool.make("Blackjack-v1", num_envs=n, seed=5)
    env.reset()
    for i in range(n):
        env.set_state(i, blackjack_state(player, dealer))
    _, reward, term, _, _ = env.step(np.zeros(n, np.int64))
    assert term.all()
    assert gym_make("Blackjack-v1").unwrapped.sab  # Blackjack-v1 registers sab=True
    # A natural dealer hand stands as dealt; a dealer that draws never ends on exactly [1, 10] here.
    dealer_natural = gym_blackjack.is_natural(dealer)
    exact: Counter = Counter()
    for dealer_score, p in dealer_outcomes(sum(dealer), 1 in dealer).items():
        r = gym_blackjack.cmp(gym_blackjack.score(player), dealer_score)
        if gym_blackjack.is_natural(player) and not dealer_natural:  # gymnasium's sab rule
            r = 1.0
        exact[r] += p
    counts = Counter(reward.tolist())
    assert set(counts) <= set(exact), (counts, exact)
    if len(exact) == 1:
        assert counts == {next(iter(exact)): n}
    else:
        keys = sorted(exact)
        assert_fits([counts[k] for k in keys], [exact[k] for k in keys], f"{player} {dealer}")
    env.close()


# --------------------------------------------------------------------------- NChain and Catch


def nchain_reference(s: int, a: int, n: int, slip: float, small: float, large: float) -> dict:
    """gym 0.21's NChainEnv.step: (next state, reward) -> probability."""
    out: Counter = Counter()
    for taken, p in ((a, 1 - slip), (1 - a, slip)):
        if taken == 1:
            out[(0, small)] += p
        elif s < n - 1:
            out[(s + 1, 0.0)] += p
        else:
            out[(s, large)] += p
    return {k: v for k, v in out.items() if v > 0}


@pytest.mark.parametrize(
    "options", [{}, {"n": 7, "slip": 0.35, "small": 1.0, "large": 4.0}, {"slip": 0.0}], ids=str
)
def test_nchain_transitions_match_gym_definition(options):
    config = rlpool.make_spec("NChain-v0", **options).config
    n, slip = config["n"], config["slip"]
    rounds = 4000
    samples = sample_transitions("NChain-v0", options, n, 2, rounds, seed=6)
    for s in range(n):
        for a in range(2):
            rows = samples[samples[:, 0] == s * 2 + a]
            seen = Counter(zip(rows[:, 1].astype(int).tolist(), rows[:, 2].tolist(), strict=True))
            ref = nchain_reference(s, a, n, slip, config["small"], config["large"])
            assert set(seen) <= set(ref), (s, a, seen, ref)
            assert not rows[:, 3].any()  # NChain never terminates
            if len(ref) > 1:
                keys = sorted(ref)
                assert_fits([seen[k] for k in keys], [ref[k] for k in keys], f"NChain {options} s={s} a={a}")


def test_catch_ball_starts_in_a_uniform_column():
    n = 20000
    env = rlpool.make("Catch-v0", num_envs=n, seed=8, rows=6, columns=7)
    obs, _ = env.reset()
    assert np.all(obs[:, 0].sum(axis=1) == 1)  # one ball, in the top row
    assert np.all(obs[:, -1, 3] == 1.0)  # the paddle starts at columns // 2
    assert_fits(np.bincount(obs[:, 0].argmax(axis=1), minlength=7), [1 / 7] * 7, "ball column")
    env.close()
