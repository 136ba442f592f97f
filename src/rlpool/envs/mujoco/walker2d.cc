// Walker2d-v4 and Walker2d-v5, as gymnasium 1.4's walker2d_v4.py / walker2d_v5.py
// (the rest is planar_walker.h's, shared with Hopper).
#include "envs/mujoco/planar_walker.h"

namespace rlpool::mujoco {
namespace {

class Walker2d final : public PlanarWalker {
 public:
  Walker2d(const Config& c, bool v5) : PlanarWalker(c, v5, "Walker2d") {
    camera_config_ = {.distance = 4.0, .elevation = -20.0, .azimuth = {}, .lookat = {{0.0, 0.0, 1.15}}};  // gymnasium's
  }
};

std::vector<Option> options() {
  auto options = base_options(4);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.0, "weight of the forward reward"},
      {"ctrl_cost_weight", 1e-3, "weight of the control cost"},
      {"healthy_reward", 1.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the walker is no longer healthy"},
      {"healthy_z_min", 0.8, "lowest healthy torso height (healthy_z_range[0])", kMayBeInf},
      {"healthy_z_max", 2.0, "highest healthy torso height (healthy_z_range[1])", kMayBeInf},
      {"healthy_angle_min", -1.0, "lowest healthy torso angle (healthy_angle_range[0])", kMayBeInf},
      {"healthy_angle_max", 1.0, "highest healthy torso angle (healthy_angle_range[1])", kMayBeInf},
      {"reset_noise_scale", 5e-3, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the x position out of the observation"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) { return planar_spec(m, c, v5, "Walker2d"); }

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "Walker2dV4",
                       .options = options(),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<Walker2d>(kV4)}) &&
    register_env_type({.name = "Walker2dV5",
                       .options = options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<Walker2d>(kV5)});

}  // namespace rlpool::mujoco
