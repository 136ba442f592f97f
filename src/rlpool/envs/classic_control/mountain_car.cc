// MountainCar with discrete actions, matching gymnasium 1.4 MountainCarEnv.
#include <algorithm>
#include <array>
#include <cmath>

#include "_core/env/env.h"
#include "envs/classic_control/mountain_car.h"

namespace rlpool::classic_control {
namespace {

using mountain_car::kMaxPosition;
using mountain_car::kMaxSpeed;
using mountain_car::kMinPosition;
constexpr double kGoalPosition = 0.5;
constexpr double kForce = 0.001;
constexpr double kGravity = 0.0025;

// np.clip(x, lo, hi) == minimum(maximum(x, lo), hi).
double clip(double x, double lo, double hi) { return std::min(std::max(x, lo), hi); }

class MountainCar final : public Env {
 public:
  explicit MountainCar(const Config& config) : goal_velocity_(config.get_finite("goal_velocity")) {}

  void reset(Rng& rng, const Output& out) override {
    state_ = {rng.uniform(-0.6, -0.4), 0.0};
    write_obs(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    auto& [position, velocity] = state_;
    // gymnasium: velocity += (action - 1) * force + cos(3 * position) * (-gravity)
    velocity = velocity + (static_cast<double>(action.discrete() - 1) * kForce +
                           std::cos(3 * position) * (-kGravity));
    velocity = clip(velocity, -kMaxSpeed, kMaxSpeed);
    position = position + velocity;
    position = clip(position, kMinPosition, kMaxPosition);
    // The left wall is inelastic.
    if (position == kMinPosition && velocity < 0) velocity = 0.0;

    *out.terminated = position >= kGoalPosition && velocity >= goal_velocity_;
    *out.reward = -1.0;
    write_obs(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override { load_finite_state(bytes, state_); }

  void render(const Frame& frame) override {
    mountain_car::render(frame, state_[0], kMinPosition, kMaxPosition, kGoalPosition);
  }

 private:
  void write_obs(const Output& out) const {
    auto* obs = out.obs_as<float>();
    obs[0] = static_cast<float>(state_[0]);
    obs[1] = static_cast<float>(state_[1]);
  }

  double goal_velocity_;
  std::array<double, 2> state_{};  // position, velocity (gymnasium's layout)
};

EnvSpec make_spec(const Config& config) {
  return mountain_car::make_spec(
      config, ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {2}});
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "MountainCar",
    .options = {{"goal_velocity", 0.0, "Minimum velocity at the goal position for the episode to terminate."}},
    .spec = make_spec,
    .create = make_env<MountainCar>(),
});

}  // namespace rlpool::classic_control
