"""A Python copy of rlpool's C++ ``Rng`` (``src/rlpool/_core/env/rng.h``), for reference envs to draw rlpool's numbers.

``Rng`` is xoshiro256++ seeded through splitmix64. ``XoshiroGenerator`` steps the same four 64-bit words
and turns them into numbers exactly as ``Rng`` does -- doubles from the top 53 bits, integers by Lemire's
method, normals by Marsaglia's polar method with the second value of each pair kept for the next call --
under numpy ``Generator``'s method names (``random``, ``uniform``, ``normal``, ``standard_normal``,
``integers``, ``choice``). Put in place of a reference env's ``np_random`` (gymnasium, ALE, ...) and given
the words an rlpool env starts from, it makes the reference's own code draw exactly what rlpool's env draws.
Arrays are filled one draw per element in C order, as rlpool's envs fill them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

MASK = (1 << 64) - 1
"""The 64 bits of a generator word (Python ints do not wrap)."""

Size = int | tuple[int, ...] | None
"""numpy's ``size``: None for one number, else the shape of the array of numbers."""


def _rotl(x: int, k: int) -> int:
    """``x`` rotated left by ``k`` bits, as a 64-bit word."""
    return ((x << k) | (x >> (64 - k))) & MASK


def _shape(size: int | tuple[int, ...]) -> tuple[int, ...]:
    return (int(size),) if isinstance(size, (int, np.integer)) else tuple(int(n) for n in size)


class XoshiroGenerator:
    """The draws of rlpool's C++ ``Rng`` (src/rlpool/_core/env/rng.h) with numpy Generator's method names.

    ``s`` holds the four words; ``next()`` is ``Rng::next()``. Like ``Rng``, the generator caches the
    second normal of each polar pair: the call after one that drew a pair returns it without stepping.
    """

    def __init__(self, words: tuple[int, int, int, int]) -> None:
        self.s = [int(w) & MASK for w in words]
        self._spare_normal: float | None = None

    def next(self) -> int:
        """The next 64-bit output (``Rng::next``)."""
        s = self.s
        result = (_rotl((s[0] + s[3]) & MASK, 23) + s[0]) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def _double(self) -> float:
        """Uniform in [0, 1) with 53 random bits (``Rng::uniform()``)."""
        return (self.next() >> 11) * 2.0**-53

    def _integer(self, n: int) -> int:
        """Uniform in [0, n) by Lemire's method, as ``Rng::integer``."""
        m = self.next() * n
        low = m & MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next() * n
                low = m & MASK
        return m >> 64

    def _normal(self) -> float:
        """A standard normal by Marsaglia's polar method, the spare kept for the next call (``Rng::normal()``)."""
        if self._spare_normal is not None:
            z, self._spare_normal = self._spare_normal, None
            return z
        while True:
            u = 2.0 * self._double() - 1.0
            v = 2.0 * self._double() - 1.0
            s = u * u + v * v
            if s < 1.0 and s != 0.0:
                break
        f = math.sqrt(-2.0 * math.log(s) / s)
        self._spare_normal = v * f
        return u * f

    def _many(self, draw: Callable[[], float], size: Size) -> Any:
        """``draw()`` once for None, else a float64 array of ``size`` filled in C order."""
        if size is None:
            return draw()
        shape = _shape(size)
        return np.array([draw() for _ in range(math.prod(shape))], dtype=np.float64).reshape(shape)

    def _elementwise(self, draw: Callable[[float, float], float], a: ArrayLike, b: ArrayLike, size: Size) -> Any:
        """``draw(a_i, b_i)`` for each element of ``a`` and ``b`` broadcast to ``size`` (None: to each other)."""
        a_arr = np.asarray(a, dtype=np.float64)
        b_arr = np.asarray(b, dtype=np.float64)
        shape = np.broadcast_shapes(a_arr.shape, b_arr.shape) if size is None else _shape(size)
        a_all = np.broadcast_to(a_arr, shape).ravel().tolist()
        b_all = np.broadcast_to(b_arr, shape).ravel().tolist()
        return np.array([draw(x, y) for x, y in zip(a_all, b_all, strict=True)], dtype=np.float64).reshape(shape)

    def random(self, size: Size = None) -> Any:
        """Uniform in [0, 1): a float for ``size`` None, else a float64 array."""
        return self._many(self._double, size)

    def uniform(self, low: ArrayLike = 0.0, high: ArrayLike = 1.0, size: Size = None) -> Any:
        """Uniform in [low, high), each ``low + (high - low) * u`` (``Rng::uniform(low, high)``).

        Scalar bounds: a float for ``size`` None, else a float64 array of ``size``. Array bounds broadcast
        against each other and ``size`` (numpy's rules): one draw per element, in C order.
        """
        if np.ndim(low) == 0 and np.ndim(high) == 0:
            return self._many(lambda: low + (high - low) * self._double(), size)  # type: ignore[operator]
        return self._elementwise(lambda lo, hi: lo + (hi - lo) * self._double(), low, high, size)

    def normal(self, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0, size: Size = None) -> Any:
        """Normal with mean ``loc`` and deviation ``scale``, each ``loc + scale * z`` (``Rng::normal(mean, stddev)``).

        Scalar parameters: a float for ``size`` None, else a float64 array of ``size``. Array parameters
        broadcast against each other and ``size`` (numpy's rules): one ``normal()`` per element, in C order.
        """
        if np.ndim(loc) == 0 and np.ndim(scale) == 0:
            mean, stddev = float(loc), float(scale)  # type: ignore[arg-type]
            return self._many(lambda: mean + stddev * self._normal(), size)
        return self._elementwise(lambda m, sd: m + sd * self._normal(), loc, scale, size)

    def standard_normal(self, size: Size = None) -> Any:
        """Standard normals (``Rng::normal()``): a float for ``size`` None, else a float64 array."""
        return self._many(self._normal, size)

    def integers(self, low: int, high: int | None = None, size: Size = None, dtype: DTypeLike = np.int64,
                 endpoint: bool = False) -> Any:
        """Uniform integers in [low, high) ([low, high] with ``endpoint``), one ``Rng::integer`` each.

        ``high`` None: [0, low). An ``np.int64`` for ``size`` None, else an array of ``dtype``.
        """
        if high is None:
            low, high = 0, low
        n = int(high) - int(low) + (1 if endpoint else 0)
        if size is None:
            return np.int64(int(low) + self._integer(n))
        shape = _shape(size)
        return np.array([int(low) + self._integer(n) for _ in range(math.prod(shape))], dtype=dtype).reshape(shape)

    def choice(self, a: ArrayLike, size: Size = None) -> Any:
        """Uniform picks, with replacement, from ``a`` (a sequence, or an int for ``range(a)``), as numpy's default.

        One ``Rng::integer(len(a))`` per pick, in C order, as numpy draws one integer per pick; returns
        ``a[i]`` (for ``size``, an array of picks along ``a``'s first axis).
        """
        if np.ndim(a) == 0:
            n = int(a)  # type: ignore[arg-type]
            if n <= 0:
                raise ValueError("a must be a positive integer unless no samples are taken")
            return self.integers(0, n, size=size)
        population = np.asarray(a)
        n = len(population)
        if n == 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        if size is None:
            return population[self._integer(n)]
        shape = _shape(size)
        picks = np.array([self._integer(n) for _ in range(math.prod(shape))], dtype=np.int64).reshape(shape)
        return population[picks]
