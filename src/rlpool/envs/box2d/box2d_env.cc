#include "envs/box2d/box2d_env.h"

#include <cmath>
#include <cstring>

namespace rlpool::box2d {
namespace {

thread_local std::string assert_message;

constexpr std::string_view kMagic = "rlpool-box2d-v1";

// Plain little-endian-as-stored fields, read back with bounds checks.
template <class T>
void put(std::string& out, const T& value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T get(const char* what) {
    T value;
    std::memcpy(&value, take(sizeof(T), what).data(), sizeof(T));
    return value;
  }
  std::string_view take(std::size_t n, const char* what) {
    if (bytes_.size() - pos_ < n) {
      throw std::invalid_argument(std::string("Box2D env state is truncated (in its ") + what + ")");
    }
    auto part = bytes_.substr(pos_, n);
    pos_ += n;
    return part;
  }
  std::size_t left() const { return bytes_.size() - pos_; }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

void note_assert(const char* message) { assert_message = message != nullptr ? message : "(no message)"; }

std::string take_assert_message() { return std::exchange(assert_message, std::string()); }

Box2dEnv::Box2dEnv(std::string config_key, const ArraySpec& action_spec)
    : config_key_(std::move(config_key)),
      action_spec_(action_spec),
      action_bytes_(action_spec.dtype == DType::kInt64 ? sizeof(std::int64_t)
                                                       : sizeof(double) * static_cast<std::size_t>(
                                                                              action_spec.num_elements())) {}

void Box2dEnv::begin(const std::array<std::uint64_t, 4>& words) {
  start_words_ = words;
  rng_.set_words(words);
  actions_.clear();
  started_ = true;
  guarded([&] { start_episode(rng_); });
}

void Box2dEnv::reset(Rng& rng, const Output& out) {
  begin({rng.next(), rng.next(), rng.next(), rng.next()});
  write(out, /*after_reset=*/true);
}

void Box2dEnv::advance(const Action& action, Rng& /*rng*/) {
  const auto* bytes = static_cast<const unsigned char*>(action.data);
  actions_.insert(actions_.end(), bytes, bytes + action_bytes_);
  guarded([&] { return advance_episode(action, rng_); });
}

void Box2dEnv::emit(const Output& out) { write(out, /*after_reset=*/false); }

void Box2dEnv::step(const Action& action, Rng& rng, const Output& out) {
  advance(action, rng);
  emit(out);
}

std::string Box2dEnv::get_state() const {
  if (!started_) throw std::logic_error("get_state before the first reset");
  std::string out;
  out.append(kMagic);
  put(out, static_cast<std::uint32_t>(config_key_.size()));
  out.append(config_key_);
  for (auto word : start_words_) put(out, word);
  put(out, static_cast<std::uint64_t>(actions_.size() / action_bytes_));
  out.append(reinterpret_cast<const char*>(actions_.data()), actions_.size());
  return out;
}

void Box2dEnv::check_logged_action(const Action& action, std::size_t step) const {
  const auto where = [&] { return "Box2D env state: the action of step " + std::to_string(step + 1); };
  if (action_spec_.dtype == DType::kInt64) {
    const auto a = action.discrete();
    if (a < static_cast<std::int64_t>(action_spec_.low[0]) || a > static_cast<std::int64_t>(action_spec_.high[0])) {
      throw std::invalid_argument(where() + " is " + std::to_string(a) + ", outside the action space");
    }
    return;
  }
  const double* a = action.continuous();
  for (std::int64_t i = 0; i < action_spec_.num_elements(); ++i) {
    if (!std::isfinite(a[i])) throw std::invalid_argument(where() + " is not finite");
  }
}

void Box2dEnv::set_state(std::string_view state) {
  Reader in(state);
  if (in.take(kMagic.size(), "header") != kMagic) {
    throw std::invalid_argument("not a Box2D env state (it does not start with '" + std::string(kMagic) + "')");
  }
  const auto key_size = in.get<std::uint32_t>("config");
  const auto key = in.take(key_size, "config");
  if (key != config_key_) {
    throw std::invalid_argument("Box2D env state is from an env made as '" + std::string(key) +
                                "', but this env is '" + config_key_ + "'");
  }
  std::array<std::uint64_t, 4> words{};
  for (auto& word : words) word = in.get<std::uint64_t>("generator");
  const auto steps = in.get<std::uint64_t>("step count");
  // Compared by division: steps * action_bytes_ can wrap around to the bytes left (a crafted count of
  // 2^61 + 3 with 8-byte actions), and the replay below would then read past the blob.
  if (in.left() % action_bytes_ != 0 || steps != in.left() / action_bytes_) {
    throw std::invalid_argument("Box2D env state holds " + std::to_string(in.left()) + " bytes of actions for " +
                                std::to_string(steps) + " steps of " + std::to_string(action_bytes_) + " bytes");
  }
  const std::string log(in.take(in.left(), "actions"));
  for (std::size_t k = 0; k < steps; ++k) check_logged_action(Action{log.data() + k * action_bytes_}, k);

  // Replay. A failure part-way (a step of a finished episode, an assertion
  // in Box2D) puts the env back where it was.
  const std::string before = started_ ? get_state() : std::string();
  try {
    begin(words);
    for (std::size_t k = 0; k < steps; ++k) {
      const Action action{log.data() + k * action_bytes_};
      actions_.insert(actions_.end(), log.begin() + static_cast<std::ptrdiff_t>(k * action_bytes_),
                      log.begin() + static_cast<std::ptrdiff_t>((k + 1) * action_bytes_));
      const bool over = guarded([&] { return advance_episode(action, rng_); });
      if (over && k + 1 < steps) {
        throw std::invalid_argument("Box2D env state replays past the end of its episode (it ends at step " +
                                    std::to_string(k + 1) + " of " + std::to_string(steps) + ")");
      }
    }
  } catch (...) {
    if (!before.empty()) set_state(before);
    throw;
  }
}

}  // namespace rlpool::box2d
