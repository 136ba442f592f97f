// The seed an env's Rng was last given, for an env whose reference derives
// its own generator from the seed (a JAX key from EnvPool's seed + i, as
// Craftax and Jumanji do), so that the same seed gives the reference's
// episodes.
//
// Rng::seed_with fills the four words with splitmix64 outputs of the seed;
// splitmix64's mixing is a bijection, so the seed is recovered from the first
// word, and the other three confirm it. `seed_of(rng)` is that seed while the
// Rng has drawn nothing since it was seeded, and nullopt once it has. An env
// that uses this draws one number after taking the seed: then a later reseed,
// even with the same seed, shows as words that match a seed again.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "_core/env/rng.h"

namespace rlpool {

namespace rng_seed_detail {

constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kMul1 = 0xBF58476D1CE4E5B9ULL;
constexpr std::uint64_t kMul2 = 0x94D049BB133111EBULL;

// The inverse of an odd number modulo 2^64 (Newton's iteration).
constexpr std::uint64_t inverse(std::uint64_t a) {
  std::uint64_t x = a;  // correct to 3 bits for odd a; each step doubles them
  for (int i = 0; i < 5; ++i) x *= 2 - a * x;
  return x;
}
static_assert(inverse(kMul1) * kMul1 == 1 && inverse(kMul2) * kMul2 == 1);

constexpr std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * kMul1;
  z = (z ^ (z >> 27)) * kMul2;
  return z ^ (z >> 31);
}

// x such that y == x ^ (x >> s).
constexpr std::uint64_t unshift(std::uint64_t y, int s) {
  std::uint64_t x = y;
  for (int k = s; k < 64; k += s) x ^= y >> k;
  return x;
}

constexpr std::uint64_t unmix(std::uint64_t w) {
  std::uint64_t z = unshift(w, 31);
  z = unshift(z * inverse(kMul2), 27);
  return unshift(z * inverse(kMul1), 30);
}
static_assert(unmix(mix(12345)) == 12345 && unmix(mix(~0ULL)) == ~0ULL);

}  // namespace rng_seed_detail

// The seed `rng` was given by its last seed_with, if it has drawn nothing since.
inline std::optional<std::uint64_t> seed_of(const Rng& rng) {
  using namespace rng_seed_detail;
  const std::array<std::uint64_t, 4> w = rng.words();
  const std::uint64_t seed = unmix(w[0]) - kGamma;
  std::uint64_t s = seed;
  for (const std::uint64_t word : w) {
    s += kGamma;
    if (mix(s) != word) return std::nullopt;
  }
  return seed;
}

}  // namespace rlpool
