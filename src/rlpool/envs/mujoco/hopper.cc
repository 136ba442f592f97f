// Hopper-v4 and Hopper-v5, as gymnasium 1.2.2's hopper_v4.py / hopper_v5.py.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class Hopper final : public MujocoEnv {
 public:
  Hopper(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        forward_reward_weight_(c.get_double("forward_reward_weight")),
        ctrl_cost_weight_(c.get_double("ctrl_cost_weight")),
        healthy_reward_(c.get_double("healthy_reward")),
        terminate_when_unhealthy_(c.get_bool("terminate_when_unhealthy")),
        healthy_state_min_(c.get_double("healthy_state_min")),
        healthy_state_max_(c.get_double("healthy_state_max")),
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
    const bool healthy = is_healthy();
    const double forward = forward_reward_weight_ * x_velocity;
    // v4 pays the healthy reward even when unhealthy if that terminates the episode.
    const double survive = ((healthy || (!v5_ && terminate_when_unhealthy_)) ? 1.0 : 0.0) * healthy_reward_;
    const double ctrl_cost = ctrl_cost_weight_ * action_sum_of_squares(action);
    *out.reward = (forward + survive) - ctrl_cost;
    *out.terminated = terminate_when_unhealthy_ && !healthy;
    write(out, x_velocity, forward, ctrl_cost, survive);
  }

 private:
  bool is_healthy() const {
    // Strict bounds on (qpos, qvel)[2:], the height qpos[1] and the angle qpos[2]; NaN is unhealthy.
    for (int i = 2; i < m_->nq + m_->nv; ++i) {
      const double s = i < m_->nq ? d_->qpos[i] : d_->qvel[i - m_->nq];
      if (!(healthy_state_min_ < s && s < healthy_state_max_)) return false;
    }
    const double z = d_->qpos[1];
    const double angle = d_->qpos[2];
    return healthy_z_min_ < z && z < healthy_z_max_ && healthy_angle_min_ < angle && angle < healthy_angle_max_;
  }

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
  const double healthy_state_min_, healthy_state_max_, healthy_z_min_, healthy_z_max_, healthy_angle_min_,
      healthy_angle_max_, reset_noise_scale_;
  const bool exclude_positions_;
};

std::vector<Option> options() {
  const double inf = std::numeric_limits<double>::infinity();
  auto options = base_options(4);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.0, "weight of the forward reward"},
      {"ctrl_cost_weight", 1e-3, "weight of the control cost"},
      {"healthy_reward", 1.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the hopper is no longer healthy"},
      {"healthy_state_min", -100.0, "(qpos, qvel)[2:] must stay above (healthy_state_range[0])"},
      {"healthy_state_max", 100.0, "(qpos, qvel)[2:] must stay below (healthy_state_range[1])"},
      {"healthy_z_min", 0.7, "lowest healthy torso height (healthy_z_range[0])"},
      {"healthy_z_max", inf, "highest healthy torso height (healthy_z_range[1])"},
      {"healthy_angle_min", -0.2, "lowest healthy torso angle (healthy_angle_range[0])"},
      {"healthy_angle_max", 0.2, "highest healthy torso angle (healthy_angle_range[1])"},
      {"reset_noise_scale", 5e-3, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the x position out of the observation"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3, "the Hopper model needs x, z and angle joints first (nq >= 3)");
  const int skip = c.get_bool("exclude_current_positions_from_observation") ? 1 : 0;
  std::vector<std::string> infos = {"x_position", "x_velocity"};
  if (v5) infos.insert(infos.end(), {"z_distance_from_origin", "reward_forward", "reward_ctrl", "reward_survive"});
  return make_spec(m, m->nq - skip + m->nv, infos);
}

}  // namespace

static const bool kRegistered =
    register_env_type(env_type<Hopper>(
        "HopperV4", options(), [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<Hopper>(
        "HopperV5", options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
