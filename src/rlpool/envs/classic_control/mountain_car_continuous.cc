// MountainCar with a continuous action, matching gymnasium 1.4 Continuous_MountainCarEnv.
//
// gymnasium stores the state as a float32 array after every step (but float64
// after reset) and numpy 2 keeps float32 scalars float32 when they meet Python
// floats, converting the Python float to float32 first (NEP 50). The action is
// taken as gymnasium's float32 action space would hold it. To be bitwise equal
// we track, per value, whether numpy would hold it as a float32 scalar.
#include <array>
#include <cmath>

#include "_core/env/env.h"
#include "envs/classic_control/mountain_car.h"

namespace rlpool::classic_control {
namespace {

constexpr double kMinAction = -1.0;
constexpr double kMaxAction = 1.0;
using mountain_car::kMaxPosition;
using mountain_car::kMaxSpeed;
using mountain_car::kMinPosition;
constexpr double kGoalPosition = 0.45;
constexpr double kPower = 0.0015;

bool is_f32(double x) { return f32(x) == x; }
// Comparisons of a numpy scalar (float32 if `x_f32`) with a Python float.
bool gt(double x, bool x_f32, double c) { return x > (x_f32 ? f32(c) : c); }
bool lt(double x, bool x_f32, double c) { return x < (x_f32 ? f32(c) : c); }
bool ge(double x, bool x_f32, double c) { return x >= (x_f32 ? f32(c) : c); }
bool eq(double x, bool x_f32, double c) { return x == (x_f32 ? f32(c) : c); }

class MountainCarContinuous final : public Env {
 public:
  explicit MountainCarContinuous(const Config& config) : goal_velocity_(config.get_finite("goal_velocity")) {}

  void reset(Rng& rng, const Output& out) override {
    state_ = {rng.uniform(-0.6, -0.4), 0.0};
    state_is_f32_ = false;  // np.array([uniform, 0]) is float64
    write_obs(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    double position = state_[0], velocity = state_[1];
    bool pos_f32 = state_is_f32_, vel_f32 = state_is_f32_;
    const double a = f32(action.continuous()[0]);

    // force = min(max(action[0], min_action), max_action): stays float32 unless a bound wins.
    double force = a;
    bool force_f32 = true;
    if (kMinAction > force) {
      force = kMinAction;
      force_f32 = false;
    }
    if (kMaxAction < force) {
      force = kMaxAction;
      force_f32 = false;
    }

    // velocity += force * power - 0.0025 * math.cos(3 * position). The float32
    // case subtracts in float, as numpy does (the same bits as the double
    // difference rounded to float: double has more than 2 * 24 + 2 bits).
    const double cos_term = 0.0025 * std::cos(pos_f32 ? f32(3 * position) : 3 * position);
    const double dv = force_f32 ? f32(f32(force * f32(kPower)) - f32(cos_term)) : force * kPower - cos_term;
    // A float32 velocity absorbs dv as float32 whether dv is float32 or a Python float.
    velocity = vel_f32 ? f32(velocity + f32(dv)) : velocity + dv;

    if (gt(velocity, vel_f32, kMaxSpeed)) {
      velocity = kMaxSpeed;
      vel_f32 = false;
    }
    if (lt(velocity, vel_f32, -kMaxSpeed)) {
      velocity = -kMaxSpeed;
      vel_f32 = false;
    }
    position = pos_f32 ? f32(position + f32(velocity)) : position + velocity;
    if (gt(position, pos_f32, kMaxPosition)) {
      position = kMaxPosition;
      pos_f32 = false;
    }
    if (lt(position, pos_f32, kMinPosition)) {
      position = kMinPosition;
      pos_f32 = false;
    }
    if (eq(position, pos_f32, kMinPosition) && velocity < 0) {
      velocity = 0.0;
      vel_f32 = false;
    }

    const bool terminated = ge(position, pos_f32, kGoalPosition) && ge(velocity, vel_f32, goal_velocity_);
    // Reward uses the unclipped action; math.pow(a, 2) is exact (== a * a) for a float32 a.
    *out.reward = (terminated ? 100.0 : 0.0) - a * a * 0.1;
    *out.terminated = terminated;

    state_ = {f32(position), f32(velocity)};  // np.array([...], dtype=np.float32)
    state_is_f32_ = true;
    write_obs(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override {
    load_finite_state(bytes, state_);
    // gymnasium's state is float32 after any step; a float64 state (after reset)
    // has a position that is almost surely not a float32 value.
    state_is_f32_ = is_f32(state_[0]) && is_f32(state_[1]);
  }

  void render(const Frame& frame) override {
    if (state_is_f32_) {
      mountain_car::render(frame, f32(state_[0]), kMinPosition, kMaxPosition, kGoalPosition);
    } else {
      mountain_car::render(frame, state_[0], kMinPosition, kMaxPosition, kGoalPosition);
    }
  }

 private:
  void write_obs(const Output& out) const {
    auto* obs = out.obs_as<float>();
    obs[0] = static_cast<float>(state_[0]);
    obs[1] = static_cast<float>(state_[1]);
  }

  double goal_velocity_;
  std::array<double, 2> state_{};  // position, velocity (gymnasium's layout)
  bool state_is_f32_ = false;      // whether gymnasium would hold state_ as float32
};

EnvSpec make_spec(const Config& config) {
  return mountain_car::make_spec(config, ArraySpec{.name = "action",
                                                   .dtype = DType::kFloat32,
                                                   .shape = {1},
                                                   .low = {kMinAction},
                                                   .high = {kMaxAction}});
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "MountainCarContinuous",
    .options = {{"goal_velocity", 0.0, "Minimum velocity at the goal position for the episode to terminate."}},
    .spec = make_spec,
    .create = make_env<MountainCarContinuous>(),
});

}  // namespace rlpool::classic_control
