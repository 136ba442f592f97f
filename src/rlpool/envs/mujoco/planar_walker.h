// Hopper and Walker2d, as gymnasium 1.4's hopper_v4.py / hopper_v5.py and
// walker2d_v4.py / walker2d_v5.py: a body in the x-z plane, rewarded for
// moving forward while its torso's height and angle stay in range. Reward,
// observation and info are the same for both, so they live here once; each
// task's file keeps what differs (its defaults, and Hopper's extra health
// check on the rest of the state).
#pragma once

#include <optional>

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {

class PlanarWalker : public MujocoEnv {
 public:
  // `task` names the model in errors.
  PlanarWalker(const Config& c, bool v5, const char* task);

  void reset(Rng& rng, const Output& out) override;
  void step(const Action& action, Rng& rng, const Output& out) override;

  // The options both tasks take, checked; the spec reads them too, so that
  // make_spec refuses bad ones.
  struct Params {
    double forward_reward_weight, ctrl_cost_weight, healthy_reward;
    bool terminate_when_unhealthy;
    double healthy_z_min, healthy_z_max, healthy_angle_min, healthy_angle_max, reset_noise_scale;
    bool exclude_positions;
    explicit Params(const Config& c);
  };

 protected:
  // The torso's height qpos[1] and angle qpos[2] strictly inside their
  // ranges (NaN is unhealthy). Hopper adds its own check.
  virtual bool is_healthy() const;

 private:
  // Positions of the info entries; v5 adds the last four.
  struct Info {
    std::size_t x_position, x_velocity;
    std::optional<std::size_t> z_distance_from_origin, reward_forward, reward_ctrl, reward_survive;
    explicit Info(const EnvSpec& spec);
  };

  void write(const Output& out, double x_velocity, double forward, double ctrl_cost, double survive) const;

  const bool v5_;
  const Params p_;
  const Info info_;
};

// The spec of either task; `task` names the model in errors.
EnvSpec planar_spec(const mjModel* m, const Config& c, bool v5, const char* task);

}  // namespace rlpool::mujoco
