// InvertedPendulum-v4 and InvertedPendulum-v5, as gymnasium 1.2.2's inverted_pendulum_v4.py / _v5.py.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class InvertedPendulum final : public MujocoEnv {
 public:
  InvertedPendulum(const Config& c, bool v5)
      : MujocoEnv(c), v5_(v5), reset_noise_scale_(v5 ? c.get_double("reset_noise_scale") : 0.01) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, reset_noise_scale_);
    write_obs(out);
    if (v5_) *out.info_as<double>(0) = 0.0;
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
    if (v5_) *out.info_as<double>(0) = *out.reward;  // reward_survive
  }

 private:
  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos, m_->nq);
    w.put(d_->qvel, m_->nv);
  }

  const bool v5_;
  const double reset_noise_scale_;
};

std::vector<Option> v5_options() {
  auto options = base_options(2);
  options.push_back({"reset_noise_scale", 0.01, "qpos + U(-s, s), qvel + U(-s, s) at reset"});
  return options;
}

EnvSpec spec(const mjModel* m, const Config& /*c*/, bool v5) {
  require(m->nq >= 2, "the InvertedPendulum model needs a slider and a hinge (nq >= 2)");
  return make_spec(m, m->nq + m->nv, v5 ? std::vector<std::string>{"reward_survive"} : std::vector<std::string>{});
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type(env_type<InvertedPendulum>(
        "InvertedPendulumV4", base_options(2), [](const mjModel* m, const Config& c) { return spec(m, c, false); },
        false)) &&
    register_env_type(env_type<InvertedPendulum>(
        "InvertedPendulumV5", v5_options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); },
        true));

}  // namespace rlpool::mujoco
