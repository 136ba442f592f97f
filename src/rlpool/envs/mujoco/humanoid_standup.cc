// HumanoidStandup-v4 and HumanoidStandup-v5, as gymnasium 1.4's humanoidstandup_v4.py / _v5.py.
#include <optional>

#include "envs/mujoco/humanoid_obs.h"
#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

// The options (v4 takes none: its values are fixed), checked; the spec reads
// them too, so that make_spec refuses bad ones.
struct Params {
  HumanoidObs obs;
  double uph_cost_weight, ctrl_cost_weight, impact_cost_weight, impact_cost_min, impact_cost_max, reset_noise_scale;

  Params(const Config& c, bool v5)
      : obs(HumanoidObs::from(c, v5, v5)),
        uph_cost_weight(v5 ? c.get_finite("uph_cost_weight") : 1.0),
        ctrl_cost_weight(v5 ? c.get_finite("ctrl_cost_weight") : 0.1),
        impact_cost_weight(v5 ? c.get_finite("impact_cost_weight") : 5e-7),
        impact_cost_min(v5 ? c.get_bound("impact_cost_min") : -std::numeric_limits<double>::infinity()),
        impact_cost_max(v5 ? c.get_bound("impact_cost_max") : 10.0),
        reset_noise_scale(v5 ? c.get_finite("reset_noise_scale") : 0.01) {}
};

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3 && m->nv >= 6, "the HumanoidStandup model needs a free-floating torso (nq >= 3, nv >= 6)");
  auto spec = make_spec(m, Params(c, v5).obs.size(m), {"reward_linup", "reward_quadctrl", "reward_impact"});
  if (v5) {
    for (const char* name : {"x_position", "y_position", "z_distance_from_origin"}) {
      spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {}, .low = {}, .high = {}});
    }
    for (const char* name : {"tendon_length", "tendon_velocity"}) {
      spec.info.push_back(
          ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {m->ntendon}, .low = {}, .high = {}});
    }
  }
  return spec;
}

class HumanoidStandup final : public MujocoEnv {
 public:
  HumanoidStandup(const Config& c, bool v5) : MujocoEnv(c), p_(c, v5), info_(spec(m_, c, v5)) {
    camera_config_ = {.distance = 4.0, .elevation = -20.0, .azimuth = {}, .lookat = {{0.0, 0.0, 0.8925}}};  // gymnasium's
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, p_.reset_noise_scale);
    p_.obs.write(m_, d_, out.obs_as<double>());
    write_info(out, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    do_simulation(action);
    // The height gained per MuJoCo timestep (not per env step), as gymnasium computes it.
    // (gymnasium's v5, 1.0 to 1.4, accepts uph_cost_weight but never applies it; it is applied
    // here, which is the same at its default of 1.)
    const double uph = p_.uph_cost_weight * ((d_->qpos[2] - 0) / m_->opt.timestep);
    const double ctrl_cost = p_.ctrl_cost_weight * sum_of_squares(d_->ctrl, m_->nu);
    const double impact_cost = clip(p_.impact_cost_weight * sum_of_squares(d_->cfrc_ext, 6 * m_->nbody),
                                    p_.impact_cost_min, p_.impact_cost_max);
    *out.reward = uph - ctrl_cost - impact_cost + 1;
    *out.terminated = false;
    p_.obs.write(m_, d_, out.obs_as<double>());
    write_info(out, uph, ctrl_cost, impact_cost);
  }

 private:
  void write_info(const Output& out, double uph, double ctrl_cost, double impact_cost) const {
    out.put_info(info_.reward_linup, uph);
    out.put_info(info_.reward_quadctrl, -ctrl_cost);
    out.put_info(info_.reward_impact, -impact_cost);
    out.put_info(info_.x_position, d_->qpos[0]);
    out.put_info(info_.y_position, d_->qpos[1]);
    out.put_info(info_.z_distance_from_origin, d_->qpos[2] - init_qpos_[2]);
    if (info_.tendon_length) std::copy_n(d_->ten_length, m_->ntendon, out.info_as<double>(*info_.tendon_length));
    if (info_.tendon_velocity) std::copy_n(d_->ten_velocity, m_->ntendon, out.info_as<double>(*info_.tendon_velocity));
  }

  // Positions of the info entries; v5 adds the optional ones.
  struct Info {
    std::size_t reward_linup, reward_quadctrl, reward_impact;
    std::optional<std::size_t> x_position, y_position, z_distance_from_origin, tendon_length, tendon_velocity;
    explicit Info(const EnvSpec& spec)
        : reward_linup(info_index(spec.info, "reward_linup")),
          reward_quadctrl(info_index(spec.info, "reward_quadctrl")),
          reward_impact(info_index(spec.info, "reward_impact")),
          x_position(find_info(spec.info, "x_position")),
          y_position(find_info(spec.info, "y_position")),
          z_distance_from_origin(find_info(spec.info, "z_distance_from_origin")),
          tendon_length(find_info(spec.info, "tendon_length")),
          tendon_velocity(find_info(spec.info, "tendon_velocity")) {}
  };

  const Params p_;
  const Info info_;
};

std::vector<Option> v5_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"uph_cost_weight", 1.0, "weight of the height reward (torso height divided by the MuJoCo timestep)"},
      {"ctrl_cost_weight", 0.1, "weight of the control cost"},
      {"impact_cost_weight", 5e-7, "weight of the impact (contact force) cost"},
      {"impact_cost_min", -std::numeric_limits<double>::infinity(),
       "the impact cost is clipped below (impact_cost_range[0])", kMayBeInf},
      {"impact_cost_max", 10.0, "the impact cost is clipped above (impact_cost_range[1])", kMayBeInf},
      {"reset_noise_scale", 1e-2, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the torso's x, y out of the observation"},
  });
  auto obs = HumanoidObs::include_options();
  options.insert(options.end(), obs.begin(), obs.end());
  return options;
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type({.name = "HumanoidStandupV4",
                       .options = base_options(5),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<HumanoidStandup>(kV4)}) &&
    register_env_type({.name = "HumanoidStandupV5",
                       .options = v5_options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<HumanoidStandup>(kV5)});

}  // namespace rlpool::mujoco
