// InvertedDoublePendulum-v4 and -v5, as gymnasium 1.2.2's inverted_double_pendulum_v4.py / _v5.py.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class InvertedDoublePendulum final : public MujocoEnv {
 public:
  InvertedDoublePendulum(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        healthy_reward_(v5 ? c.get_double("healthy_reward") : 10.0),
        reset_noise_scale_(v5 ? c.get_double("reset_noise_scale") : 0.1) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform_normal(rng, reset_noise_scale_);
    write_obs(out);
    if (v5_) {
      for (int i = 0; i < 3; ++i) *out.info_as<double>(i) = 0.0;
    }
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    do_simulation(action);
    // The tip site: x and height.
    const double x = d_->site_xpos[0];
    const double y = d_->site_xpos[2];
    const bool terminated = y <= 1;
    const double v1 = d_->qvel[1];
    const double v2 = d_->qvel[2];
    const double dist_penalty = 0.01 * (x * x) + (y - 2) * (y - 2);
    const double vel_penalty = 1e-3 * (v1 * v1) + 5e-3 * (v2 * v2);
    // v4 pays the alive bonus on the terminating step too.
    const double alive = v5_ && terminated ? 0.0 : healthy_reward_;
    *out.reward = alive - dist_penalty - vel_penalty;
    *out.terminated = terminated;
    write_obs(out);
    if (v5_) {
      *out.info_as<double>(0) = alive;          // reward_survive
      *out.info_as<double>(1) = -dist_penalty;  // distance_penalty
      *out.info_as<double>(2) = -vel_penalty;   // velocity_penalty
    }
  }

 private:
  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos[0]);
    for (int i = 1; i < m_->nq; ++i) w.put(std::sin(d_->qpos[i]));
    for (int i = 1; i < m_->nq; ++i) w.put(std::cos(d_->qpos[i]));
    w.put_clipped(d_->qvel, m_->nv, -10.0, 10.0);
    // v4 observes every dof's constraint force, v5 the cart's only.
    w.put_clipped(d_->qfrc_constraint, v5_ ? 1 : m_->nv, -10.0, 10.0);
  }

  const bool v5_;
  const double healthy_reward_, reset_noise_scale_;
};

std::vector<Option> v5_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"healthy_reward", 10.0, "alive bonus per step that does not terminate"},
      {"reset_noise_scale", 0.1, "qpos + U(-s, s), qvel + s * N(0, 1) at reset"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& /*c*/, bool v5) {
  require(m->nq >= 1 && m->nv >= 3 && m->nsite >= 1,
          "the InvertedDoublePendulum model needs a cart, two hinges (nv >= 3) and a tip site");
  const std::int64_t size = 1 + 2 * (m->nq - 1) + m->nv + (v5 ? 1 : m->nv);
  return make_spec(m, size,
                   v5 ? std::vector<std::string>{"reward_survive", "distance_penalty", "velocity_penalty"}
                      : std::vector<std::string>{});
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type(env_type<InvertedDoublePendulum>(
        "InvertedDoublePendulumV4", base_options(5),
        [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<InvertedDoublePendulum>(
        "InvertedDoublePendulumV5", v5_options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); },
        true));

}  // namespace rlpool::mujoco
