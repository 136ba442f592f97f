// Humanoid-v4 and Humanoid-v5, as gymnasium 1.2.2's humanoid_v4.py / humanoid_v5.py.
#include "humanoid_obs.h"
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class Humanoid final : public MujocoEnv {
 public:
  Humanoid(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        obs_(HumanoidObs::from(c, v5)),
        forward_reward_weight_(c.get_double("forward_reward_weight")),
        ctrl_cost_weight_(c.get_double("ctrl_cost_weight")),
        contact_cost_weight_(v5 ? c.get_double("contact_cost_weight") : 0.0),
        contact_cost_min_(v5 ? c.get_double("contact_cost_min") : 0.0),
        contact_cost_max_(v5 ? c.get_double("contact_cost_max") : 0.0),
        healthy_reward_(c.get_double("healthy_reward")),
        terminate_when_unhealthy_(c.get_bool("terminate_when_unhealthy")),
        healthy_z_min_(c.get_double("healthy_z_min")),
        healthy_z_max_(c.get_double("healthy_z_max")),
        reset_noise_scale_(c.get_double("reset_noise_scale")) {
    for (int b = 0; b < m_->nbody; ++b) total_mass_ += m_->body_mass[b];
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, reset_noise_scale_);
    obs_.write(m_, d_, out.obs_as<double>());
    double xy[2];
    mass_center(xy);
    write_info(out, Rewards{}, xy);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    double before[2], after[2];
    mass_center(before);
    do_simulation(action);
    mass_center(after);
    Rewards r;
    r.x_velocity = (after[0] - before[0]) / dt();
    r.y_velocity = (after[1] - before[1]) / dt();
    const double z = d_->qpos[2];
    const bool healthy = healthy_z_min_ < z && z < healthy_z_max_;
    r.forward = forward_reward_weight_ * r.x_velocity;
    // v4 pays the healthy reward even when unhealthy if that terminates the episode.
    r.survive = ((healthy || (!v5_ && terminate_when_unhealthy_)) ? 1.0 : 0.0) * healthy_reward_;
    // Both versions charge the control gymnasium stored in data.ctrl (= the action).
    r.ctrl_cost = ctrl_cost_weight_ * sum_of_squares(d_->ctrl, m_->nu);
    if (v5_) {
      r.contact_cost = clip(contact_cost_weight_ * sum_of_squares(d_->cfrc_ext, 6 * m_->nbody), contact_cost_min_,
                            contact_cost_max_);
      *out.reward = (r.forward + r.survive) - (r.ctrl_cost + r.contact_cost);
    } else {
      *out.reward = (r.forward + r.survive) - r.ctrl_cost;
    }
    *out.terminated = terminate_when_unhealthy_ && !healthy;
    obs_.write(m_, d_, out.obs_as<double>());
    write_info(out, r, after);
  }

 private:
  struct Rewards {
    double x_velocity = 0, y_velocity = 0, forward = 0, survive = 0, ctrl_cost = 0, contact_cost = 0;
  };

  // gymnasium's mass_center: sum(body_mass * xipos) / sum(body_mass), x and y.
  void mass_center(double* xy) const {
    double sx = 0.0, sy = 0.0;
    for (int b = 0; b < m_->nbody; ++b) {
      sx += m_->body_mass[b] * d_->xipos[3 * b];
      sy += m_->body_mass[b] * d_->xipos[3 * b + 1];
    }
    xy[0] = sx / total_mass_;
    xy[1] = sy / total_mass_;
  }

  void write_info(const Output& out, const Rewards& r, const double* mass_xy) const {
    // v4 reports the mass center's position, v5 the free joint's qpos.
    const double x = v5_ ? d_->qpos[0] : mass_xy[0];
    const double y = v5_ ? d_->qpos[1] : mass_xy[1];
    const double values[] = {
        x, y, std::sqrt(x * x + y * y), r.x_velocity, r.y_velocity, r.forward, -r.ctrl_cost, r.survive,
        v5_ ? -r.contact_cost : r.forward,  // v5: reward_contact; v4: forward_reward
    };
    std::size_t i = 0;
    for (; i < std::size(values); ++i) *out.info_as<double>(i) = values[i];
    if (v5_) {
      std::copy_n(d_->ten_length, m_->ntendon, out.info_as<double>(i));
      std::copy_n(d_->ten_velocity, m_->ntendon, out.info_as<double>(i + 1));
    }
  }

  const bool v5_;
  const HumanoidObs obs_;
  const double forward_reward_weight_, ctrl_cost_weight_, contact_cost_weight_, contact_cost_min_, contact_cost_max_,
      healthy_reward_;
  const bool terminate_when_unhealthy_;
  const double healthy_z_min_, healthy_z_max_, reset_noise_scale_;
  double total_mass_ = 0.0;
};

std::vector<Option> v4_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.25, "weight of the forward reward"},
      {"ctrl_cost_weight", 0.1, "weight of the control cost"},
      {"healthy_reward", 5.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the torso leaves healthy_z_min..healthy_z_max"},
      {"healthy_z_min", 1.0, "lowest healthy torso height (healthy_z_range[0])"},
      {"healthy_z_max", 2.0, "highest healthy torso height (healthy_z_range[1])"},
      {"reset_noise_scale", 1e-2, "qpos + U(-s, s), qvel + U(-s, s) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the torso's x, y out of the observation"},
  });
  return options;
}

std::vector<Option> v5_options() {
  auto options = v4_options();
  options.insert(options.end(), {
      {"contact_cost_weight", 5e-7, "weight of the contact cost"},
      {"contact_cost_min", -std::numeric_limits<double>::infinity(),
       "the contact cost is clipped below (contact_cost_range[0])"},
      {"contact_cost_max", 10.0, "the contact cost is clipped above (contact_cost_range[1])"},
  });
  auto obs = HumanoidObs::include_options();
  options.insert(options.end(), obs.begin(), obs.end());
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3 && m->nv >= 6, "the Humanoid model needs a free-floating torso (nq >= 3, nv >= 6)");
  auto spec = make_spec(m, HumanoidObs::from(c, v5).size(m),
                        {"x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity",
                         v5 ? "reward_forward" : "reward_linvel", v5 ? "reward_ctrl" : "reward_quadctrl",
                         v5 ? "reward_survive" : "reward_alive", v5 ? "reward_contact" : "forward_reward"});
  if (v5) {
    for (const char* name : {"tendon_length", "tendon_velocity"}) {
      spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {m->ntendon}, .low = {}, .high = {}});
    }
  }
  return spec;
}

}  // namespace

static const bool kRegistered =
    register_env_type(env_type<Humanoid>(
        "HumanoidV4", v4_options(), [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<Humanoid>(
        "HumanoidV5", v5_options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
