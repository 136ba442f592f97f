// JAX's default PRNG (threefry2x32) and the jax.random samplers that
// JAX-written environments draw from, in plain header-only C++, so that a C++
// port of such an environment reproduces the reference's draws from the same
// key, bit for bit.
//
// Follows jax 0.10.2 (jax/_src/random/threefry2x32.py, prng.py and core.py)
// with its defaults: jax_enable_x64 off, jax_default_prng_impl=threefry2x32,
// jax_threefry_partitionable on (the older layout, partitionable off, is
// `Layout::kOriginal`), jax_high_dynamic_range_gumbel off. A `Key` is the two
// uint32 words of a legacy `jax.random.PRNGKey` (what `jax.random.key_data`
// returns for a new-style key). Arrays are flat, in C (row-major) order: every
// sampler depends on a shape only through its element count, so a jax shape
// (a, b, c) is `n = a * b * c` here.
//
// Floats are computed as XLA's CPU backend computes them in jitted code:
// log, log1p and erf_inv are XLA's own float32 approximations (not the C
// library's), the multiply-adds XLA fuses are std::fma (XLA fuses them on
// every CPU with FMA: x86-64 since Haswell, aarch64), denormals are flushed
// to zero, and lax.max puts +0 above -0. Any other product here is exact
// where a compiler could fuse it into an add, so -ffp-contract does not
// matter; -ffast-math does (do not use it). tests/core/test_jax_random.py
// compares every function with jax itself.
//
// An env keeps a `Key` in its state where the reference keeps its jax key and
// makes the same calls in the same order: `key, sub = jax.random.split(key);
// a = jax.random.randint(sub, (), 0, 4)` is `auto [next, sub] = split2(key);
// key = next; std::int32_t a = randint1(sub, 0, 4);`.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace rlpool::jax_random {

// A threefry2x32 key: the two uint32 words of `jax.random.PRNGKey(seed)`.
struct Key {
  std::uint32_t hi = 0;  // word 0
  std::uint32_t lo = 0;  // word 1
  friend bool operator==(const Key&, const Key&) = default;
};

// How a key's counter space is laid out over an array's elements
// (jax_threefry_partitionable): jax 0.10 defaults to kPartitionable.
enum class Layout { kPartitionable, kOriginal };

// ---------------------------------------------------------------- threefry

inline constexpr std::uint32_t rotl32(std::uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

// The Threefry-2x32 block function, 20 rounds, as in jax's lowering.
inline constexpr std::pair<std::uint32_t, std::uint32_t> threefry2x32(Key key, std::uint32_t x0,
                                                                     std::uint32_t x1) {
  constexpr int kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  const std::uint32_t ks[3] = {key.hi, key.lo, key.hi ^ key.lo ^ 0x1BD11BDAu};
  x0 += ks[0];
  x1 += ks[1];
  for (int i = 0; i < 5; ++i) {
    for (int r : kRot[i % 2]) {
      x0 += x1;
      x1 = rotl32(x1, r);
      x1 ^= x0;
    }
    x0 += ks[(i + 1) % 3];
    x1 += ks[(i + 2) % 3] + static_cast<std::uint32_t>(i + 1);
  }
  return {x0, x1};
}

namespace detail {

// Partitionable layout: element i hashes the 64-bit counter i (hi, lo words).
inline std::pair<std::uint32_t, std::uint32_t> hash_index(Key key, std::uint64_t i) {
  return threefry2x32(key, static_cast<std::uint32_t>(i >> 32), static_cast<std::uint32_t>(i));
}

// Original layout: jax's threefry_2x32(key, iota(m)), which hashes the first
// half of the counters against the second half (padded with a 0 when m is odd)
// and concatenates the two output halves.
inline void threefry_iota(Key key, std::size_t m, std::uint32_t* out) {
  if (m >= 0xFFFFFFFFull) throw std::length_error("jax_random: array too large for the original layout");
  const std::size_t h = (m + 1) / 2;
  for (std::size_t j = 0; j < h; ++j) {
    const std::uint32_t a = static_cast<std::uint32_t>(j);
    const std::uint32_t b = h + j < m ? static_cast<std::uint32_t>(h + j) : 0u;
    const auto [o0, o1] = threefry2x32(key, a, b);
    out[j] = o0;
    if (h + j < m) out[h + j] = o1;
  }
}

// XLA on CPU runs with denormals flushed to zero, inputs and results alike.
template <class F>
F ftz(F x) {
  return std::fabs(x) < std::numeric_limits<F>::min() ? std::copysign(F(0), x) : x;
}

// lax.max: NaN if either is NaN, and +0 above -0.
template <class F>
F xla_max(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<F>::quiet_NaN();
  if (a == b) return std::signbit(a) && std::signbit(b) ? a : std::fabs(a);
  return a > b ? a : b;
}

}  // namespace detail

// ---------------------------------------------------------------- keys

// jax.random.PRNGKey(seed) / key_data(jax.random.key(seed)) with x64 off (the
// default): the seed is cast to int32 first, so only its low 32 bits count
// and the first word is always 0. PRNGKey(-1) == PRNGKey(2**32 - 1).
inline Key prng_key(std::int64_t seed) { return Key{0u, static_cast<std::uint32_t>(seed)}; }

// The same with jax_enable_x64 on: the seed's two 32-bit halves.
inline Key prng_key_x64(std::int64_t seed) {
  const auto u = static_cast<std::uint64_t>(seed);
  return Key{static_cast<std::uint32_t>(u >> 32), static_cast<std::uint32_t>(u)};
}

// jax.random.fold_in(key, data); data as uint32 (jnp.asarray(data, uint32)).
inline Key fold_in(Key key, std::uint32_t data) {
  const auto [a, b] = threefry2x32(key, 0u, data);
  return Key{a, b};
}

// jax.random.split(key, num) written into out[0..num).
inline void split(Key key, Key* out, std::size_t num, Layout layout = Layout::kPartitionable) {
  if (layout == Layout::kPartitionable) {
    for (std::size_t i = 0; i < num; ++i) {
      const auto [a, b] = detail::hash_index(key, i);
      out[i] = Key{a, b};
    }
    return;
  }
  std::vector<std::uint32_t> words(2 * num);
  detail::threefry_iota(key, 2 * num, words.data());
  for (std::size_t i = 0; i < num; ++i) out[i] = Key{words[2 * i], words[2 * i + 1]};
}

// jax.random.split(key, num) as a vector (num defaults to 2, as in jax).
inline std::vector<Key> split(Key key, std::size_t num = 2, Layout layout = Layout::kPartitionable) {
  std::vector<Key> out(num);
  split(key, out.data(), num, layout);
  return out;
}

// `k1, k2 = jax.random.split(key)`.
inline std::pair<Key, Key> split2(Key key, Layout layout = Layout::kPartitionable) {
  Key out[2];
  split(key, out, 2, layout);
  return {out[0], out[1]};
}

// ---------------------------------------------------------------- random bits

// jax.random.bits(key, shape, uintN) / the internal random_bits(key, N, shape)
// for N in 8, 16, 32, 64, over n elements. T is uint8_t, uint16_t, uint32_t or
// uint64_t.
template <class T>
void random_bits(Key key, T* out, std::size_t n, Layout layout = Layout::kPartitionable) {
  static_assert(std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> ||
                    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>,
                "random_bits: T must be uint8_t, uint16_t, uint32_t or uint64_t");
  constexpr std::size_t width = sizeof(T) * 8;
  if (layout == Layout::kPartitionable) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto [b1, b2] = detail::hash_index(key, i);
      if constexpr (width == 64) {
        out[i] = (static_cast<std::uint64_t>(b1) << 32) | b2;
      } else {
        out[i] = static_cast<T>(b1 ^ b2);
      }
    }
    return;
  }
  const std::size_t words = (width * n + 31) / 32;
  std::vector<std::uint32_t> bits(words);
  detail::threefry_iota(key, words, bits.data());
  if constexpr (width == 64) {
    for (std::size_t i = 0; i < n; ++i) out[i] = (static_cast<std::uint64_t>(bits[i]) << 32) | bits[n + i];
  } else {
    constexpr std::size_t per_word = 32 / width;
    for (std::size_t i = 0; i < n; ++i) {
      out[i] = static_cast<T>(bits[i / per_word] >> (width * (i % per_word)));
    }
  }
}

template <class T>
std::vector<T> random_bits(Key key, std::size_t n, Layout layout = Layout::kPartitionable) {
  std::vector<T> out(n);
  random_bits<T>(key, out.data(), n, layout);
  return out;
}

// ---------------------------------------------------------------- uniform

// jax.random.uniform(key, shape, float32, minval, maxval): 23 random mantissa
// bits give f in [1, 2); the result is max(minval, (f - 1) * (maxval - minval) + minval),
// the multiply-add fused (one rounding) as XLA emits it on CPUs with FMA.
inline void uniform(Key key, float* out, std::size_t n, float minval = 0.0f,
                    float maxval = 1.0f, Layout layout = Layout::kPartitionable) {
  std::vector<std::uint32_t> bits(n);
  random_bits<std::uint32_t>(key, bits.data(), n, layout);
  minval = detail::ftz(minval);
  maxval = detail::ftz(maxval);
  const float span = detail::ftz(maxval - minval);
  for (std::size_t i = 0; i < n; ++i) {
    const float f = std::bit_cast<float>((bits[i] >> 9) | 0x3F800000u) - 1.0f;
    const float v = detail::ftz(std::fma(f, span, minval));  // XLA contracts f * span + minval
    out[i] = detail::xla_max(minval, v);
  }
}

// The float64 flavour (jax only draws it with jax_enable_x64 on): 52 mantissa bits.
inline void uniform(Key key, double* out, std::size_t n, double minval = 0.0,
                    double maxval = 1.0, Layout layout = Layout::kPartitionable) {
  std::vector<std::uint64_t> bits(n);
  random_bits<std::uint64_t>(key, bits.data(), n, layout);
  minval = detail::ftz(minval);
  maxval = detail::ftz(maxval);
  const double span = detail::ftz(maxval - minval);
  for (std::size_t i = 0; i < n; ++i) {
    const double f = std::bit_cast<double>((bits[i] >> 12) | 0x3FF0000000000000ull) - 1.0;
    const double v = detail::ftz(std::fma(f, span, minval));
    out[i] = detail::xla_max(minval, v);
  }
}

inline std::vector<float> uniform(Key key, std::size_t n, float minval = 0.0f, float maxval = 1.0f,
                                  Layout layout = Layout::kPartitionable) {
  std::vector<float> out(n);
  uniform(key, out.data(), n, minval, maxval, layout);
  return out;
}

// One float32 draw, as jax.random.uniform(key) with shape ().
inline float uniform1(Key key, float minval = 0.0f, float maxval = 1.0f, Layout layout = Layout::kPartitionable) {
  float out = 0.0f;
  uniform(key, &out, 1, minval, maxval, layout);
  return out;
}

// ---------------------------------------------------------------- randint

// jax.random.randint(key, shape, minval, maxval) with dtype int32 (the default
// with x64 off). minval/maxval are taken as wide integers and clipped to the
// int32 range, as jax does for 64-bit inputs; with x64 off jax itself rejects
// Python ints outside int32 (OverflowError). maxval <= minval gives minval.
inline void randint(Key key, std::int32_t* out, std::size_t n, std::int64_t minval, std::int64_t maxval,
                    Layout layout = Layout::kPartitionable) {
  constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int32_t>::max();
  const bool maxval_out_of_range = maxval > hi;
  const auto mn = static_cast<std::int32_t>(std::clamp(minval, lo, hi));
  const auto mx = static_cast<std::int32_t>(std::clamp(maxval, lo, hi));
  const auto [k1, k2] = split2(key, layout);
  std::vector<std::uint32_t> higher(n), lower(n);
  random_bits<std::uint32_t>(k1, higher.data(), n, layout);
  random_bits<std::uint32_t>(k2, lower.data(), n, layout);
  std::uint32_t span = static_cast<std::uint32_t>(mx) - static_cast<std::uint32_t>(mn);
  if (mx <= mn) span = 1;
  if (maxval_out_of_range && mx > mn) span += 1;  // 0 when it wraps: the remainders then do nothing
  auto rem = [span](std::uint32_t a) { return span == 0 ? a : a % span; };  // XLA: x % 0 == x
  std::uint32_t multiplier = rem(std::uint32_t{1} << 16);
  multiplier = rem(multiplier * multiplier);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t offset = rem(rem(higher[i]) * multiplier + rem(lower[i]));
    out[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(mn) + offset);
  }
}

inline std::vector<std::int32_t> randint(Key key, std::size_t n, std::int64_t minval, std::int64_t maxval,
                                         Layout layout = Layout::kPartitionable) {
  std::vector<std::int32_t> out(n);
  randint(key, out.data(), n, minval, maxval, layout);
  return out;
}

// jax.random.randint(key, (n,), minval, maxval) with int32 arrays of bounds,
// one pair per element (jax broadcasts them to the shape): the same two draws
// of random bits as the scalar form, each element reduced by its own span.
// Float bounds (Craftax's dungeon rooms pass minval=ones(2)) are cast to
// int32 by the caller, as jax casts them.
inline void randint_each(Key key, std::int32_t* out, std::size_t n, const std::int32_t* minval,
                         const std::int32_t* maxval, Layout layout = Layout::kPartitionable) {
  const auto [k1, k2] = split2(key, layout);
  std::vector<std::uint32_t> higher(n), lower(n);
  random_bits<std::uint32_t>(k1, higher.data(), n, layout);
  random_bits<std::uint32_t>(k2, lower.data(), n, layout);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t mn = minval[i];
    const std::int32_t mx = maxval[i];
    const std::uint32_t span = mx <= mn ? 1u : static_cast<std::uint32_t>(mx) - static_cast<std::uint32_t>(mn);
    const std::uint32_t multiplier = ((std::uint32_t{1} << 16) % span) * ((std::uint32_t{1} << 16) % span) % span;
    const std::uint32_t offset = ((higher[i] % span) * multiplier + lower[i] % span) % span;
    out[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(mn) + offset);
  }
}

// One draw, as jax.random.randint(key, (), minval, maxval).
inline std::int32_t randint1(Key key, std::int64_t minval, std::int64_t maxval,
                             Layout layout = Layout::kPartitionable) {
  std::int32_t out = 0;
  randint(key, &out, 1, minval, maxval, layout);
  return out;
}

// ---------------------------------------------------------------- bernoulli

// jax.random.bernoulli(key, p, shape) with a float32 p (mode "low"): uniform < p.
inline void bernoulli(Key key, bool* out, std::size_t n, float p = 0.5f, Layout layout = Layout::kPartitionable) {
  std::vector<float> u(n);
  uniform(key, u.data(), n, 0.0f, 1.0f, layout);
  p = detail::ftz(p);
  for (std::size_t i = 0; i < n; ++i) out[i] = u[i] < p;
}

// mode="high": two uniforms u1, u2 drawn as one array of 2n; u2 * 2**-23 < p - u1.
inline void bernoulli_high(Key key, bool* out, std::size_t n, float p = 0.5f,
                           Layout layout = Layout::kPartitionable) {
  std::vector<float> u(2 * n);
  uniform(key, u.data(), 2 * n, 0.0f, 1.0f, layout);
  p = detail::ftz(p);
  for (std::size_t i = 0; i < n; ++i) out[i] = u[n + i] * 0x1p-23f < detail::ftz(p - u[i]);
}

inline bool bernoulli1(Key key, float p = 0.5f, Layout layout = Layout::kPartitionable) {
  bool out = false;
  bernoulli(key, &out, 1, p, layout);
  return out;
}

// ---------------------------------------------------------------- permutation

// How many sort rounds jax's shuffle makes for n elements:
// ceil(3 * ln(max(1, n)) / ln(2**32 - 1)), in float64 as jax computes it.
inline int shuffle_rounds(std::size_t n) {
  const double rounds = std::ceil(3.0 * std::log(static_cast<double>(std::max<std::size_t>(1, n))) /
                                  std::log(4294967295.0));
  return static_cast<int>(rounds);
}

// The permutation jax.random.permutation(key, n) returns: out[i] is the index
// of the element that lands at position i. Each round splits the key, draws
// n uint32 sort keys from the subkey and stable-sorts by them.
inline void permutation_indices(Key key, std::int32_t* out, std::size_t n, Layout layout = Layout::kPartitionable) {
  std::iota(out, out + n, 0);
  const int rounds = shuffle_rounds(n);
  std::vector<std::uint32_t> sort_keys(n);
  std::vector<std::size_t> order(n);
  std::vector<std::int32_t> tmp(n);
  for (int r = 0; r < rounds; ++r) {
    const auto [next, sub] = split2(key, layout);
    key = next;
    random_bits<std::uint32_t>(sub, sort_keys.data(), n, layout);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sort_keys[a] < sort_keys[b]; });
    for (std::size_t i = 0; i < n; ++i) tmp[i] = out[order[i]];
    std::copy(tmp.begin(), tmp.end(), out);
  }
}

inline std::vector<std::int32_t> permutation(Key key, std::size_t n, Layout layout = Layout::kPartitionable) {
  std::vector<std::int32_t> out(n);
  permutation_indices(key, out.data(), n, layout);
  return out;
}

// jax.random.permutation(key, x) for an array x of `rows` rows of `row_size`
// elements each (permuted along axis 0, independent=False), in place. A 1-D
// array is rows = x.size, row_size = 1.
template <class T>
void shuffle_rows(Key key, T* x, std::size_t rows, std::size_t row_size = 1,
                  Layout layout = Layout::kPartitionable) {
  std::vector<std::int32_t> perm(rows);
  permutation_indices(key, perm.data(), rows, layout);
  std::vector<T> copy(x, x + rows * row_size);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t from = static_cast<std::size_t>(perm[i]) * row_size;
    std::copy_n(copy.begin() + static_cast<std::ptrdiff_t>(from), row_size, x + i * row_size);
  }
}

// ---------------------------------------------------------------- XLA float math

// The float32 log and log1p that XLA's CPU backend compiles into jitted code
// (fusions): a Cephes polynomial for log, and for log1p a rational
// approximation near 0 and log(1 + x) elsewhere. The std::fma calls are the
// multiply-adds LLVM fuses there; everything else rounds after each operation.
namespace detail {

constexpr float f32_from_bits(std::uint32_t bits) { return std::bit_cast<float>(bits); }

inline float xla_log(float in) {
  in = ftz(in);
  constexpr float kMinNormal = 0x1p-126f;
  const float clamped = in > kMinNormal ? in : kMinNormal;
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(clamped);
  const float mant = std::bit_cast<float>((bits & 0x807FFFFFu) | 0x3F000000u);  // in [0.5, 1)
  float e = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 127) + 1.0f;
  const bool below = mant < f32_from_bits(0x3F3504F3);  // sqrt(1/2)
  const float x = (mant - 1.0f) + (below ? mant : 0.0f);
  e = e - (below ? 1.0f : 0.0f);
  const float x2 = x * x;
  const float x3 = x2 * x;
  float a = std::fma(x, f32_from_bits(0x3D9021BB), f32_from_bits(0xBDEBD1B8));
  float b = std::fma(x, f32_from_bits(0xBDFE5D4F), f32_from_bits(0x3E11E9BF));
  float c = std::fma(x, f32_from_bits(0x3E4CCEAC), f32_from_bits(0xBE7FFFFC));
  a = std::fma(a, x, f32_from_bits(0x3DEF251A));
  b = std::fma(b, x, f32_from_bits(0xBE2AAE50));
  c = std::fma(c, x, f32_from_bits(0x3EAAAAAA));
  float y = std::fma(a, x3, b);
  y = std::fma(y, x3, c);
  const float tail = std::fma(y, x3, f32_from_bits(0xB95E8083) * e);
  const float head = std::fma(-0.5f, x2, x);
  const float result = std::fma(f32_from_bits(0x3F318000), e, head + tail);
  if (std::isnan(in) || in < 0.0f) return std::numeric_limits<float>::quiet_NaN();
  if (in == 0.0f) return -std::numeric_limits<float>::infinity();
  if (in == std::numeric_limits<float>::infinity()) return in;
  return result;
}

inline float xla_log1p(float t) {
  if (!(std::fabs(t) < f32_from_bits(0x3ED413CD))) return xla_log(t + 1.0f);
  constexpr std::uint32_t kQ[6] = {0x417101AD, 0x42A6185B, 0x435DC32D, 0x439A8CA3, 0x43586D8A, 0x42707982};
  constexpr std::uint32_t kP[6] = {0x3EFF40C5, 0x40D284FA, 0x41EF4B9C, 0x4273CC76, 0x426473AD, 0x41A05101};
  const float zero_t = t * 0.0f;
  float q = zero_t + 1.0f;
  float p = zero_t + 4.527e-05f;
  for (int i = 0; i < 6; ++i) {
    q = std::fma(q, t, f32_from_bits(kQ[i]));
    p = std::fma(p, t, f32_from_bits(kP[i]));
  }
  const float t2 = t * t;
  const float correction = (t * t2) * (p / q);
  return t + (t2 * -0.5f + correction);
}

}  // namespace detail

// ---------------------------------------------------------------- gumbel

// jax.random.gumbel(key, shape, float32) (mode "low"):
// -log(-log(uniform(key, shape, minval=tiny, maxval=1))).
inline void gumbel(Key key, float* out, std::size_t n, Layout layout = Layout::kPartitionable) {
  uniform(key, out, n, std::numeric_limits<float>::min(), 1.0f, layout);
  for (std::size_t i = 0; i < n; ++i) out[i] = -detail::xla_log(-detail::xla_log(out[i]));
}

// ---------------------------------------------------------------- choice

// jax.random.choice(key, n, shape, replace=True) without p: randint(0, n).
inline void choice(Key key, std::int32_t* out, std::size_t draws, std::int32_t n,
                   Layout layout = Layout::kPartitionable) {
  randint(key, out, draws, 0, n, layout);
}

// jax.random.choice(key, n, shape, replace=False) without p: the first
// `draws` entries of permutation(key, n).
inline void choice_no_replace(Key key, std::int32_t* out, std::size_t draws, std::size_t n,
                              Layout layout = Layout::kPartitionable) {
  if (draws > n) throw std::invalid_argument("jax_random::choice_no_replace: draws > n");
  std::vector<std::int32_t> perm(n);
  permutation_indices(key, perm.data(), n, layout);
  std::copy_n(perm.begin(), draws, out);
}

namespace detail {

// jnp.cumsum of float32 as XLA's CPU backend computes it: not a running sum
// but a blocked scan (its reduce_window rewrite): the array padded with zeros
// to a multiple of 16, running sums inside each block of 16, the blocks'
// totals summed by the same scan (recursively), and each block's exclusive
// prefix added to its running sums. A running sum differs from it in most
// entries of a long array (3,997 of 4,096 for a mask / its sum).
inline void xla_cumsum(const float* p, std::size_t n, float* out) {
  constexpr std::size_t kBlock = 16;
  if (n <= kBlock) {
    float acc = 0.0f;
    for (std::size_t j = 0; j < n; ++j) out[j] = acc = ftz(acc + ftz(p[j]));
    return;
  }
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<float> totals(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    float acc = 0.0f;
    for (std::size_t j = b * kBlock; j < (b + 1) * kBlock; ++j) {
      acc = ftz(acc + (j < n ? ftz(p[j]) : 0.0f));
      if (j < n) out[j] = acc;
    }
    totals[b] = acc;
  }
  std::vector<float> prefix(blocks);
  xla_cumsum(totals.data(), blocks, prefix.data());
  for (std::size_t b = 1; b < blocks; ++b) {
    const float before = prefix[b - 1];
    for (std::size_t j = b * kBlock; j < std::min(n, (b + 1) * kBlock); ++j) out[j] = ftz(out[j] + before);
  }
}

}  // namespace detail

// jax.random.choice(key, n, shape, replace=True, p=p) with float32 p[0..n):
// the cumulative sum c (detail::xla_cumsum: XLA's blocked scan), r = c[n-1] *
// (1 - u), and the index is searchsorted(c, r, side="left"): the count of
// c[j] < r.
inline void choice_p(Key key, std::int32_t* out, std::size_t draws, const float* p,
                     std::size_t n, Layout layout = Layout::kPartitionable) {
  std::vector<float> c(n);
  detail::xla_cumsum(p, n, c.data());
  std::vector<float> u(draws);
  uniform(key, u.data(), draws, 0.0f, 1.0f, layout);
  const float total = n ? c[n - 1] : 0.0f;
  for (std::size_t i = 0; i < draws; ++i) {
    const float r = detail::ftz(total * (1.0f - u[i]));
    std::size_t lo = 0;  // a binary search for the first c[j] >= r (std::lower_bound here trips a
    std::size_t hi = n;  // false -Wuse-after-free in GCC 12 once inlined)
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (c[mid] < r) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    out[i] = static_cast<std::int32_t>(lo);
  }
}

namespace detail {

// lax.top_k's order: larger first, the lower index first among equals, NaN above all.
inline void top_k_indices(const std::vector<float>& v, std::int32_t* out, std::size_t k) {
  std::vector<std::int32_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  auto above = [&](std::int32_t a, std::int32_t b) {
    const float x = v[static_cast<std::size_t>(a)], y = v[static_cast<std::size_t>(b)];
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && !std::isnan(y);
    return x > y;
  };
  std::stable_sort(idx.begin(), idx.end(), above);
  std::copy_n(idx.begin(), k, out);
}

}  // namespace detail

// jax.random.choice(key, n, shape, replace=False, p=p): gumbel top-k,
// the indices of the `draws` largest gumbel(key, (n,)) + log(p). Called
// outside jit, jax takes log(p) in an op of its own, which XLA may compute
// with the C library's logf (within 1 ulp of this one): a near tie between
// two keys could then order differently.
inline void choice_p_no_replace(Key key, std::int32_t* out, std::size_t draws, const float* p, std::size_t n,
                                Layout layout = Layout::kPartitionable) {
  if (draws > n) throw std::invalid_argument("jax_random::choice_p_no_replace: draws > n");
  std::vector<float> g(n);
  gumbel(key, g.data(), n, layout);
  for (std::size_t j = 0; j < n; ++j) g[j] += detail::xla_log(p[j]);
  detail::top_k_indices(g, out, draws);
}

// ---------------------------------------------------------------- categorical

// jax.random.categorical(key, logits, axis=-1, shape=(samples, batch...)) for
// float32 logits of `batch` rows of n classes: argmax over each row of
// gumbel(key, (samples, batch, n)) + logits. out holds samples * batch
// indices (samples = 1 is the default shape=None). argmax takes the first
// maximum, and a NaN as the maximum.
inline void categorical(Key key, std::int32_t* out, const float* logits, std::size_t batch, std::size_t n,
                        std::size_t samples = 1, Layout layout = Layout::kPartitionable) {
  std::vector<float> g(samples * batch * n);
  gumbel(key, g.data(), g.size(), layout);
  for (std::size_t s = 0; s < samples; ++s) {
    for (std::size_t b = 0; b < batch; ++b) {
      const float* row = g.data() + (s * batch + b) * n;
      const float* lg = logits + b * n;
      std::size_t best = 0;
      float best_v = row[0] + lg[0];
      for (std::size_t j = 1; j < n && !std::isnan(best_v); ++j) {
        const float v = row[j] + lg[j];
        if (std::isnan(v) || v > best_v) {
          best = j;
          best_v = v;
        }
      }
      out[s * batch + b] = static_cast<std::int32_t>(best);
    }
  }
}

// ---------------------------------------------------------------- normal

// lax.erf_inv in float32 as XLA compiles it: Giles' single-precision
// polynomial in w = -log1p(-x * x).
inline float erf_inv(float x) {
  constexpr std::uint32_t kSmall[9] = {0x32F16588, 0x34B84B36, 0xB66C7357, 0xB6935AC1, 0x396532DB,
                                       0xBAA45408, 0xBB88E4EF, 0x3E7C8F63, 0x3FC02E2F};
  constexpr std::uint32_t kLarge[9] = {0xB951F09B, 0x38D3B56B, 0x3AB0DC72, 0xBB70BDE7, 0x3BBC127B,
                                       0xBBF9C5D7, 0x3C1AA57E, 0x3F8036DB, 0x40354F7E};
  const float l = detail::xla_log1p(x * -x);
  const bool small = l > -5.0f;  // w = -l < 5
  const float w = small ? -2.5f - l : std::sqrt(-l) + -3.0f;
  const std::uint32_t* c = small ? kSmall : kLarge;
  float p = detail::f32_from_bits(c[0]);
  for (int i = 1; i < 9; ++i) p = std::fma(p, w, detail::f32_from_bits(c[i]));
  return x * (std::fabs(x) == 1.0f ? std::numeric_limits<float>::infinity() : p);
}

// jax.random.normal(key, shape, float32): sqrt(2) * erf_inv(u) with u uniform
// in [nextafter(-1, 0), 1).
inline void normal(Key key, float* out, std::size_t n,
                   Layout layout = Layout::kPartitionable) {
  uniform(key, out, n, std::nextafter(-1.0f, 0.0f), 1.0f, layout);
  for (std::size_t i = 0; i < n; ++i) out[i] = erf_inv(out[i]) * detail::f32_from_bits(0x3FB504F3);
}

}  // namespace rlpool::jax_random

