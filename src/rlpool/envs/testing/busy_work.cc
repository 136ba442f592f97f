// BusyWork: an env whose action says how many microseconds of CPU work its
// step costs. It exists to test and measure the engine itself (threading,
// completion order, hand-off costs) with controllable, uneven step costs.
#include <chrono>
#include <stdexcept>
#include <string>

#include "_core/env/env.h"

namespace rlpool::testing {

class BusyWork final : public Env {
 public:
  explicit BusyWork(const Config& config)
      : episode_length_(config.get_int("episode_length")),
        two_phase_(config.get_bool("two_phase")),
        fail_on_action_(config.get_int("fail_on_action")) {}

  void reset(Rng& rng, const Output& out) override {
    state_ = State{0, static_cast<double>(rng.integer(1000))};
    write(out);
  }

  bool two_phase() const override { return two_phase_; }

  void step(const Action& action, Rng& rng, const Output& out) override {
    advance(action, rng);
    emit(out);
  }

  void advance(const Action& action, Rng& /*rng*/) override {
    const auto micros = action.discrete();
    if (micros == fail_on_action_) throw std::runtime_error("BusyWork: action " + std::to_string(micros) + " fails");
    // Spin rather than sleep: the point is to occupy a core like real env work.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
    while (std::chrono::steady_clock::now() < until) {
    }
    state_.count += 1;
    state_.value = state_.value * 0.5 + static_cast<double>(micros);
    last_micros_ = micros;
  }

  void emit(const Output& out) override {
    *out.reward = static_cast<double>(last_micros_);
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
  bool two_phase_;
  std::int64_t fail_on_action_;
  State state_{};
  std::int64_t last_micros_ = 0;  // advance() -> emit()
};

static const bool kRegistered = register_env_type({
    .name = "BusyWork",
    .options = {{"episode_length", std::int64_t{20}, "steps until the episode terminates"},
                {"two_phase", false, "step in two phases (Env::two_phase), as Atari does"},
                {"fail_on_action", std::int64_t{-1}, "this action makes the step throw (-1: none)"}},
    .spec =
        [](const Config&) {
          EnvSpec spec;
          spec.obs.push_back(ArraySpec{"obs", DType::kFloat64, {2}, {}, {}});
          spec.action = ArraySpec{"action", DType::kInt64, {}, {0}, {100000}};
          return spec;
        },
    .create = make_env<BusyWork>(),
});

}  // namespace rlpool::testing
