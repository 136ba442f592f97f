// seed_of (src/rlpool/_core/env/rng_seed.h): the seed an Rng was given comes
// back while it has drawn nothing, not after a draw, and again after a reseed
// with the same seed.
#include "_core/env/rng_seed.h"

#include <cstdint>
#include <initializer_list>

#include "check.h"

using namespace rlpool;

namespace {

void the_seed_comes_back_until_a_draw() {
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, 12345678901ULL, 0x9E3779B97F4A7C15ULL, ~0ULL}) {
    Rng rng(seed);
    CHECK(seed_of(rng).has_value());
    CHECK_EQ(*seed_of(rng), seed);
    rng.next();
    CHECK(!seed_of(rng).has_value());
    rng.seed_with(seed);  // the same seed again: seen as a reseed
    CHECK_EQ(seed_of(rng).value_or(seed + 1), seed);
  }
}

void other_words_are_no_seed() {
  Rng rng(7);
  auto words = rng.words();
  words[3] ^= 1;  // one bit off in a word the seed does not come from
  rng.set_words(words);
  CHECK(!seed_of(rng).has_value());
}

}  // namespace

int main() {
  RUN(the_seed_comes_back_until_a_draw);
  RUN(other_words_are_no_seed);
  return check::report();
}
