// HalfCheetah-v4 and HalfCheetah-v5, as gymnasium 1.4's half_cheetah_v4.py / _v5.py.
#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

using Params = ForwardParams;

// The forward reward's info entry: v4 calls it reward_run.
const char* forward_info(bool v5) { return v5 ? "reward_forward" : "reward_run"; }

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 1, "the HalfCheetah model needs a slide joint first (nq >= 1)");
  const int skip = Params(c).exclude_positions ? 1 : 0;
  return make_spec(m, m->nq - skip + m->nv, {"x_position", "x_velocity", forward_info(v5), "reward_ctrl"});
}

class HalfCheetah final : public MujocoEnv {
 public:
  HalfCheetah(const Config& c, bool v5) : MujocoEnv(c), p_(c), info_(spec(m_, c, v5), v5) {
    camera_config_.distance = 4.0;  // gymnasium's DEFAULT_CAMERA_CONFIG
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform_normal(rng, p_.reset_noise_scale);
    write(out, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const double x_before = d_->qpos[0];
    do_simulation(action);
    const double x_velocity = (d_->qpos[0] - x_before) / dt();
    const double forward = p_.forward_reward_weight * x_velocity;
    const double ctrl_cost = p_.ctrl_cost_weight * action_sum_of_squares(action);
    *out.reward = forward - ctrl_cost;
    *out.terminated = false;
    write(out, x_velocity, forward, ctrl_cost);
  }

 private:
  void write(const Output& out, double x_velocity, double forward, double ctrl_cost) const {
    ObsWriter w(out.obs_as<double>());
    const int skip = p_.exclude_positions ? 1 : 0;
    w.put(d_->qpos + skip, m_->nq - skip);
    w.put(d_->qvel, m_->nv);
    out.put_info(info_.x_position, d_->qpos[0]);
    out.put_info(info_.x_velocity, x_velocity);
    out.put_info(info_.reward_forward, forward);
    out.put_info(info_.reward_ctrl, -ctrl_cost);
  }

  // Positions of the info entries.
  struct Info {
    std::size_t x_position, x_velocity, reward_forward, reward_ctrl;
    Info(const EnvSpec& spec, bool v5)
        : x_position(info_index(spec.info, "x_position")),
          x_velocity(info_index(spec.info, "x_velocity")),
          reward_forward(info_index(spec.info, forward_info(v5))),
          reward_ctrl(info_index(spec.info, "reward_ctrl")) {}
  };

  const Params p_;
  const Info info_;
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

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "HalfCheetahV4",
                       .options = options(),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<HalfCheetah>(kV4)}) &&
    register_env_type({.name = "HalfCheetahV5",
                       .options = options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<HalfCheetah>(kV5)});

}  // namespace rlpool::mujoco
