// HumanoidStandup-v4 and HumanoidStandup-v5, as gymnasium 1.2.2's humanoidstandup_v4.py / _v5.py.
#include "humanoid_obs.h"
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class HumanoidStandup final : public MujocoEnv {
 public:
  HumanoidStandup(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        obs_(HumanoidObs::from(c, v5, v5)),
        uph_cost_weight_(v5 ? c.get_double("uph_cost_weight") : 1.0),
        ctrl_cost_weight_(v5 ? c.get_double("ctrl_cost_weight") : 0.1),
        impact_cost_weight_(v5 ? c.get_double("impact_cost_weight") : 5e-7),
        impact_cost_min_(v5 ? c.get_double("impact_cost_min") : -std::numeric_limits<double>::infinity()),
        impact_cost_max_(v5 ? c.get_double("impact_cost_max") : 10.0),
        reset_noise_scale_(v5 ? c.get_double("reset_noise_scale") : 0.01) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, reset_noise_scale_);
    obs_.write(m_, d_, out.obs_as<double>());
    write_info(out, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    do_simulation(action);
    // The height gained per MuJoCo timestep (not per env step), as gymnasium computes it.
    // (gymnasium 1.2.2's v5 accepts uph_cost_weight but never applies it; it is applied
    // here, which is the same at its default of 1.)
    const double uph = uph_cost_weight_ * ((d_->qpos[2] - 0) / m_->opt.timestep);
    const double ctrl_cost = ctrl_cost_weight_ * sum_of_squares(d_->ctrl, m_->nu);
    const double impact_cost =
        clip(impact_cost_weight_ * sum_of_squares(d_->cfrc_ext, 6 * m_->nbody), impact_cost_min_, impact_cost_max_);
    *out.reward = uph - ctrl_cost - impact_cost + 1;
    *out.terminated = false;
    obs_.write(m_, d_, out.obs_as<double>());
    write_info(out, uph, ctrl_cost, impact_cost);
  }

 private:
  void write_info(const Output& out, double uph, double ctrl_cost, double impact_cost) const {
    *out.info_as<double>(0) = uph;
    *out.info_as<double>(1) = -ctrl_cost;
    *out.info_as<double>(2) = -impact_cost;
    if (v5_) {
      *out.info_as<double>(3) = d_->qpos[0];
      *out.info_as<double>(4) = d_->qpos[1];
      *out.info_as<double>(5) = d_->qpos[2] - init_qpos_[2];
      std::copy_n(d_->ten_length, m_->ntendon, out.info_as<double>(6));
      std::copy_n(d_->ten_velocity, m_->ntendon, out.info_as<double>(7));
    }
  }

  const bool v5_;
  const HumanoidObs obs_;
  const double uph_cost_weight_, ctrl_cost_weight_, impact_cost_weight_, impact_cost_min_, impact_cost_max_,
      reset_noise_scale_;
};

std::vector<Option> v5_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"uph_cost_weight", 1.0, "weight of the upward-velocity reward"},
      {"ctrl_cost_weight", 0.1, "weight of the control cost"},
      {"impact_cost_weight", 5e-7, "weight of the impact (contact force) cost"},
      {"impact_cost_min", -std::numeric_limits<double>::infinity(),
       "the impact cost is clipped below (impact_cost_range[0])"},
      {"impact_cost_max", 10.0, "the impact cost is clipped above (impact_cost_range[1])"},
      {"reset_noise_scale", 1e-2, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the torso's x, y out of the observation"},
  });
  auto obs = HumanoidObs::include_options();
  options.insert(options.end(), obs.begin(), obs.end());
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3 && m->nv >= 6, "the HumanoidStandup model needs a free-floating torso (nq >= 3, nv >= 6)");
  auto spec = make_spec(m, HumanoidObs::from(c, v5, v5).size(m), {"reward_linup", "reward_quadctrl", "reward_impact"});
  if (v5) {
    for (const char* name : {"x_position", "y_position", "z_distance_from_origin"}) {
      spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {}, .low = {}, .high = {}});
    }
    for (const char* name : {"tendon_length", "tendon_velocity"}) {
      spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {m->ntendon}, .low = {}, .high = {}});
    }
  }
  return spec;
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type(env_type<HumanoidStandup>(
        "HumanoidStandupV4", base_options(5), [](const mjModel* m, const Config& c) { return spec(m, c, false); },
        false)) &&
    register_env_type(env_type<HumanoidStandup>(
        "HumanoidStandupV5", v5_options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
