// Swimmer-v4 and Swimmer-v5, as gymnasium 1.2.2's swimmer_v4.py / swimmer_v5.py.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class Swimmer final : public MujocoEnv {
 public:
  Swimmer(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        forward_reward_weight_(c.get_double("forward_reward_weight")),
        ctrl_cost_weight_(c.get_double("ctrl_cost_weight")),
        reset_noise_scale_(c.get_double("reset_noise_scale")),
        exclude_positions_(c.get_bool("exclude_current_positions_from_observation")) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, reset_noise_scale_);
    write(out, 0.0, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const double x_before = d_->qpos[0];
    const double y_before = d_->qpos[1];
    do_simulation(action);
    const double x_velocity = (d_->qpos[0] - x_before) / dt();
    const double y_velocity = (d_->qpos[1] - y_before) / dt();
    const double forward = forward_reward_weight_ * x_velocity;
    const double ctrl_cost = ctrl_cost_weight_ * action_sum_of_squares(action);
    *out.reward = forward - ctrl_cost;
    *out.terminated = false;
    write(out, x_velocity, y_velocity, forward, ctrl_cost);
  }

 private:
  void write(const Output& out, double x_velocity, double y_velocity, double forward, double ctrl_cost) const {
    ObsWriter w(out.obs_as<double>());
    const int skip = exclude_positions_ ? 2 : 0;
    w.put(d_->qpos + skip, m_->nq - skip);
    w.put(d_->qvel, m_->nv);
    const double x = d_->qpos[0];
    const double y = d_->qpos[1];
    const double values[] = {x, y, std::sqrt(x * x + y * y), x_velocity, y_velocity, forward, -ctrl_cost, forward};
    // v4 also reports the forward reward as forward_reward (its reward_fwd is reward_forward here).
    const std::size_t n = v5_ ? 7 : 8;
    for (std::size_t i = 0; i < n; ++i) *out.info_as<double>(i) = values[i];
  }

  const bool v5_;
  const double forward_reward_weight_, ctrl_cost_weight_, reset_noise_scale_;
  const bool exclude_positions_;
};

std::vector<Option> options() {
  auto options = base_options(4);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.0, "weight of the forward reward"},
      {"ctrl_cost_weight", 1e-4, "weight of the control cost"},
      {"reset_noise_scale", 0.1, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the x, y position out of the observation"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 2, "the Swimmer model needs x, y slide joints first (nq >= 2)");
  const int skip = c.get_bool("exclude_current_positions_from_observation") ? 2 : 0;
  std::vector<std::string> infos = {"x_position", "y_position",  "distance_from_origin",
                                    "x_velocity", "y_velocity",  v5 ? "reward_forward" : "reward_fwd",
                                    "reward_ctrl"};
  if (!v5) infos.push_back("forward_reward");
  return make_spec(m, m->nq - skip + m->nv, infos);
}

}  // namespace

static const bool kRegistered =
    register_env_type(env_type<Swimmer>(
        "SwimmerV4", options(), [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<Swimmer>(
        "SwimmerV5", options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
