// BusyWork: an env whose action says how many microseconds of CPU work its
// step costs. It exists to test and measure the engine itself (threading,
// completion order, hand-off costs) with controllable, uneven step costs.
#include <chrono>

#include "env.h"

namespace rlpool::testing {

class BusyWork final : public Env {
 public:
  explicit BusyWork(const Config& config) : episode_length_(config.get_int("episode_length")) {}

  void reset(Rng& rng, const Output& out) override {
    state_ = State{0, static_cast<double>(rng.integer(1000))};
    write(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const auto micros = action.discrete();
    // Spin rather than sleep: the point is to occupy a core like real env work.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
    while (std::chrono::steady_clock::now() < until) {
    }
    state_.count += 1;
    state_.value = state_.value * 0.5 + static_cast<double>(micros);
    *out.reward = static_cast<double>(micros);
    *out.terminated = state_.count >= episode_length_;
    write(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override { load_pod_state(bytes, state_); }

 private:
  struct State {
    std::int64_t count;
    double value;
  };
  void write(const Output& out) const {
    double* obs = out.obs_as<double>();
    obs[0] = static_cast<double>(state_.count);
    obs[1] = state_.value;
  }
  std::int64_t episode_length_;
  State state_{};
};

static const bool kRegistered = register_env_type({
    .name = "BusyWork",
    .options = {{"episode_length", std::int64_t{20}, "steps until the episode terminates"}},
    .spec =
        [](const Config&) {
          EnvSpec spec;
          spec.obs.push_back(ArraySpec{"obs", DType::kFloat64, {2}, {}, {}});
          spec.action = ArraySpec{"action", DType::kInt64, {}, {0}, {100000}};
          return spec;
        },
    .create = [](const Config& config) { return std::make_unique<BusyWork>(config); },
});

}  // namespace rlpool::testing
