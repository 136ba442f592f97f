// NestedDict: an env whose dict observation nests one level, as
// gymnasium-robotics' goal envs' does ({"observation": ..., "desired_goal":
// {"a": ..., "b": ...}, ...}), and whose info has a hidden entry ("_distance")
// next to a shown one ("count"). It follows no upstream env: it exists to test
// how every face and API layer hands out nested observations and hidden info.
//
// Its observation entries are named by the option obs_names (a comma-separated
// list, "outer.inner" for an entry of a nested dict), so that tests can also
// declare names the engine refuses. Entry k has shape (k + 1,); element j of it
// is 1000 k + 10 j + start + t, where start is a uniform integer in [0, 99]
// drawn at reset and t the steps taken in the episode. The reward is the
// action; the episode terminates after episode_length steps.
//
// The action is Discrete(3) by default; the option action_sizes ("2,5,3")
// makes it a vector of choices with those sizes (gymnasium's MultiDiscrete),
// and the reward then sum_j action[j] * 10^j, so that a test sees each element
// arrive in its place.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "_core/env/env.h"

namespace rlpool::testing {

namespace {

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> names;
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = text.find(',', from);
    names.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) return names;
    from = comma + 1;
  }
}

// The sizes in action_sizes ("3" or "2,5,3"), each 1..1000, at most 8 of them.
std::vector<std::int64_t> action_sizes(const Config& config) {
  std::vector<std::int64_t> sizes;
  for (const std::string& word : split_names(config.get_string("action_sizes"))) {
    std::size_t used = 0;
    long long n = 0;
    try {
      n = std::stoll(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size() || word.empty() || n < 1 || n > 1000) {
      throw std::invalid_argument("option 'action_sizes' has '" + word + "': each size is an integer in 1..1000");
    }
    sizes.push_back(n);
  }
  if (sizes.size() > 8) throw std::invalid_argument("option 'action_sizes' names more than 8 sizes");
  return sizes;
}

}  // namespace

class NestedDict final : public Env {
 public:
  explicit NestedDict(const Config& config)
      : episode_length_(config.get_int_in("episode_length", 1, 1'000'000)),
        num_obs_(split_names(config.get_string("obs_names")).size()),
        num_choices_(action_sizes(config).size()),
        count_(info_index(spec_of(config).info, "count")),
        distance_(info_index(spec_of(config).info, "_distance")) {}

  static EnvSpec spec_of(const Config& config) {
    const std::vector<std::string> names = split_names(config.get_string("obs_names"));
    if (names.size() > 16) {
      throw std::invalid_argument("option 'obs_names' names " + std::to_string(names.size()) +
                                  " entries; at most 16");
    }
    EnvSpec spec;
    spec.obs_kind = ObsKind::kDict;
    for (std::size_t k = 0; k < names.size(); ++k) {
      spec.obs.push_back(ArraySpec{names[k], DType::kFloat64, {static_cast<std::int64_t>(k + 1)}, {}, {}});
    }
    const std::vector<std::int64_t> sizes = action_sizes(config);
    if (sizes.size() == 1) {
      spec.action = ArraySpec{"action", DType::kInt64, {}, {0}, {static_cast<double>(sizes[0] - 1)}};
    } else {
      std::vector<double> high;
      for (const std::int64_t n : sizes) high.push_back(static_cast<double>(n - 1));
      spec.action = ArraySpec{"action", DType::kInt64, {static_cast<std::int64_t>(sizes.size())}, {0}, high};
    }
    spec.info.push_back(ArraySpec{"count", DType::kInt32, {}, {}, {}});
    spec.info.push_back(ArraySpec{"_distance", DType::kFloat64, {}, {}, {}});
    return spec;
  }

  void reset(Rng& rng, const Output& out) override {
    state_ = State{0, static_cast<std::int64_t>(rng.integer(100))};
    write(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    state_.t += 1;
    double reward = 0.0;
    double scale = 1.0;
    for (std::size_t j = 0; j < num_choices_; ++j, scale *= 10.0) {
      reward += scale * static_cast<double>(action.discrete(j));
    }
    *out.reward = reward;
    *out.terminated = state_.t >= episode_length_;
    write(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override { load_pod_state(bytes, state_); }

 private:
  struct State {
    std::int64_t t;
    std::int64_t start;
  };

  void write(const Output& out) const {
    for (std::size_t k = 0; k < num_obs_; ++k) {
      double* entry = out.obs_as<double>(k);
      for (std::size_t j = 0; j <= k; ++j) {
        entry[j] = static_cast<double>(1000 * k + 10 * j) + static_cast<double>(state_.start + state_.t);
      }
    }
    *out.info_as<std::int32_t>(count_) = static_cast<std::int32_t>(state_.t);
    out.put_info(distance_, 0.5 * static_cast<double>(state_.t));
  }

  std::int64_t episode_length_;
  std::size_t num_obs_;
  std::size_t num_choices_;
  std::size_t count_;
  std::size_t distance_;
  State state_{};
};

static const bool kRegistered = register_env_type({
    .name = "NestedDict",
    .options = {{"episode_length", std::int64_t{5}, "steps until the episode terminates"},
                {"obs_names", std::string("observation,desired_goal.b,desired_goal.a,achieved_goal.b,achieved_goal.a"),
                 "the observation entries' names, comma-separated ('outer.inner': entry inner of a nested dict "
                 "outer); entry k has shape (k + 1,)"},
                {"action_sizes", std::string("3"),
                 "the action's sizes, comma-separated: one (Discrete) or several (MultiDiscrete, one choice of each "
                 "size)"}},
    .spec = NestedDict::spec_of,
    .create = make_env<NestedDict>(),
});

}  // namespace rlpool::testing
