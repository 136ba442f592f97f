"""The header-only C++ jax.random (``_core/env/jax_random.h``) against the installed jax, draw for draw.

A small C++ driver, compiled here with the system compiler against the header alone, answers one request a
line (a sampler, the layout, a key and the sampler's arguments; floats travel as their bit patterns) and every
answer is compared with what jax itself draws from the same key, over many keys, seeds, shapes and parameters:
seeding (x64 off and on), fold_in, split, random bits of each width, uniform (float32, and float64 with x64),
randint (int32, with int32 and 64-bit bounds), bernoulli (both modes), permutation (and jax's array shuffle),
choice (the four paths), categorical, gumbel and normal, in jax 0.10's default layout
(``jax_threefry_partitionable`` on) and, for the primitives, the original one. Every draw must match bit for
bit, floats included: the header computes log, log1p and erf_inv the way XLA's CPU backend compiles them.

jax compiles a program for each shape (about half a second each, more on a loaded machine), so the default run
samples the shapes; ``RLPOOL_FULL_REFERENCE=1`` (CI) adds every permutation size from 1 to 64, every fifth to 300
(with 127, 128, 255, 256, 1625, 1626, 5000), more widths, shapes and split counts, and more draws made outside jit and
vmap (about 50 s).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pytest
from lane import CI, FULL, REPO, require

if sys.version_info < (3, 11):
    pytest.skip("jax: the test extra installs it on CPython 3.11+ only", allow_module_level=True)
try:
    import jax
except ImportError:
    require("needs jax (the test extra installs it: pip install 'jax>=0.10') to compare jax_random.h with")
    raise

import jax.numpy as jnp
import jax.random as jr

INCLUDE_ROOT = REPO / "src" / "rlpool"
INT_ONLY = {"xla_backend_optimization_level": 0}
"""Compile options for reference programs with no float math: the same integers, compiled about 3x faster."""

DRIVER = textwrap.dedent(
    r"""
    // Reads one request a line on stdin, prints one line of results.
    // Request: OP LAYOUT(p|o) KEY_HI KEY_LO ARGS...; floats travel as their bit patterns.
    #include <bit>
    #include <cstdint>
    #include <iostream>
    #include <memory>
    #include <sstream>
    #include <string>
    #include <vector>

    #include "_core/env/jax_random.h"

    namespace jr = rlpool::jax_random;

    template <class T>
    void put(const std::vector<T>& v) {
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) std::cout << ' ';
        if constexpr (std::is_same_v<T, float>) {
          std::cout << std::bit_cast<std::uint32_t>(v[i]);
        } else if constexpr (std::is_same_v<T, double>) {
          std::cout << std::bit_cast<std::uint64_t>(v[i]);
        } else if constexpr (sizeof(T) == 1) {
          std::cout << static_cast<unsigned>(v[i]);
        } else {
          std::cout << v[i];
        }
      }
      std::cout << '\n';
    }

    float f32(std::istream& in) {
      std::uint32_t b;
      in >> b;
      return std::bit_cast<float>(b);
    }

    int main() {
      std::ios::sync_with_stdio(false);
      std::string line;
      while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string op, lay;
        std::uint32_t hi, lo;
        in >> op >> lay >> hi >> lo;
        const jr::Layout L = lay == "o" ? jr::Layout::kOriginal : jr::Layout::kPartitionable;
        const jr::Key key{hi, lo};
        std::size_t n = 0;
        if (op == "seed" || op == "seed64") {
          long long s;
          in >> s;
          const jr::Key k = op == "seed" ? jr::prng_key(s) : jr::prng_key_x64(s);
          put(std::vector<std::uint32_t>{k.hi, k.lo});
        } else if (op == "fold") {
          std::uint32_t d;
          in >> d;
          const jr::Key k = jr::fold_in(key, d);
          put(std::vector<std::uint32_t>{k.hi, k.lo});
        } else if (op == "split") {
          in >> n;
          std::vector<std::uint32_t> w;
          for (const jr::Key& k : jr::split(key, n, L)) {
            w.push_back(k.hi);
            w.push_back(k.lo);
          }
          put(w);
        } else if (op == "bits8") {
          in >> n;
          put(jr::random_bits<std::uint8_t>(key, n, L));
        } else if (op == "bits16") {
          in >> n;
          put(jr::random_bits<std::uint16_t>(key, n, L));
        } else if (op == "bits32") {
          in >> n;
          put(jr::random_bits<std::uint32_t>(key, n, L));
        } else if (op == "bits64") {
          in >> n;
          put(jr::random_bits<std::uint64_t>(key, n, L));
        } else if (op == "uniform") {
          in >> n;
          const float a = f32(in), b = f32(in);
          put(jr::uniform(key, n, a, b, L));
        } else if (op == "uniform64") {
          std::uint64_t a, b;
          in >> n >> a >> b;
          std::vector<double> out(n);
          jr::uniform(key, out.data(), n, std::bit_cast<double>(a), std::bit_cast<double>(b), L);
          put(out);
        } else if (op == "randint") {
          long long a, b;
          in >> n >> a >> b;
          put(jr::randint(key, n, a, b, L));
        } else if (op == "randinteach") {
          in >> n;
          std::vector<std::int32_t> lo(n), hi(n), out(n);
          for (auto& v : lo) in >> v;
          for (auto& v : hi) in >> v;
          jr::randint_each(key, out.data(), n, lo.data(), hi.data(), L);
          put(out);
        } else if (op == "bern" || op == "bernhigh") {
          in >> n;
          const float p = f32(in);
          auto out = std::make_unique<bool[]>(n);
          if (op == "bern") jr::bernoulli(key, out.get(), n, p, L);
          else jr::bernoulli_high(key, out.get(), n, p, L);
          put(std::vector<std::uint8_t>(out.get(), out.get() + n));
        } else if (op == "perm") {
          in >> n;
          put(jr::permutation(key, n, L));
        } else if (op == "choice" || op == "choicenr") {
          std::size_t draws;
          in >> draws >> n;
          std::vector<std::int32_t> out(draws);
          if (op == "choice") jr::choice(key, out.data(), draws, static_cast<std::int32_t>(n), L);
          else jr::choice_no_replace(key, out.data(), draws, n, L);
          put(out);
        } else if (op == "choicep" || op == "choicepnr") {
          std::size_t draws;
          in >> draws >> n;
          std::vector<float> p(n);
          for (auto& v : p) v = f32(in);
          std::vector<std::int32_t> out(draws);
          if (op == "choicep") jr::choice_p(key, out.data(), draws, p.data(), n, L);
          else jr::choice_p_no_replace(key, out.data(), draws, p.data(), n, L);
          put(out);
        } else if (op == "categorical") {
          std::size_t batch, samples;
          in >> batch >> n >> samples;
          std::vector<float> logits(batch * n);
          for (auto& v : logits) v = f32(in);
          std::vector<std::int32_t> out(samples * batch);
          jr::categorical(key, out.data(), logits.data(), batch, n, samples, L);
          put(out);
        } else if (op == "gumbel" || op == "normal") {
          in >> n;
          std::vector<float> out(n);
          if (op == "gumbel") jr::gumbel(key, out.data(), n, L);
          else jr::normal(key, out.data(), n, L);
          put(out);
        } else {
          std::cerr << "unknown op " << op << '\n';
          return 2;
        }
      }
      return 0;
    }
    """
)

SEEDS = [
    0,
    1,
    2,
    42,
    2**31 - 1,
    2**31,
    2**32 - 1,
    2**32,
    2**32 + 5,
    -1,
    -2,
    -(2**31),
    -(2**31) - 1,
    2**40 + 3,
    2**63 - 1,
    -(2**63),
    123456789012345,
]
SEEDS += np.random.default_rng(0).integers(-(2**63), 2**63 - 1, 40, dtype=np.int64, endpoint=True).tolist()
"""Seeds at the edges of int32, uint32 and int64, and random int64s; jax casts a seed to int32 with x64 off."""

N_KEYS = 48
PERM_SIZES = (
    sorted({*range(1, 65), *range(65, 301, 5), 127, 128, 255, 256, 300, 1625, 1626, 5000}) if FULL else [1, 2, 17, 300]
)
LARGE_PERM = 100_000
"""Sizes above 1625 take two sort rounds."""


@dataclass
class Case:
    """One driver request and the values jax gave for it (floats as bit patterns)."""

    family: str
    request: str
    expected: list[int]
    floats: bool = False


@dataclass
class Reference:
    """All cases, built family by family."""

    cases: list[Case] = field(default_factory=list)

    def add(self, family: str, request: str, expected: object, floats: bool = False) -> None:
        arr = np.asarray(expected)
        if arr.dtype == np.float32:
            arr = arr.view(np.uint32)
        elif arr.dtype == np.float64:
            arr = arr.view(np.uint64)
        elif arr.dtype == np.bool_:
            arr = arr.astype(np.uint8)
        self.cases.append(Case(family, request, [int(v) for v in arr.ravel().tolist()], floats))


def f32_bits(x: float) -> int:
    return int(np.asarray(x, np.float32).view(np.uint32))


def make_keys(n: int) -> np.ndarray:
    """Keys of the edge seeds, then random words: an (n, 2) uint32 array."""
    fixed = [np.asarray(jr.PRNGKey(s)) for s in SEEDS[:8]] + [np.array([0xFFFFFFFF, 0xFFFFFFFF], np.uint32)]
    rng = np.random.default_rng(20240607)
    rand = rng.integers(0, 2**32, size=(n - len(fixed), 2), dtype=np.uint64).astype(np.uint32)
    return np.concatenate([np.stack(fixed), rand])


def key_words(key: np.ndarray) -> str:
    return f"{int(key[0])} {int(key[1])}"


def timed(build: Callable[[Reference, np.ndarray], None], ref: Reference, keys: np.ndarray) -> None:
    t = time.perf_counter()
    build(ref, keys)
    print(f"{build.__name__}: {time.perf_counter() - t:.1f} s")


def vmapped(f: Callable[..., object], *args: object, int_only: bool = False) -> np.ndarray:
    fn = jax.jit(jax.vmap(f), compiler_options=INT_ONLY if int_only else None)
    return np.asarray(fn(*args))


def build_keys_family(ref: Reference, keys: np.ndarray) -> None:
    for s in SEEDS:
        ref.add("seed", f"seed p 0 0 {s}", jr.PRNGKey(s))
        ref.add("seed", f"seed p 0 0 {s}", jr.key_data(jr.key(s)))
    with jax.enable_x64(True):
        for s in SEEDS:
            ref.add("seed64", f"seed64 p 0 0 {s}", jr.PRNGKey(s))
    data = np.array([0, 1, 2**31, 2**32 - 1] * (len(keys) // 4), np.uint32)
    data[len(data) // 2 :] = np.random.default_rng(1).integers(0, 2**32, len(data) - len(data) // 2, dtype=np.uint64)
    out = vmapped(jr.fold_in, keys[: len(data)], data, int_only=True)
    for k, d, o in zip(keys, data, out, strict=False):
        ref.add("fold_in", f"fold p {key_words(k)} {int(d)}", o)
        ref.add("fold_in", f"fold p {key_words(k)} {int(d) ^ 0xFFFF}", jr.fold_in(k, int(d) ^ 0xFFFF))
    for layout, num in (("p", 2), ("o", 3)) + ((("p", 5), ("o", 2)) if FULL else ()):
        with jax.threefry_partitionable(layout == "p"):
            out = vmapped(lambda k, num=num: jr.split(k, num), keys, int_only=True)
        for k, o in zip(keys, out, strict=True):
            ref.add(f"split[{layout}]", f"split {layout} {key_words(k)} {num}", o)


def build_bits(ref: Reference, keys: np.ndarray) -> None:
    widths = {8: jnp.uint8, 16: jnp.uint16, 32: jnp.uint32, 64: jnp.uint64}
    plan = [("p", (3, 37), (8, 16, 32, 64)), ("o", (37,), (8, 16, 32, 64) if FULL else (8, 64))]
    if FULL:
        plan += [("p", (1,), (8, 32, 64)), ("p", (1024,), (8, 16, 32, 64)), ("o", (4,), (8, 16, 32, 64))]
    for layout, shape, chosen in plan:
        n = int(np.prod(shape))
        for width in chosen:
            with jax.enable_x64(width == 64), jax.threefry_partitionable(layout == "p"):
                out = vmapped(lambda k, s=shape, d=widths[width]: jr.bits(k, s, d), keys, int_only=True)
            for k, o in zip(keys, out, strict=True):
                ref.add(f"bits{width}[{layout}]", f"bits{width} {layout} {key_words(k)} {n}", o)


UNIFORM_RANGES = [
    (0.0, 1.0),
    (-1.0, 1.0),
    (-3.5, 2.25),
    (5.0, 5.0),
    (1e-3, 1e3),
    (-1e30, 1e30),
    (2.0, 1.0),
    (0.0, 1e-38),  # a denormal bound: XLA flushes it to zero
    (-0.0, 0.0),  # lax.max puts +0 above -0
    (float(np.finfo(np.float32).tiny), 1.0),
    (-7.0, -6.999),
    (100.0, 100.0001),
]


def ranges_for(keys: np.ndarray, pairs: list[tuple[float, float]], seed: int, scale: float) -> tuple[list, list]:
    rng = np.random.default_rng(seed)
    lo, hi = [], []
    for i in range(len(keys)):
        if i < len(pairs):
            a, b = pairs[i]
        else:
            a, b = sorted(rng.uniform(-scale, scale, 2).tolist())
        lo.append(a)
        hi.append(b)
    return lo, hi


def build_uniform(ref: Reference, keys: np.ndarray) -> None:
    lo, hi = ranges_for(keys, UNIFORM_RANGES, 2, 50.0)
    mins, maxs = np.array(lo, np.float32), np.array(hi, np.float32)
    for layout, shape in (("p", (20, 50)), ("o", (33,))) + ((("p", ()),) if FULL else ()):
        with jax.threefry_partitionable(layout == "p"):
            out = vmapped(lambda k, a, b, shape=shape: jr.uniform(k, shape, jnp.float32, a, b), keys, mins, maxs)
        n = int(np.prod(shape))
        for k, a, b, o in zip(keys, mins, maxs, out, strict=True):
            ref.add(f"uniform[{layout}]", f"uniform {layout} {key_words(k)} {n} {f32_bits(a)} {f32_bits(b)}", o)
    with jax.enable_x64(True):
        mins64, maxs64 = np.array(lo, np.float64), np.array(hi, np.float64)
        mins64[1] = 1e-300
        maxs64[1] = 1e300
        out = vmapped(lambda k, a, b: jr.uniform(k, (100,), jnp.float64, a, b), keys, mins64, maxs64)
        for k, a, b, o in zip(keys, mins64, maxs64, out, strict=True):
            bits = f"{int(a.view(np.uint64))} {int(b.view(np.uint64))}"
            ref.add("uniform64", f"uniform64 p {key_words(k)} 100 {bits}", o)


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
RANDINT_RANGES = [
    (0, 10),
    (-5, 5),
    (0, 1),
    (7, 7),
    (10, 3),
    (INT32_MIN, INT32_MAX),
    (INT32_MIN + 1, INT32_MAX),
    (0, INT32_MAX),
    (INT32_MIN, 0),
    (-100, 100_000),
    (0, 2**16 + 1),
    (0, 3 * 2**29),
    (-1, 0),
    (INT32_MAX - 1, INT32_MAX),
    (0, 2**16),
    (-(2**30), 2**30 + 12345),
]
RANDINT_WIDE = [
    (0, 2**31),
    (-(2**40), 2**40),
    (5, 2**33),
    (INT32_MIN, 2**31),
    (INT32_MAX, 2**31 + 5),
    (-(2**33), -(2**32)),
    (-(2**33), 7),
    (2**35, 2**36),
    (0, 10),
]
"""Bounds outside int32, as jax takes them with x64 on and dtype=int32: clipped, the span widened by one."""


def build_randint(ref: Reference, keys: np.ndarray) -> None:
    rng = np.random.default_rng(3)
    lo, hi = [], []
    for i in range(len(keys)):
        a, b = RANDINT_RANGES[i] if i < len(RANDINT_RANGES) else sorted(rng.integers(-(2**20), 2**20, 2).tolist())
        lo.append(a)
        hi.append(b)
    out = vmapped(
        lambda k, a, b: jr.randint(k, (100,), a, b), keys, np.array(lo, np.int32), np.array(hi, np.int32), int_only=True
    )
    for k, a, b, o in zip(keys, lo, hi, out, strict=True):
        ref.add("randint", f"randint p {key_words(k)} 100 {a} {b}", o)
    with jax.enable_x64(True):
        sel = keys[: len(RANDINT_WIDE)]
        a64 = np.array([a for a, _ in RANDINT_WIDE], np.int64)
        b64 = np.array([b for _, b in RANDINT_WIDE], np.int64)
        out = vmapped(lambda k, a, b: jr.randint(k, (50,), a, b, jnp.int32), sel, a64, b64, int_only=True)
    for k, (a, b), o in zip(sel, RANDINT_WIDE, out, strict=True):
        ref.add("randint64", f"randint p {key_words(k)} 50 {a} {b}", o)
    # Array bounds, one pair per element (Craftax's dungeons): spans 1 to 2**31, empty and reversed ones.
    n = 12
    lo = rng.integers(-(2**20), 2**20, (len(keys), n)).astype(np.int32)
    hi = (lo + rng.integers(-3, 2**21, (len(keys), n))).astype(np.int32)
    lo[0, :3], hi[0, :3] = (0, -(2**31), 5), (1, 2**31 - 1, 5)
    out = vmapped(lambda k, a, b: jr.randint(k, (n,), a, b), keys, lo, hi, int_only=True)
    for k, a, b, o in zip(keys, lo, hi, out, strict=True):
        bounds = " ".join(str(int(v)) for v in [*a, *b])
        ref.add("randint-each", f"randinteach p {key_words(k)} {n} {bounds}", o)


def build_bernoulli(ref: Reference, keys: np.ndarray) -> None:
    fixed = [0.0, 0.5, 0.3, 1.0, 1e-8, 0.999999, 2.0**-24, 0.1]
    rng = np.random.default_rng(4)
    ps = np.array([fixed[i] if i < len(fixed) else rng.uniform() for i in range(len(keys))], np.float32)
    for mode, op in (("low", "bern"), ("high", "bernhigh")):
        out = vmapped(lambda k, p, mode=mode: jr.bernoulli(k, p, (100,), mode=mode), keys, ps)
        for k, p, o in zip(keys, ps, out, strict=True):
            ref.add(f"bernoulli-{mode}", f"{op} p {key_words(k)} 100 {f32_bits(p)}", o)


def build_permutation(ref: Reference, keys: np.ndarray) -> None:
    few = keys[:8] if FULL else keys[:16]
    for n in PERM_SIZES:
        out = vmapped(lambda k, n=n: jr.permutation(k, n), few, int_only=True)
        for k, o in zip(few, out, strict=True):
            ref.add("permutation", f"perm p {key_words(k)} {n}", o)
    k = keys[9]
    ref.add("permutation", f"perm p {key_words(k)} {LARGE_PERM}", jr.permutation(k, LARGE_PERM))
    with jax.threefry_partitionable(False):
        out = vmapped(lambda k: jr.permutation(k, 64), few, int_only=True)
    for k, o in zip(few, out, strict=True):
        ref.add("permutation[o]", f"perm o {key_words(k)} 64", o)


def build_choice(ref: Reference, keys: np.ndarray) -> None:
    for n in (1, 3, 7, 1000, 10**6, 2**31 - 1):  # one draw count: jax compiles randint once
        for k in keys[:8]:
            ref.add("choice", f"choice p {key_words(k)} 20 {n}", jr.choice(k, n, (20,)))
    for n, draws in ((7, 3), (64, 64), (300, 20)):
        for k in keys[:8]:
            got = jr.choice(k, n, (draws,), replace=False)
            ref.add("choice-no-replace", f"choicenr p {key_words(k)} {draws} {n}", got)
    rng = np.random.default_rng(5)
    cases = (
        ((5, 100, True), (50, 40, True), (10, 4, False), (40, 40, False)) if FULL else ((50, 40, True), (40, 40, False))
    )
    for n, draws, replace in cases:
        p = rng.uniform(0.0, 1.0, (len(keys), n)).astype(np.float32)
        p[::3, ::4] = 0.0
        p[1] = 0.0
        p[1, n // 2] = 1.0  # one certain outcome
        if replace:
            p[2] *= 1e-30  # tiny weights: choice does not need them to sum to 1
        out = vmapped(lambda k, q, n=n, d=draws, r=replace: jr.choice(k, n, (d,), replace=r, p=q), keys, p)
        op = "choicep" if replace else "choicepnr"
        for k, q, o in zip(keys, p, out, strict=True):
            words = " ".join(str(int(v)) for v in q.view(np.uint32))
            ref.add("choice-p" if replace else "choice-p-no-replace", f"{op} p {key_words(k)} {draws} {n} {words}", o)
    # A spawn map's p (a mask over its count), long enough that XLA's blocked cumsum differs from a running sum
    # in most entries: the draws near a block boundary show which one choice uses.
    for n in (2304, 4096):
        mask = rng.random((4, n)) < 0.3
        p = (mask / mask.sum(axis=1, keepdims=True)).astype(np.float32)
        out = vmapped(lambda k, q, n=n: jr.choice(k, n, (256,), p=q), keys[:4], p)
        for k, q, o in zip(keys[:4], p, out, strict=True):
            words = " ".join(str(int(v)) for v in q.view(np.uint32))
            ref.add("choice-p", f"choicep p {key_words(k)} 256 {n} {words}", o)


def build_log_based(ref: Reference, keys: np.ndarray) -> None:
    rng = np.random.default_rng(6)
    for shape, extra in (((8, 6), None), ((2, 5), (3, 2))):
        logits = (rng.normal(size=(len(keys), *shape)) * 2).astype(np.float32)
        logits[0] = 0.0  # all ties: the gumbel noise alone decides
        logits[1, ..., ::2] = -np.inf  # masked actions
        logits[2, ..., :] = -np.inf  # all masked: the first index
        out = vmapped(lambda k, lg, extra=extra: jr.categorical(k, lg, shape=extra), keys, logits)
        samples = 1 if extra is None else extra[0]
        for k, lg, o in zip(keys, logits, out, strict=True):
            words = " ".join(str(int(v)) for v in lg.ravel().view(np.uint32))
            ref.add("categorical", f"categorical p {key_words(k)} {shape[0]} {shape[1]} {samples} {words}", o)
    for name in ("gumbel", "normal"):
        fn = getattr(jr, name)
        out = vmapped(lambda k, fn=fn: fn(k, (500,)), keys)
        for k, o in zip(keys, out, strict=True):
            ref.add(name, f"{name} p {key_words(k)} 500", o, floats=True)
        # Outside jit and vmap (eager), where XLA compiles other programs: a scalar, and 7 values.
        for shape in ((), (7,)) if FULL else ((),):
            for k in keys[:8]:
                ref.add(name, f"{name} p {key_words(k)} {int(np.prod(shape))}", fn(k, shape), floats=True)


BUILDERS = [
    build_keys_family,
    build_bits,
    build_uniform,
    build_randint,
    build_bernoulli,
    build_permutation,
    build_choice,
    build_log_based,
]


def find_compiler() -> str | None:
    for name in (os.environ.get("CXX"), "c++", "g++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[list[str]], list[list[int]]]]:
    """Starts compiling the driver, yields a function that runs it on requests (one line of ints each)."""
    cxx = find_compiler()
    if cxx is None:
        if CI:
            pytest.fail("no C++ compiler in CI (set CXX, or install g++)")
        pytest.skip("no C++ compiler (set CXX, or install c++/g++)")
    tmp = tmp_path_factory.mktemp("jax_random")
    (tmp / "driver.cc").write_text(DRIVER)
    exe = tmp / "driver"
    build = subprocess.Popen(
        [cxx, "-std=c++20", "-O2", "-Wall", "-Wextra", "-I", str(INCLUDE_ROOT), str(tmp / "driver.cc"), "-o", str(exe)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )

    def run(requests: list[str]) -> list[list[int]]:
        if build.returncode is None:
            output, _ = build.communicate(timeout=300)
            assert build.returncode == 0, f"compiling the driver failed:\n{output}"
        done = subprocess.run(
            [str(exe)], input="\n".join(requests) + "\n", capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert len(lines) == len(requests)
        return [[int(t) for t in line.split()] for line in lines]

    yield run
    if build.returncode is None:
        build.kill()
        build.wait()


@pytest.fixture(scope="module")
def compared(driver: Callable[[list[str]], list[list[int]]]) -> list[tuple[Case, list[int]]]:
    """Every case with the driver's answer (the jax references are built while the driver compiles)."""
    keys = make_keys(N_KEYS)
    ref = Reference()
    for build in BUILDERS:
        timed(build, ref, keys)
    answers = driver([c.request for c in ref.cases])
    return list(zip(ref.cases, answers, strict=True))


def float_differences(expected: list[int], got: list[int]) -> tuple[float, float]:
    """Largest difference in float32 ulps of the expected value, and largest absolute difference."""
    e = np.array(expected, np.uint32).view(np.float32).astype(np.float64)
    g = np.array(got, np.uint32).view(np.float32).astype(np.float64)
    ulp = np.spacing(np.abs(e).astype(np.float32)).astype(np.float64)
    return float(np.max(np.abs(e - g) / ulp, initial=0.0)), float(np.max(np.abs(e - g), initial=0.0))


def summarize(pairs: list[tuple[Case, list[int]]]) -> dict[str, dict[str, float]]:
    """Per family: draws compared, draws that differ, and for floats the largest ulp difference."""
    out: dict[str, dict[str, float]] = {}
    for case, got in pairs:
        s = out.setdefault(case.family, {"draws": 0, "differ": 0, "max_ulps": 0.0, "max_abs": 0.0})
        s["draws"] += len(case.expected)
        if len(got) != len(case.expected):
            s["differ"] += len(case.expected)
            continue
        s["differ"] += sum(a != b for a, b in zip(case.expected, got, strict=True))
        if case.floats:
            ulps, absolute = float_differences(case.expected, got)
            s["max_ulps"] = max(s["max_ulps"], ulps)
            s["max_abs"] = max(s["max_abs"], absolute)
    return out


def test_bit_exact(compared: list[tuple[Case, list[int]]]) -> None:
    stats = summarize(compared)
    print("\n" + "\n".join(f"{k}: {v}" for k, v in sorted(stats.items())))
    assert sum(v["draws"] for v in stats.values()) > 50_000
    for family, s in stats.items():
        assert s["draws"] >= 100, family
    differ = {k: v for k, v in stats.items() if v["differ"]}
    bad = [(c.family, c.request[:120]) for c, g in compared if g != c.expected]
    assert not bad, f"{len(bad)} requests differ from jax: {differ}, e.g. {bad[:5]}"


def test_comparison_can_fail(driver: Callable[[list[str]], list[list[int]]]) -> None:
    """A key one bit off, or a bound one off, gives other draws: the comparison above would notice."""
    key = np.asarray(jr.PRNGKey(7))
    want = np.asarray(jr.uniform(key, (64,))).view(np.uint32).tolist()
    ints = np.asarray(jr.randint(key, (64,), 0, 1000)).tolist()
    one, two = f32_bits(0.0), f32_bits(1.0)
    same, flipped, shifted = driver(
        [
            f"uniform p {key_words(key)} 64 {one} {two}",
            f"uniform p {int(key[0])} {int(key[1]) ^ 1} 64 {one} {two}",
            f"randint p {key_words(key)} 64 0 1001",
        ]
    )
    assert same == want
    assert flipped != want
    assert shifted != ints


def test_array_permutation_moves_whole_rows() -> None:
    """jax permutes an array's rows by the permutation of its length, which the header's shuffle_rows applies."""
    key = jr.PRNGKey(3)
    x = np.arange(40 * 3).reshape(40, 3)
    np.testing.assert_array_equal(np.asarray(jr.permutation(key, x)), x[np.asarray(jr.permutation(key, 40))])
    np.testing.assert_array_equal(np.asarray(jr.permutation(key, x[:, 0])), x[np.asarray(jr.permutation(key, 40)), 0])
