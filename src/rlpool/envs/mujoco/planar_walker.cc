#include "envs/mujoco/planar_walker.h"

namespace rlpool::mujoco {

PlanarWalker::Params::Params(const Config& c)
    : forward_reward_weight(c.get_finite("forward_reward_weight")),
      ctrl_cost_weight(c.get_finite("ctrl_cost_weight")),
      healthy_reward(c.get_finite("healthy_reward")),
      terminate_when_unhealthy(c.get_bool("terminate_when_unhealthy")),
      healthy_z_min(c.get_bound("healthy_z_min")),
      healthy_z_max(c.get_bound("healthy_z_max")),
      healthy_angle_min(c.get_bound("healthy_angle_min")),
      healthy_angle_max(c.get_bound("healthy_angle_max")),
      reset_noise_scale(c.get_finite("reset_noise_scale")),
      exclude_positions(c.get_bool("exclude_current_positions_from_observation")) {}

PlanarWalker::Info::Info(const EnvSpec& spec)
    : x_position(info_index(spec.info, "x_position")),
      x_velocity(info_index(spec.info, "x_velocity")),
      z_distance_from_origin(find_info(spec.info, "z_distance_from_origin")),
      reward_forward(find_info(spec.info, "reward_forward")),
      reward_ctrl(find_info(spec.info, "reward_ctrl")),
      reward_survive(find_info(spec.info, "reward_survive")) {}

PlanarWalker::PlanarWalker(const Config& c, bool v5, const char* task)
    : MujocoEnv(c), v5_(v5), p_(c), info_(planar_spec(m_, c, v5, task)) {}

void PlanarWalker::reset(Rng& rng, const Output& out) {
  reset_data();
  reset_uniform(rng, p_.reset_noise_scale);
  write(out, 0.0, 0.0, 0.0, 0.0);
}

void PlanarWalker::step(const Action& action, Rng& /*rng*/, const Output& out) {
  const double x_before = d_->qpos[0];
  do_simulation(action);
  const double x_velocity = (d_->qpos[0] - x_before) / dt();
  const bool healthy = is_healthy();
  const double forward = p_.forward_reward_weight * x_velocity;
  // v4 pays the healthy reward even when unhealthy if that terminates the episode.
  const double survive = ((healthy || (!v5_ && p_.terminate_when_unhealthy)) ? 1.0 : 0.0) * p_.healthy_reward;
  const double ctrl_cost = p_.ctrl_cost_weight * action_sum_of_squares(action);
  *out.reward = (forward + survive) - ctrl_cost;
  *out.terminated = p_.terminate_when_unhealthy && !healthy;
  write(out, x_velocity, forward, ctrl_cost, survive);
}

bool PlanarWalker::is_healthy() const {
  const double z = d_->qpos[1];
  const double angle = d_->qpos[2];
  return p_.healthy_z_min < z && z < p_.healthy_z_max && p_.healthy_angle_min < angle && angle < p_.healthy_angle_max;
}

void PlanarWalker::write(const Output& out, double x_velocity, double forward, double ctrl_cost,
                         double survive) const {
  ObsWriter w(out.obs_as<double>());
  const int skip = p_.exclude_positions ? 1 : 0;
  w.put(d_->qpos + skip, m_->nq - skip);
  w.put_clipped(d_->qvel, m_->nv, -10.0, 10.0);
  out.put_info(info_.x_position, d_->qpos[0]);
  out.put_info(info_.x_velocity, x_velocity);
  out.put_info(info_.z_distance_from_origin, d_->qpos[1] - init_qpos_[1]);
  out.put_info(info_.reward_forward, forward);
  out.put_info(info_.reward_ctrl, -ctrl_cost);
  out.put_info(info_.reward_survive, survive);
}

EnvSpec planar_spec(const mjModel* m, const Config& c, bool v5, const char* task) {
  require(m->nq >= 3, std::string("the ") + task + " model needs x, z and angle joints first (nq >= 3)");
  const int skip = PlanarWalker::Params(c).exclude_positions ? 1 : 0;
  std::vector<std::string> infos = {"x_position", "x_velocity"};
  if (v5) infos.insert(infos.end(), {"z_distance_from_origin", "reward_forward", "reward_ctrl", "reward_survive"});
  return make_spec(m, m->nq - skip + m->nv, infos);
}

}  // namespace rlpool::mujoco
