// HalfCheetah-v4 and HalfCheetah-v5, as gymnasium 1.2.2's half_cheetah_v4.py / _v5.py.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class HalfCheetah final : public MujocoEnv {
 public:
  explicit HalfCheetah(const Config& c)
      : MujocoEnv(c),
        forward_reward_weight_(c.get_double("forward_reward_weight")),
        ctrl_cost_weight_(c.get_double("ctrl_cost_weight")),
        reset_noise_scale_(c.get_double("reset_noise_scale")),
        exclude_positions_(c.get_bool("exclude_current_positions_from_observation")) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform_normal(rng, reset_noise_scale_);
    write(out, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const double x_before = d_->qpos[0];
    do_simulation(action);
    const double x_velocity = (d_->qpos[0] - x_before) / dt();
    const double forward = forward_reward_weight_ * x_velocity;
    const double ctrl_cost = ctrl_cost_weight_ * action_sum_of_squares(action);
    *out.reward = forward - ctrl_cost;
    *out.terminated = false;
    write(out, x_velocity, forward, ctrl_cost);
  }

 private:
  void write(const Output& out, double x_velocity, double forward, double ctrl_cost) const {
    ObsWriter w(out.obs_as<double>());
    const int skip = exclude_positions_ ? 1 : 0;
    w.put(d_->qpos + skip, m_->nq - skip);
    w.put(d_->qvel, m_->nv);
    // x_position, x_velocity, reward_run (v4) / reward_forward (v5), reward_ctrl
    *out.info_as<double>(0) = d_->qpos[0];
    *out.info_as<double>(1) = x_velocity;
    *out.info_as<double>(2) = forward;
    *out.info_as<double>(3) = -ctrl_cost;
  }

  const double forward_reward_weight_, ctrl_cost_weight_, reset_noise_scale_;
  const bool exclude_positions_;
};

std::vector<Option> options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.0, "weight of the forward reward"},
      {"ctrl_cost_weight", 0.1, "weight of the control cost"},
      {"reset_noise_scale", 0.1, "qpos + U(-s, s), qvel + s * N(0, 1) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the x position out of the observation"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, const char* forward_name) {
  require(m->nq >= 1, "the HalfCheetah model needs a slide joint first (nq >= 1)");
  const int skip = c.get_bool("exclude_current_positions_from_observation") ? 1 : 0;
  return make_spec(m, m->nq - skip + m->nv, {"x_position", "x_velocity", forward_name, "reward_ctrl"});
}

}  // namespace

static const bool kRegistered =
    register_env_type(env_type<HalfCheetah>("HalfCheetahV4", options(),
                                            [](const mjModel* m, const Config& c) {
                                              return spec(m, c, "reward_run");
                                            })) &&
    register_env_type(env_type<HalfCheetah>("HalfCheetahV5", options(), [](const mjModel* m, const Config& c) {
      return spec(m, c, "reward_forward");
    }));

}  // namespace rlpool::mujoco
