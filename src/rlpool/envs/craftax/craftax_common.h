// What Craftax-Classic's and full Craftax's envs (craftax_env.cc,
// full_env.cc) share: the texture file loaded once per process, the info
// entries of craftax's envs/common.py log_achievements_to_info, the frame
// render() draws, and the keys of an env as EnvPool 1.2.7 keys craftax's envs
// (craftax_env.cc's header says how; environment_base/environment_bases.py
// EnvironmentAutoReset.step l.19-45 for auto_reset).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"
#include "_core/env/jax_random.h"
#include "_core/env/rng_seed.h"

namespace rlpool::craftax {

constexpr std::int64_t kInt32Max = 2147483647;

// The textures in `path`, loaded by `load` once per process and shared by the
// envs; T is a game's Textures, `game` names the game in the error.
template <typename T>
std::shared_ptr<const T> shared_textures(const std::string& path, std::string_view game,
                                         T (*load)(const std::string&)) {
  if (path.empty()) {
    throw std::invalid_argument(std::string(game) +
                                "'s pixels need craftax's textures: the option _textures_file is empty");
  }
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const T>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[path];
  if (!slot) slot = std::make_shared<const T>(load(path));
  return slot;
}

// The info: Achievements/<name> (float32, achievement * done * 100) for each
// name in craftax's Achievement order, then score (Classic's only) and
// discount (0 when done, else 1).
inline std::vector<ArraySpec> info_spec(std::span<const std::string_view> achievements, bool with_score) {
  std::vector<ArraySpec> info;
  for (const std::string_view name : achievements) {
    info.push_back(ArraySpec{.name = "Achievements/" + std::string(name), .dtype = DType::kFloat32, .shape = {},
                             .low = {0.0}, .high = {100.0}});
  }
  if (with_score) {
    info.push_back(ArraySpec{.name = "score", .dtype = DType::kFloat32, .shape = {}, .low = {0.0}, .high = {100.0}});
  }
  info.push_back(ArraySpec{.name = "discount", .dtype = DType::kFloat32, .shape = {}, .low = {0.0}, .high = {1.0}});
  return info;
}

// render()'s frame (uint8 RGB) from a pixel observation: x * 255, rounded.
inline void to_frame(const std::vector<float>& pixels, std::uint8_t* rgb) {
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    rgb[i] = static_cast<std::uint8_t>(std::lround(std::clamp(pixels[i], 0.0f, 1.0f) * 255.0f));
  }
}

// An env's JAX keys, as EnvPool 1.2.7 keys env i of a pool seeded with s:
// the first reset is reset_env(PRNGKey(s + i)) and that key is the env's
// key; a step takes key, k = split(key); a reset without a new seed does the
// same. With auto_reset a step steps with split(k)[0] and keeps split(k)[1]
// for the reset that follows an ended episode.
class EnvKeys {
 public:
  // The key of a reset (the engine seeds env i's Rng with s + i; seed_of
  // reads a new seed back, and marking it taken lets a later reseed show).
  // `ended`: the last step ended the episode (the game's end or the time limit).
  jax_random::Key for_reset(Rng& rng, bool auto_reset, bool ended) {
    jax_random::Key k;
    if (const std::optional<std::uint64_t> seed = seed_of(rng)) {
      key_ = jax_random::prng_key(static_cast<std::int64_t>(*seed));  // PRNGKey(seed): the reset's and the env's
      k = key_;
      rng.next();
    } else if (auto_reset && reset_key_ && ended) {
      k = *reset_key_;  // EnvironmentAutoReset.step's reset key of the ending step
    } else {
      auto [next, sub] = jax_random::split2(key_);
      key_ = next;
      k = sub;
    }
    reset_key_.reset();
    return k;
  }

  // The key a step's game logic takes.
  jax_random::Key for_step(bool auto_reset) {
    auto [next, k] = jax_random::split2(key_);
    key_ = next;
    if (auto_reset) {
      auto [step_key, reset_key] = jax_random::split2(k);
      reset_key_ = reset_key;
      return step_key;
    }
    return k;
  }

  // The key as a saved state ends: two little-endian uint32.
  static constexpr std::size_t kBytes = 2 * sizeof(std::uint32_t);
  void append_to(std::string& bytes) const {
    const std::array<std::uint32_t, 2> words = {key_.hi, key_.lo};
    bytes.append(reinterpret_cast<const char*>(words.data()), sizeof(words));
  }
  // The key from the last kBytes of a saved state (its size checked by the caller).
  void read_from(std::string_view bytes) {
    std::array<std::uint32_t, 2> words{};
    std::memcpy(words.data(), bytes.data() + bytes.size() - kBytes, kBytes);
    key_ = jax_random::Key{words[0], words[1]};
    reset_key_.reset();
  }

 private:
  jax_random::Key key_{};
  std::optional<jax_random::Key> reset_key_;  // auto_reset: split(k)[1] of the last step
};

}  // namespace rlpool::craftax
