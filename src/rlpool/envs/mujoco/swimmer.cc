// Swimmer-v4 and Swimmer-v5, as gymnasium 1.4's swimmer_v4.py / swimmer_v5.py.
#include <optional>

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

using Params = ForwardParams;

// The forward reward's info entry: v4 calls it reward_fwd.
const char* forward_info(bool v5) { return v5 ? "reward_forward" : "reward_fwd"; }

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 2, "the Swimmer model needs x, y slide joints first (nq >= 2)");
  const int skip = Params(c).exclude_positions ? 2 : 0;
  std::vector<std::string> infos = plane_infos({forward_info(v5), "reward_ctrl"});
  if (!v5) infos.push_back("forward_reward");
  return make_spec(m, m->nq - skip + m->nv, infos);
}

class Swimmer final : public MujocoEnv {
 public:
  Swimmer(const Config& c, bool v5) : MujocoEnv(c), p_(c), info_(spec(m_, c, v5), v5) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, p_.reset_noise_scale);
    write(out, 0.0, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const double x_before = d_->qpos[0];
    const double y_before = d_->qpos[1];
    do_simulation(action);
    const double x_velocity = (d_->qpos[0] - x_before) / dt();
    const double y_velocity = (d_->qpos[1] - y_before) / dt();
    const double forward = p_.forward_reward_weight * x_velocity;
    const double ctrl_cost = p_.ctrl_cost_weight * action_sum_of_squares(action);
    *out.reward = forward - ctrl_cost;
    *out.terminated = false;
    write(out, x_velocity, y_velocity, forward, ctrl_cost);
  }

 private:
  void write(const Output& out, double x_velocity, double y_velocity, double forward, double ctrl_cost) const {
    ObsWriter w(out.obs_as<double>());
    const int skip = p_.exclude_positions ? 2 : 0;
    w.put(d_->qpos + skip, m_->nq - skip);
    w.put(d_->qvel, m_->nv);
    const double x = d_->qpos[0];
    const double y = d_->qpos[1];
    info_.plane.write(out, x, y, x_velocity, y_velocity);
    out.put_info(info_.reward_forward, forward);
    out.put_info(info_.reward_ctrl, -ctrl_cost);
    out.put_info(info_.forward_reward, forward);
  }

  // Positions of the info entries; v4 also reports the forward reward as forward_reward.
  struct Info {
    PlaneInfo plane;
    std::size_t reward_forward, reward_ctrl;
    std::optional<std::size_t> forward_reward;
    Info(const EnvSpec& spec, bool v5)
        : plane(spec),
          reward_forward(info_index(spec.info, forward_info(v5))),
          reward_ctrl(info_index(spec.info, "reward_ctrl")),
          forward_reward(find_info(spec.info, "forward_reward")) {}
  };

  const Params p_;
  const Info info_;
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

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "SwimmerV4",
                       .options = options(),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<Swimmer>(kV4)}) &&
    register_env_type({.name = "SwimmerV5",
                       .options = options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<Swimmer>(kV5)});

}  // namespace rlpool::mujoco
