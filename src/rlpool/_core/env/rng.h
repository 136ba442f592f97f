// Per-env random numbers: xoshiro256++ seeded through splitmix64.
//
// Each env owns one Rng seeded from its own seed, so results never depend on
// which worker thread stepped the env or in which order.
//
// An env whose reference derives its own generator from the seed (a JAX key)
// takes the seed with seed_of(rng) (_core/env/rng_seed.h) and notices reseeds
// there too; no seed() or reseeds() accessor is kept here.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace rlpool {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { seed_with(seed); }

  void seed_with(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9E3779B97F4A7C15ULL;  // splitmix64
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      word = z ^ (z >> 31);
    }
    has_spare_normal_ = false;
  }

  // The generator's four words, for envs that keep a generator of their own in
  // their saved state (set_words also drops a cached normal draw).
  std::array<std::uint64_t, 4> words() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void set_words(const std::array<std::uint64_t, 4>& words) {
    for (int i = 0; i < 4; ++i) s_[i] = words[static_cast<std::size_t>(i)];
    has_spare_normal_ = false;
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits, like numpy's Generator.random().
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [low, high), computed as numpy does: low + (high - low) * u.
  double uniform(double low, double high) { return low + (high - low) * uniform(); }
  // Uniform integer in [0, n) without modulo bias (Lemire's method).
  std::uint64_t integer(std::uint64_t n) {
    __uint128_t m = static_cast<__uint128_t>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<__uint128_t>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
  // Standard normal (Marsaglia polar method).
  double normal() {
    if (has_spare_normal_) {
      has_spare_normal_ = false;
      return spare_normal_;
    }
    double u, v, s;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_normal_ = v * f;
    has_spare_normal_ = true;
    return u * f;
  }
  double normal(double mean, double stddev) { return mean + stddev * normal(); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
  double spare_normal_ = 0.0;
  bool has_spare_normal_ = false;
};

// Whether two generators are at the same point of the same stream (their next
// draws agree). The engine touches an env's Rng between resets only to
// re-seed it, so an env that keeps a copy from its last reset tells a
// re-seeded reset (gymnasium's reset(seed=...)) from a plain one with this.
inline bool same_stream(const Rng& a, const Rng& b) {
  Rng x = a, y = b;
  return x.next() == y.next() && x.next() == y.next();
}

}  // namespace rlpool
