// InvertedDoublePendulum-v4 and -v5, as gymnasium 1.4's inverted_double_pendulum_v4.py / _v5.py.
#include <optional>

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

// The options (v4 takes none: its values are fixed), checked; the spec reads
// them too, so that make_spec refuses bad ones.
struct Params {
  double healthy_reward, reset_noise_scale;

  Params(const Config& c, bool v5)
      : healthy_reward(v5 ? c.get_finite("healthy_reward") : 10.0),
        reset_noise_scale(v5 ? c.get_finite("reset_noise_scale") : 0.1) {}
};

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 1 && m->nv >= 3 && m->nsite >= 1,
          "the InvertedDoublePendulum model needs a cart, two hinges (nv >= 3) and a tip site");
  Params(c, v5);  // reads, so checks, the options
  const std::int64_t size = 1 + 2 * (m->nq - 1) + m->nv + (v5 ? 1 : m->nv);
  return make_spec(m, size,
                   v5 ? std::vector<std::string>{"reward_survive", "distance_penalty", "velocity_penalty"}
                      : std::vector<std::string>{});
}

class InvertedDoublePendulum final : public MujocoEnv {
 public:
  InvertedDoublePendulum(const Config& c, bool v5) : MujocoEnv(c), v5_(v5), p_(c, v5), info_(spec(m_, c, v5)) {
    // gymnasium's DEFAULT_CAMERA_CONFIG, which its v5 no longer passes (default_camera_config=None)
    if (!v5) camera_config_ = {.distance = 4.1225, .elevation = {}, .azimuth = {}, .lookat = {{0.0, 0.0, 0.1225}}};
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform_normal(rng, p_.reset_noise_scale);
    write_obs(out);
    write_info(out, 0.0, 0.0, 0.0);
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
    const double alive = v5_ && terminated ? 0.0 : p_.healthy_reward;
    *out.reward = alive - dist_penalty - vel_penalty;
    *out.terminated = terminated;
    write_obs(out);
    write_info(out, alive, -dist_penalty, -vel_penalty);
  }

 private:
  // The info entries (v5 only).
  void write_info(const Output& out, double survive, double distance_penalty, double velocity_penalty) const {
    out.put_info(info_.reward_survive, survive);
    out.put_info(info_.distance_penalty, distance_penalty);
    out.put_info(info_.velocity_penalty, velocity_penalty);
  }

  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos[0]);
    for (int i = 1; i < m_->nq; ++i) w.put(std::sin(d_->qpos[i]));
    for (int i = 1; i < m_->nq; ++i) w.put(std::cos(d_->qpos[i]));
    w.put_clipped(d_->qvel, m_->nv, -10.0, 10.0);
    // v4 observes every dof's constraint force, v5 the cart's only.
    w.put_clipped(d_->qfrc_constraint, v5_ ? 1 : m_->nv, -10.0, 10.0);
  }

  // Positions of the info entries (v5 only).
  struct Info {
    std::optional<std::size_t> reward_survive, distance_penalty, velocity_penalty;
    explicit Info(const EnvSpec& spec)
        : reward_survive(find_info(spec.info, "reward_survive")),
          distance_penalty(find_info(spec.info, "distance_penalty")),
          velocity_penalty(find_info(spec.info, "velocity_penalty")) {}
  };

  const bool v5_;
  const Params p_;
  const Info info_;
};

std::vector<Option> v5_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"healthy_reward", 10.0, "alive bonus per step that does not terminate"},
      {"reset_noise_scale", 0.1, "qpos + U(-s, s), qvel + s * N(0, 1) at reset"},
  });
  return options;
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type({.name = "InvertedDoublePendulumV4",
                       .options = base_options(5),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<InvertedDoublePendulum>(kV4)}) &&
    register_env_type({.name = "InvertedDoublePendulumV5",
                       .options = v5_options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<InvertedDoublePendulum>(kV5)});

}  // namespace rlpool::mujoco
