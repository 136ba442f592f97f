// Walker2d-v4 and Walker2d-v5, as gymnasium 1.2.2's walker2d_v4.py / walker2d_v5.py.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class Walker2d final : public MujocoEnv {
 public:
  Walker2d(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        forward_reward_weight_(c.get_double("forward_reward_weight")),
        ctrl_cost_weight_(c.get_double("ctrl_cost_weight")),
        healthy_reward_(c.get_double("healthy_reward")),
        terminate_when_unhealthy_(c.get_bool("terminate_when_unhealthy")),
        healthy_z_min_(c.get_double("healthy_z_min")),
        healthy_z_max_(c.get_double("healthy_z_max")),
        healthy_angle_min_(c.get_double("healthy_angle_min")),
        healthy_angle_max_(c.get_double("healthy_angle_max")),
        reset_noise_scale_(c.get_double("reset_noise_scale")),
        exclude_positions_(c.get_bool("exclude_current_positions_from_observation")) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, reset_noise_scale_);
    write(out, 0.0, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const double x_before = d_->qpos[0];
    do_simulation(action);
    const double x_velocity = (d_->qpos[0] - x_before) / dt();
    const double z = d_->qpos[1];
    const double angle = d_->qpos[2];
    const bool healthy =
        healthy_z_min_ < z && z < healthy_z_max_ && healthy_angle_min_ < angle && angle < healthy_angle_max_;
    const double forward = forward_reward_weight_ * x_velocity;
    // v4 pays the healthy reward even when unhealthy if that terminates the episode.
    const double survive = ((healthy || (!v5_ && terminate_when_unhealthy_)) ? 1.0 : 0.0) * healthy_reward_;
    const double ctrl_cost = ctrl_cost_weight_ * action_sum_of_squares(action);
    *out.reward = (forward + survive) - ctrl_cost;
    *out.terminated = terminate_when_unhealthy_ && !healthy;
    write(out, x_velocity, forward, ctrl_cost, survive);
  }

 private:
  void write(const Output& out, double x_velocity, double forward, double ctrl_cost, double survive) const {
    ObsWriter w(out.obs_as<double>());
    const int skip = exclude_positions_ ? 1 : 0;
    w.put(d_->qpos + skip, m_->nq - skip);
    w.put_clipped(d_->qvel, m_->nv, -10.0, 10.0);
    *out.info_as<double>(0) = d_->qpos[0];
    *out.info_as<double>(1) = x_velocity;
    if (v5_) {
      *out.info_as<double>(2) = d_->qpos[1] - init_qpos_[1];
      *out.info_as<double>(3) = forward;
      *out.info_as<double>(4) = -ctrl_cost;
      *out.info_as<double>(5) = survive;
    }
  }

  const bool v5_;
  const double forward_reward_weight_, ctrl_cost_weight_, healthy_reward_;
  const bool terminate_when_unhealthy_;
  const double healthy_z_min_, healthy_z_max_, healthy_angle_min_, healthy_angle_max_, reset_noise_scale_;
  const bool exclude_positions_;
};

std::vector<Option> options() {
  auto options = base_options(4);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.0, "weight of the forward reward"},
      {"ctrl_cost_weight", 1e-3, "weight of the control cost"},
      {"healthy_reward", 1.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the walker is no longer healthy"},
      {"healthy_z_min", 0.8, "lowest healthy torso height (healthy_z_range[0])"},
      {"healthy_z_max", 2.0, "highest healthy torso height (healthy_z_range[1])"},
      {"healthy_angle_min", -1.0, "lowest healthy torso angle (healthy_angle_range[0])"},
      {"healthy_angle_max", 1.0, "highest healthy torso angle (healthy_angle_range[1])"},
      {"reset_noise_scale", 5e-3, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the x position out of the observation"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3, "the Walker2d model needs x, z and angle joints first (nq >= 3)");
  const int skip = c.get_bool("exclude_current_positions_from_observation") ? 1 : 0;
  std::vector<std::string> infos = {"x_position", "x_velocity"};
  if (v5) infos.insert(infos.end(), {"z_distance_from_origin", "reward_forward", "reward_ctrl", "reward_survive"});
  return make_spec(m, m->nq - skip + m->nv, infos);
}

}  // namespace

static const bool kRegistered =
    register_env_type(env_type<Walker2d>(
        "Walker2dV4", options(), [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<Walker2d>(
        "Walker2dV5", options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
