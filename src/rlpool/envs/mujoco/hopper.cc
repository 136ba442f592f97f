// Hopper-v4 and Hopper-v5, as gymnasium 1.4's hopper_v4.py / hopper_v5.py
// (the rest is planar_walker.h's, shared with Walker2d).
#include "envs/mujoco/planar_walker.h"

namespace rlpool::mujoco {
namespace {

class Hopper final : public PlanarWalker {
 public:
  Hopper(const Config& c, bool v5)
      : PlanarWalker(c, v5, "Hopper"),
        healthy_state_min_(c.get_bound("healthy_state_min")),
        healthy_state_max_(c.get_bound("healthy_state_max")) {
    camera_config_ = {.distance = 3.0, .elevation = -20.0, .azimuth = {}, .lookat = {{0.0, 0.0, 1.15}}};  // gymnasium's
  }

 private:
  bool is_healthy() const override {
    // Hopper also bounds (qpos, qvel)[2:], strictly; NaN is unhealthy.
    for (int i = 2; i < m_->nq + m_->nv; ++i) {
      const double s = i < m_->nq ? d_->qpos[i] : d_->qvel[i - m_->nq];
      if (!(healthy_state_min_ < s && s < healthy_state_max_)) return false;
    }
    return PlanarWalker::is_healthy();
  }

  const double healthy_state_min_, healthy_state_max_;
};

std::vector<Option> options() {
  const double inf = std::numeric_limits<double>::infinity();
  auto options = base_options(4);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.0, "weight of the forward reward"},
      {"ctrl_cost_weight", 1e-3, "weight of the control cost"},
      {"healthy_reward", 1.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the hopper is no longer healthy"},
      {"healthy_state_min", -100.0, "(qpos, qvel)[2:] must stay above (healthy_state_range[0])", kMayBeInf},
      {"healthy_state_max", 100.0, "(qpos, qvel)[2:] must stay below (healthy_state_range[1])", kMayBeInf},
      {"healthy_z_min", 0.7, "lowest healthy torso height (healthy_z_range[0])", kMayBeInf},
      {"healthy_z_max", inf, "highest healthy torso height (healthy_z_range[1])", kMayBeInf},
      {"healthy_angle_min", -0.2, "lowest healthy torso angle (healthy_angle_range[0])", kMayBeInf},
      {"healthy_angle_max", 0.2, "highest healthy torso angle (healthy_angle_range[1])", kMayBeInf},
      {"reset_noise_scale", 5e-3, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the x position out of the observation"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  c.get_bound("healthy_state_min");  // checked here too, so that make_spec refuses a bad one
  c.get_bound("healthy_state_max");
  return planar_spec(m, c, v5, "Hopper");
}

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "HopperV4",
                       .options = options(),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<Hopper>(kV4)}) &&
    register_env_type({.name = "HopperV5",
                       .options = options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<Hopper>(kV5)});

}  // namespace rlpool::mujoco
