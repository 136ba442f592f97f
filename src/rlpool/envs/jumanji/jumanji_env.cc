// JumanjiEnv (jumanji_env.h): the keys of jumanji's reset, its TimeStep's
// flags, and the key in front of a game's saved bytes; the helpers for the
// games' saved bytes and the routing envs' distance.
#include "envs/jumanji/jumanji_env.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "_core/env/rng_seed.h"

namespace rlpool::jumanji {

namespace {

constexpr std::size_t kKeyBytes = 2 * sizeof(std::uint32_t);

}  // namespace

void check_range(long long value, long long low, long long high, const char* field) {
  if (value < low || value > high) {
    throw std::invalid_argument(std::string("state's ") + field + " is " + std::to_string(value) + ", expected " +
                                std::to_string(low) + ".." + std::to_string(high));
  }
}

void StateReader::read(void* dst, std::size_t size, const char* field) {
  if (bytes_.size() - at_ < size) {
    throw std::invalid_argument(std::string(what_) + " state ends before its " + field + " (" +
                                std::to_string(bytes_.size()) + " bytes)");
  }
  std::memcpy(dst, bytes_.data() + at_, size);
  at_ += size;
}

void StateReader::done() const {
  if (at_ != bytes_.size()) {
    throw std::invalid_argument(std::string(what_) + " state has " + std::to_string(bytes_.size()) +
                                " bytes, expected " + std::to_string(at_));
  }
}

void append_key(std::string& bytes, const Key& key) {
  append(bytes, key.hi);
  append(bytes, key.lo);
}

Key read_key(StateReader& reader) {
  const auto hi = reader.read<std::uint32_t>("key");
  const auto lo = reader.read<std::uint32_t>("key");
  return Key{hi, lo};
}

void check_unit_interval(const std::vector<float>& values, const char* field) {
  for (const float v : values) {
    if (!(v >= 0.0f && v <= 1.0f)) {
      throw std::invalid_argument(std::string("state's ") + field + " hold " + std::to_string(v) + ", expected 0..1");
    }
  }
}

float planar_distance(const float* p, const float* q) {
  const float dx = p[0] - q[0];
  const float dy = p[1] - q[1];
  const float dy2 = dy * dy;
  return std::sqrt(std::fma(dx, dx, dy2));
}

ArraySpec agents_action(std::int64_t agents, int actions) {
  const auto n = static_cast<std::size_t>(agents);
  return ArraySpec{.name = "action",
                   .dtype = DType::kInt64,
                   .shape = {agents},
                   .low = std::vector<double>(n, 0.0),
                   .high = std::vector<double>(n, actions - 1.0)};
}

void JumanjiEnv::reset(Rng& rng, const Output& out) {
  Key k;
  if (const std::optional<std::uint64_t> seed = seed_of(rng)) {
    // A new seed: PRNGKey(seed) is both this reset's key and the env's.
    key_ = jax_random::prng_key(static_cast<std::int64_t>(*seed));
    k = key_;
    rng.next();  // marks the seed as taken: a later reseed shows again
  } else {
    auto [next, sub] = jax_random::split2(key_);
    key_ = next;
    k = sub;
  }
  new_episode(k);
  observe(out);
}

void JumanjiEnv::step(const Action& action, Rng& /*rng*/, const Output& out) {
  // The game writes its rewards straight into the row (one per agent): no buffer on the step's path.
  std::fill_n(out.reward, agents_, 0.0);
  const Outcome outcome = play(action, out.reward);
  for (int i = 0; i < agents_; ++i) {
    out.terminated[i] = outcome.terminated;
    if (out.truncated != nullptr) out.truncated[i] = outcome.truncated && !outcome.terminated;
  }
  observe(out);
}

std::string JumanjiEnv::get_state() const {
  std::string bytes;
  const std::array<std::uint32_t, 2> words = {key_.hi, key_.lo};
  append(bytes, words.data(), kKeyBytes);
  bytes += save();
  return bytes;
}

void JumanjiEnv::set_state(std::string_view bytes) {
  if (bytes.size() < kKeyBytes) {
    throw std::invalid_argument("a Jumanji state starts with the env's key (8 bytes), got " +
                                std::to_string(bytes.size()) + " bytes");
  }
  load(bytes.substr(kKeyBytes));  // checks every field; throws before anything changes
  std::array<std::uint32_t, 2> words{};
  std::memcpy(words.data(), bytes.data(), kKeyBytes);
  key_ = Key{words[0], words[1]};
}

}  // namespace rlpool::jumanji
