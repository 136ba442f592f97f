// InvertedPendulum-v4 and InvertedPendulum-v5, as gymnasium 1.4's inverted_pendulum_v4.py / _v5.py.
#include <optional>

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

// v4 takes no options (its noise scale is fixed); checked, and read by the
// spec too, so that make_spec refuses a bad one.
double reset_noise_scale(const Config& c, bool v5) { return v5 ? c.get_finite("reset_noise_scale") : 0.01; }

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 2, "the InvertedPendulum model needs a slider and a hinge (nq >= 2)");
  reset_noise_scale(c, v5);
  return make_spec(m, m->nq + m->nv, v5 ? std::vector<std::string>{"reward_survive"} : std::vector<std::string>{});
}

class InvertedPendulum final : public MujocoEnv {
 public:
  InvertedPendulum(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        reset_noise_scale_(reset_noise_scale(c, v5)),
        reward_survive_(find_info(spec(m_, c, v5).info, "reward_survive")) {
    camera_config_.distance = 2.04;  // gymnasium's DEFAULT_CAMERA_CONFIG
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, reset_noise_scale_);
    write_obs(out);
    out.put_info(reward_survive_, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    do_simulation(action);
    write_obs(out);
    const double* obs = out.obs_as<double>();
    bool finite = true;
    for (int i = 0; i < m_->nq + m_->nv; ++i) finite = finite && std::isfinite(obs[i]);
    const bool terminated = !finite || std::abs(obs[1]) > 0.2;
    // v4 pays 1 every step; v5 pays nothing on the step that terminates.
    *out.reward = v5_ && terminated ? 0.0 : 1.0;
    *out.terminated = terminated;
    out.put_info(reward_survive_, *out.reward);
  }

 private:
  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos, m_->nq);
    w.put(d_->qvel, m_->nv);
  }

  const bool v5_;
  const double reset_noise_scale_;
  const std::optional<std::size_t> reward_survive_;  // info entry (v5 only)
};

std::vector<Option> v5_options() {
  auto options = base_options(2);
  options.push_back({"reset_noise_scale", 0.01, "qpos + U(-s, s), qvel + U(-s, s) at reset"});
  return options;
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type({.name = "InvertedPendulumV4",
                       .options = base_options(2),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<InvertedPendulum>(kV4)}) &&
    register_env_type({.name = "InvertedPendulumV5",
                       .options = v5_options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<InvertedPendulum>(kV5)});

}  // namespace rlpool::mujoco
