// jax's PRNG in C++ (src/rlpool/_core/env/jax_random.h) on its own, without
// jax: the Threefry-2x32 known-answer vectors jax's own tests use, and values
// jax 0.10.2 drew from PRNGKey(0) and PRNGKey(42), plus the invariants of each
// sampler. tests/core/test_jax_random.py compares it with jax itself at length.
#include "_core/env/jax_random.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "check.h"

namespace jr = rlpool::jax_random;

namespace {

std::vector<std::uint32_t> float_bits(const std::vector<float>& v) {
  std::vector<std::uint32_t> out;
  for (float f : v) out.push_back(std::bit_cast<std::uint32_t>(f));
  return out;
}

void threefry_known_answers() {
  using P = std::pair<std::uint32_t, std::uint32_t>;
  CHECK(jr::threefry2x32({0x13198a2e, 0x03707344}, 0x243f6a88, 0x85a308d3) == P(0xc4923a9c, 0x483df7a0));
  CHECK(jr::threefry2x32({0, 0}, 0, 0) == P(0x6b200159, 0x99ba4efe));
  CHECK(jr::threefry2x32({0xffffffff, 0xffffffff}, 0xffffffff, 0xffffffff) == P(0x1cb996fc, 0xbb002be7));
  static_assert(jr::threefry2x32({0, 0}, 0, 0).first == 0x6b200159);
}

void seeds_as_jax_makes_them() {
  CHECK(jr::prng_key(0) == (jr::Key{0, 0}));
  CHECK(jr::prng_key(42) == (jr::Key{0, 42}));
  CHECK(jr::prng_key(-1) == (jr::Key{0, 0xffffffff}));  // x64 off: the seed is cast to int32
  CHECK(jr::prng_key(std::int64_t{1} << 32) == (jr::Key{0, 0}));  // only the low 32 bits count
  CHECK(jr::prng_key_x64((std::int64_t{1} << 40) + 3) == (jr::Key{256, 3}));
  CHECK(jr::prng_key_x64(-1) == (jr::Key{0xffffffff, 0xffffffff}));
}

void split_fold_in_and_bits() {
  const jr::Key k0 = jr::prng_key(0);
  const auto split = jr::split(k0);
  CHECK(split[0] == (jr::Key{1797259609u, 2579123966u}));
  CHECK(split[1] == (jr::Key{928981903u, 3453687069u}));
  const auto original = jr::split(k0, 2, jr::Layout::kOriginal);
  CHECK(original[0] == (jr::Key{4146024105u, 967050713u}));
  CHECK(original[1] == (jr::Key{2718843009u, 1272950319u}));
  const auto s42 = jr::split(jr::prng_key(42));
  CHECK(s42[0] == (jr::Key{1832780943u, 270669613u}));
  CHECK(s42[1] == (jr::Key{64467757u, 2916123636u}));
  CHECK(jr::split2(k0).first == split[0]);
  CHECK(jr::fold_in(k0, 0xffffffffu) == (jr::Key{743310391u, 3789761811u}));
  CHECK(jr::random_bits<std::uint32_t>(k0, 6) ==
        (std::vector<std::uint32_t>{4070199207u, 4202968722u, 1427181096u, 2012915765u, 2447653815u, 710830403u}));
  CHECK(jr::random_bits<std::uint32_t>(k0, 6, jr::Layout::kOriginal) ==
        (std::vector<std::uint32_t>{2467461003u, 428148500u, 3186719485u, 3840466878u, 2562233961u, 1946702221u}));
  // Partitionable: element i does not depend on how many are drawn.
  const auto many = jr::random_bits<std::uint32_t>(k0, 1000);
  CHECK(std::equal(many.begin(), many.begin() + 6, jr::random_bits<std::uint32_t>(k0, 6).begin()));
}

void samplers_match_jax_on_key_zero() {
  const jr::Key k0 = jr::prng_key(0);
  CHECK(float_bits(jr::uniform(k0, 3)) == (std::vector<std::uint32_t>{1064475214u, 1064993846u, 1051337244u}));
  std::vector<float> normal(3), gumbel(3);
  jr::normal(k0, normal.data(), 3);
  jr::gumbel(k0, gumbel.data(), 3);
  CHECK(float_bits(normal) == (std::vector<std::uint32_t>{1070576317u, 1073847792u, 3202220055u}));
  CHECK(float_bits(gumbel) == (std::vector<std::uint32_t>{1077614729u, 1081428380u, 3183898615u}));
  CHECK(jr::randint(k0, 5, 0, 10) == (std::vector<std::int32_t>{9, 0, 2, 3, 1}));
  CHECK(jr::permutation(k0, 10) == (std::vector<std::int32_t>{0, 1, 8, 5, 6, 4, 3, 2, 7, 9}));
  auto bern = std::make_unique<bool[]>(8);
  jr::bernoulli(k0, bern.get(), 8, 0.5f);
  const bool want[8] = {false, false, true, true, false, true, true, false};
  CHECK(std::equal(bern.get(), bern.get() + 8, want));
  const float logits[4] = {0.0f, 1.0f, 2.0f, 3.0f};
  std::vector<std::int32_t> cat(6);
  jr::categorical(k0, cat.data(), logits, 1, 4, 6);
  CHECK(cat == (std::vector<std::int32_t>{1, 3, 2, 3, 2, 3}));
}

void randint_bounds() {
  const jr::Key k = jr::prng_key(7);
  for (std::int32_t v : jr::randint(k, 200, 5, 5)) CHECK_EQ(v, 5);  // empty range: minval
  for (std::int32_t v : jr::randint(k, 200, 9, 3)) CHECK_EQ(v, 9);  // reversed: minval
  for (std::int32_t v : jr::randint(k, 500, -3, 4)) CHECK(v >= -3 && v < 4);
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  const auto full = jr::randint(k, 500, kMin, kMax);
  CHECK(*std::min_element(full.begin(), full.end()) < -1'000'000'000);
  CHECK(*std::max_element(full.begin(), full.end()) > 1'000'000'000);
  // Bounds past int32 are clipped (as jax does for 64-bit bounds), maxval past the top widening the span by one.
  const auto wide = jr::randint(k, 500, -(std::int64_t{1} << 40), std::int64_t{1} << 40);
  CHECK(*std::min_element(wide.begin(), wide.end()) < 0 && *std::max_element(wide.begin(), wide.end()) > 0);
  for (std::int32_t v : jr::randint(k, 500, kMax, std::int64_t{1} << 31)) CHECK_EQ(v, kMax);
}

void uniform_and_shuffle_invariants() {
  const jr::Key k = jr::prng_key(3);
  for (float v : jr::uniform(k, 1000, -2.0f, 3.0f)) CHECK(v >= -2.0f && v < 3.0f);
  for (float v : jr::uniform(k, 10, 0.0f, 1e-38f)) CHECK_EQ(std::bit_cast<std::uint32_t>(v), 0u);  // flushed
  const auto perm = jr::permutation(k, 2000);  // two sort rounds
  std::vector<std::int32_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) CHECK_EQ(sorted[i], static_cast<std::int32_t>(i));
  CHECK_EQ(jr::shuffle_rounds(1), 0);
  CHECK_EQ(jr::shuffle_rounds(1625), 1);
  CHECK_EQ(jr::shuffle_rounds(1626), 2);
  std::vector<int> rows = {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32};  // 4 rows of 3
  jr::shuffle_rows(k, rows.data(), 4, 3);
  const auto p4 = jr::permutation(k, 4);
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t c = 0; c < 3; ++c) CHECK_EQ(rows[r * 3 + c], p4[r] * 10 + static_cast<int>(c));
  }
  std::vector<std::int32_t> picked(5);
  jr::choice_no_replace(k, picked.data(), 5, 300);
  CHECK(std::equal(picked.begin(), picked.end(), jr::permutation(k, 300).begin()));
}

void xla_log_is_a_log() {
  namespace d = jr::detail;
  CHECK_EQ(d::xla_log(1.0f), 0.0f);
  CHECK(std::isinf(d::xla_log(0.0f)) && d::xla_log(0.0f) < 0);
  CHECK(std::isnan(d::xla_log(-1.0f)));
  CHECK(std::isinf(d::xla_log(std::numeric_limits<float>::infinity())));
  for (float x = 1e-30f; x < 1e30f; x *= 1.37f) {
    CHECK(std::fabs(d::xla_log(x) - std::log(x)) <= 2e-7f * std::max(1.0f, std::fabs(std::log(x))));
  }
  for (float t = -0.9f; t < 3.0f; t += 0.013f) {
    CHECK(std::fabs(d::xla_log1p(t) - std::log1p(t)) <= 4e-7f * std::max(1.0f, std::fabs(std::log1p(t))));
  }
  CHECK(std::isinf(jr::erf_inv(1.0f)) && std::isinf(jr::erf_inv(-1.0f)));
  CHECK(std::fabs(jr::erf_inv(0.5f) - 0.4769362762f) < 1e-6f);
}

}  // namespace

int main() {
  RUN(threefry_known_answers);
  RUN(seeds_as_jax_makes_them);
  RUN(split_fold_in_and_bits);
  RUN(samplers_match_jax_on_key_zero);
  RUN(randint_bounds);
  RUN(uniform_and_shuffle_invariants);
  RUN(xla_log_is_a_log);
  return check::report();
}
