// Humanoid-v4 and Humanoid-v5, as gymnasium 1.4's humanoid_v4.py / humanoid_v5.py.
#include <optional>

#include "envs/mujoco/humanoid_obs.h"
#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

// The options, checked; the spec reads them too, so that make_spec refuses bad ones.
struct Params {
  HumanoidObs obs;
  double forward_reward_weight, ctrl_cost_weight, contact_cost_weight, contact_cost_min, contact_cost_max,
      healthy_reward;
  bool terminate_when_unhealthy;
  double healthy_z_min, healthy_z_max, reset_noise_scale;

  Params(const Config& c, bool v5)
      : obs(HumanoidObs::from(c, v5)),
        forward_reward_weight(c.get_finite("forward_reward_weight")),
        ctrl_cost_weight(c.get_finite("ctrl_cost_weight")),
        contact_cost_weight(v5 ? c.get_finite("contact_cost_weight") : 0.0),
        contact_cost_min(v5 ? c.get_bound("contact_cost_min") : 0.0),
        contact_cost_max(v5 ? c.get_bound("contact_cost_max") : 0.0),
        healthy_reward(c.get_finite("healthy_reward")),
        terminate_when_unhealthy(c.get_bool("terminate_when_unhealthy")),
        healthy_z_min(c.get_bound("healthy_z_min")),
        healthy_z_max(c.get_bound("healthy_z_max")),
        reset_noise_scale(c.get_finite("reset_noise_scale")) {}
};

// Info entries that v5 renamed.
const char* forward_info(bool v5) { return v5 ? "reward_forward" : "reward_linvel"; }
const char* ctrl_info(bool v5) { return v5 ? "reward_ctrl" : "reward_quadctrl"; }
const char* survive_info(bool v5) { return v5 ? "reward_survive" : "reward_alive"; }

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3 && m->nv >= 6, "the Humanoid model needs a free-floating torso (nq >= 3, nv >= 6)");
  auto spec = make_spec(m, Params(c, v5).obs.size(m),
                        plane_infos({forward_info(v5), ctrl_info(v5), survive_info(v5),
                                     v5 ? "reward_contact" : "forward_reward"}));
  if (v5) {
    for (const char* name : {"tendon_length", "tendon_velocity"}) {
      spec.info.push_back(
          ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {m->ntendon}, .low = {}, .high = {}});
    }
  }
  return spec;
}

class Humanoid final : public MujocoEnv {
 public:
  Humanoid(const Config& c, bool v5) : MujocoEnv(c), v5_(v5), p_(c, v5), info_(spec(m_, c, v5), v5) {
    camera_config_ = {.distance = 4.0, .elevation = -20.0, .azimuth = {}, .lookat = {{0.0, 0.0, 2.0}}};  // gymnasium's
    for (int b = 0; b < m_->nbody; ++b) total_mass_ += m_->body_mass[b];
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform(rng, p_.reset_noise_scale);
    p_.obs.write(m_, d_, out.obs_as<double>());
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
    const bool healthy = p_.healthy_z_min < z && z < p_.healthy_z_max;
    r.forward = p_.forward_reward_weight * r.x_velocity;
    // v4 pays the healthy reward even when unhealthy if that terminates the episode.
    r.survive = ((healthy || (!v5_ && p_.terminate_when_unhealthy)) ? 1.0 : 0.0) * p_.healthy_reward;
    // Both versions charge the control gymnasium stored in data.ctrl (= the action).
    r.ctrl_cost = p_.ctrl_cost_weight * sum_of_squares(d_->ctrl, m_->nu);
    if (v5_) {
      r.contact_cost = clip(p_.contact_cost_weight * sum_of_squares(d_->cfrc_ext, 6 * m_->nbody),
                            p_.contact_cost_min, p_.contact_cost_max);
      *out.reward = (r.forward + r.survive) - (r.ctrl_cost + r.contact_cost);
    } else {
      *out.reward = (r.forward + r.survive) - r.ctrl_cost;
    }
    *out.terminated = p_.terminate_when_unhealthy && !healthy;
    p_.obs.write(m_, d_, out.obs_as<double>());
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
    info_.plane.write(out, x, y, r.x_velocity, r.y_velocity);
    out.put_info(info_.reward_forward, r.forward);
    out.put_info(info_.reward_ctrl, -r.ctrl_cost);
    out.put_info(info_.reward_survive, r.survive);
    out.put_info(info_.reward_contact, -r.contact_cost);
    out.put_info(info_.forward_reward, r.forward);
    if (info_.tendon_length) std::copy_n(d_->ten_length, m_->ntendon, out.info_as<double>(*info_.tendon_length));
    if (info_.tendon_velocity) std::copy_n(d_->ten_velocity, m_->ntendon, out.info_as<double>(*info_.tendon_velocity));
  }

  // Positions of the info entries (v4's names where v5 renamed them); v4 has
  // forward_reward where v5 has reward_contact and the tendons.
  struct Info {
    PlaneInfo plane;
    std::size_t reward_forward, reward_ctrl, reward_survive;
    std::optional<std::size_t> reward_contact, forward_reward, tendon_length, tendon_velocity;
    Info(const EnvSpec& spec, bool v5)
        : plane(spec),
          reward_forward(info_index(spec.info, forward_info(v5))),
          reward_ctrl(info_index(spec.info, ctrl_info(v5))),
          reward_survive(info_index(spec.info, survive_info(v5))),
          reward_contact(find_info(spec.info, "reward_contact")),
          forward_reward(find_info(spec.info, "forward_reward")),
          tendon_length(find_info(spec.info, "tendon_length")),
          tendon_velocity(find_info(spec.info, "tendon_velocity")) {}
  };

  const bool v5_;
  const Params p_;
  const Info info_;
  double total_mass_ = 0.0;
};

std::vector<Option> v4_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"forward_reward_weight", 1.25, "weight of the forward reward"},
      {"ctrl_cost_weight", 0.1, "weight of the control cost"},
      {"healthy_reward", 5.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the torso leaves healthy_z_min..healthy_z_max"},
      {"healthy_z_min", 1.0, "lowest healthy torso height (healthy_z_range[0])", kMayBeInf},
      {"healthy_z_max", 2.0, "highest healthy torso height (healthy_z_range[1])", kMayBeInf},
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
       "the contact cost is clipped below (contact_cost_range[0])", kMayBeInf},
      {"contact_cost_max", 10.0, "the contact cost is clipped above (contact_cost_range[1])", kMayBeInf},
  });
  auto obs = HumanoidObs::include_options();
  options.insert(options.end(), obs.begin(), obs.end());
  return options;
}

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "HumanoidV4",
                       .options = v4_options(),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<Humanoid>(kV4)}) &&
    register_env_type({.name = "HumanoidV5",
                       .options = v5_options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<Humanoid>(kV5)});

}  // namespace rlpool::mujoco
