// Where jumanji's graph viewers (GraphColoring's and MMST's) put a graph's
// nodes: jumanji/environments/commons/graph_view_utils.py spring_layout
// (l.53-93), the Fruchterman-Reingold layout from numpy's
// default_rng(42) -- start positions rng.random((n, 2)) * 2 - 1, then 100
// rounds of repulsion between every pair and attraction along every entry
// of the adjacency matrix, the moves scaled by a temperature that cools by
// 0.9 a round and the positions clipped to [-1, 1] -- scaled into
// [0.05, 0.05 + 1 / 1.1] per axis. numpy's default_rng(42) is reproduced:
// SeedSequence's entropy mixing (numpy/random/bit_generator.pyx,
// _coerce_to_uint32_array, mix_entropy, generate_state) and PCG64's XSL-RR
// generator (numpy/random/src/pcg64/pcg64.h), random() taking the top 53
// bits of a draw. The arithmetic is numpy's, in double precision.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace rlpool::jumanji {

namespace layout_detail {

// numpy's SeedSequence(seed).generate_state(4, np.uint64) for a seed below 2**32.
inline std::array<std::uint64_t, 4> seed_sequence_state(std::uint32_t seed) {
  constexpr std::uint32_t kInitA = 0x43b0d7e5u, kMultA = 0x931e8875u, kInitB = 0x8b51f9ddu, kMultB = 0x58f38dedu;
  constexpr std::uint32_t kMixL = 0xca01f9ddu, kMixR = 0x4973f715u;
  constexpr int kShift = 16;
  std::uint32_t hash_const = kInitA;
  const auto hashmix = [&](std::uint32_t value) {
    value ^= hash_const;
    hash_const *= kMultA;
    value *= hash_const;
    return value ^ (value >> kShift);
  };
  const auto mix = [](std::uint32_t x, std::uint32_t y) {
    std::uint32_t result = kMixL * x - kMixR * y;
    return result ^ (result >> kShift);
  };
  std::array<std::uint32_t, 4> pool{};
  for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = hashmix(i == 0 ? seed : 0u);
  for (std::size_t src = 0; src < pool.size(); ++src) {
    for (std::size_t dst = 0; dst < pool.size(); ++dst) {
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    }
  }
  std::uint32_t b = kInitB;
  std::array<std::uint32_t, 8> words{};
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::uint32_t value = pool[i % pool.size()] ^ b;
    b *= kMultB;
    value *= b;
    words[i] = value ^ (value >> kShift);
  }
  std::array<std::uint64_t, 4> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = words[2 * i] | (std::uint64_t{words[2 * i + 1]} << 32);
  return out;
}

// numpy's PCG64 (128-bit LCG, XSL-RR output), seeded as PCG64(SeedSequence(seed)).
class Pcg64 {
 public:
  explicit Pcg64(std::uint32_t seed) {
    const auto s = seed_sequence_state(seed);
    const Word initstate = (Word{s[0]} << 64) | s[1];
    inc_ = (((Word{s[2]} << 64) | s[3]) << 1) | 1u;
    state_ = 0;
    step();
    state_ += initstate;
    step();
  }

  std::uint64_t next() {
    step();
    const auto high = static_cast<std::uint64_t>(state_ >> 64);
    const auto low = static_cast<std::uint64_t>(state_);
    const unsigned rot = static_cast<unsigned>(state_ >> 122);
    const std::uint64_t x = high ^ low;
    return (x >> rot) | (x << ((64u - rot) & 63u));
  }

  // Generator.random(): a double in [0, 1) from the draw's top 53 bits.
  double random() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  using Word = unsigned __int128;
  static constexpr Word kMultiplier = (Word{0x2360ED051FC65DA4ull} << 64) | 0x4385DF649FCCF645ull;
  void step() { state_ = state_ * kMultiplier + inc_; }
  Word state_ = 0;
  Word inc_ = 0;
};

}  // namespace layout_detail

// spring_layout(adjacency, n): node i's (x, y), adjacency the n x n matrix row-major (non-zero: an edge).
inline std::vector<std::array<double, 2>> spring_layout(const std::vector<std::uint8_t>& adjacency, int n) {
  constexpr int kIterations = 100;
  constexpr int kSeed = 42;
  const auto N = static_cast<std::size_t>(n);
  layout_detail::Pcg64 rng(kSeed);
  std::vector<std::array<double, 2>> pos(N);
  for (auto& p : pos) {
    for (double& v : p) v = rng.random() * 2 - 1;
  }
  const double k = std::sqrt(5.0 / n);
  double temperature = 2.0;
  std::vector<std::array<double, 2>> repulsive(N);
  std::vector<std::array<double, 2>> attractive(N);
  for (int round = 0; round < kIterations; ++round) {
    std::fill(repulsive.begin(), repulsive.end(), std::array<double, 2>{0.0, 0.0});
    std::fill(attractive.begin(), attractive.end(), std::array<double, 2>{0.0, 0.0});
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = i + 1; j < N; ++j) {
        const double dx = pos[i][0] - pos[j][0];
        const double dy = pos[i][1] - pos[j][1];
        const double distance = std::sqrt(dx * dx + dy * dy);
        const double force = k * k / (distance + 1e-6);
        const double fx = dx / (distance + 1e-6) * force;
        const double fy = dy / (distance + 1e-6) * force;
        repulsive[i][0] += fx;
        repulsive[i][1] += fy;
        repulsive[j][0] -= fx;
        repulsive[j][1] -= fy;
      }
    }
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < N; ++j) {
        if (adjacency[i * N + j] == 0) continue;
        const double dx = pos[i][0] - pos[j][0];
        const double dy = pos[i][1] - pos[j][1];
        const double distance = std::sqrt(dx * dx + dy * dy);
        const double force = distance * distance / k;
        const double fx = dx / (distance + 1e-6) * force;
        const double fy = dy / (distance + 1e-6) * force;
        attractive[i][0] -= fx;
        attractive[i][1] -= fy;
        attractive[j][0] += fx;
        attractive[j][1] += fy;
      }
    }
    for (std::size_t i = 0; i < N; ++i) {
      for (int d = 0; d < 2; ++d) {
        pos[i][d] = std::clamp(pos[i][d] + (repulsive[i][d] + attractive[i][d]) * temperature, -1.0, 1.0);
      }
    }
    temperature *= 0.9;
  }
  for (int d = 0; d < 2; ++d) {
    double low = pos[0][d];
    double high = pos[0][d];
    for (const auto& p : pos) {
      low = std::min(low, p[d]);
      high = std::max(high, p[d]);
    }
    for (auto& p : pos) p[d] = high > low ? 0.05 + (p[d] - low) / (1.1 * (high - low)) : 0.5;  // one node: centred
  }
  return pos;
}

}  // namespace rlpool::jumanji
