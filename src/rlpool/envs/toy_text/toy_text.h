// Shared helpers of the toy-text envs (header only; each env is its own .cc).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "_core/env/env.h"

namespace rlpool::toy_text {

// The first index whose running sum of `probs` exceeds `u`, else 0: exactly
// gymnasium's categorical_sample (argmax(cumsum(p) > u)), so rounding at the
// edges of each interval falls the same way.
template <std::size_t N>
std::size_t categorical(const double (&probs)[N], std::size_t n, double u) {
  double cumulative = 0.0;
  for (std::size_t i = 0; i < n && i < N; ++i) {
    cumulative += probs[i];
    if (cumulative > u) return i;
  }
  return 0;
}

// A Discrete obs / action: an int64 scalar in [0, n - 1].
inline ArraySpec discrete(std::string name, std::int64_t n) {
  return ArraySpec{.name = std::move(name), .dtype = DType::kInt64, .shape = {}, .low = {0},
                   .high = {static_cast<double>(n - 1)}};
}

// gymnasium's info["prob"]: the probability of the transition taken.
inline ArraySpec prob_info() {
  return ArraySpec{.name = "prob", .dtype = DType::kFloat64, .shape = {}, .low = {}, .high = {}};
}

// State snapshot of a single discrete state index, checked against the state count.
inline std::int64_t load_index_state(std::string_view bytes, std::int64_t num_states) {
  std::int64_t s = 0;
  load_pod_state(bytes, s);
  if (s < 0 || s >= num_states) {
    throw std::invalid_argument("state " + std::to_string(s) + " is out of range [0, " +
                                std::to_string(num_states - 1) + "]");
  }
  return s;
}

}  // namespace rlpool::toy_text
