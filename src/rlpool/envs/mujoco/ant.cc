// Ant-v4 and Ant-v5, as gymnasium 1.4's ant_v4.py / ant_v5.py.
#include <optional>

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

// The options, checked; the spec reads them too, so that make_spec refuses bad ones.
struct Params {
  double ctrl_cost_weight, contact_cost_weight, healthy_reward;
  bool terminate_when_unhealthy;
  double healthy_z_min, healthy_z_max, contact_force_min, contact_force_max, reset_noise_scale;
  bool exclude_positions;
  double forward_reward_weight;
  bool contact_forces_in_obs, use_contact_cost;

  Params(const Config& c, bool v5)
      : ctrl_cost_weight(c.get_finite("ctrl_cost_weight")),
        contact_cost_weight(c.get_finite("contact_cost_weight")),
        healthy_reward(c.get_finite("healthy_reward")),
        terminate_when_unhealthy(c.get_bool("terminate_when_unhealthy")),
        healthy_z_min(c.get_bound("healthy_z_min")),
        healthy_z_max(c.get_bound("healthy_z_max")),
        contact_force_min(c.get_bound("contact_force_min")),
        contact_force_max(c.get_bound("contact_force_max")),
        reset_noise_scale(c.get_finite("reset_noise_scale")),
        exclude_positions(c.get_bool("exclude_current_positions_from_observation")),
        forward_reward_weight(v5 ? c.get_finite("forward_reward_weight") : 1.0),
        contact_forces_in_obs(v5 ? c.get_bool("include_cfrc_ext_in_observation") : c.get_bool("use_contact_forces")),
        use_contact_cost(v5 || c.get_bool("use_contact_forces")) {}
};

// The body whose motion is rewarded: v5's main_body option, v4's torso.
int main_body(const mjModel* m, const Config& c, bool v5) {
  if (v5) return static_cast<int>(c.get_int_in("main_body", 0, m->nbody - 1));
  return body_id(m, "torso", c.get_string("xml_file"));
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3 && m->nbody >= 2, "the Ant model needs a free-floating torso (nq >= 3)");
  const Params p(c, v5);
  std::int64_t size = m->nq - (p.exclude_positions ? 2 : 0) + m->nv;
  if (p.contact_forces_in_obs) size += 6 * (m->nbody - (v5 ? 1 : 0));
  main_body(m, c, v5);
  return make_spec(m, size,
                   plane_infos({"reward_forward", "reward_ctrl", "reward_survive",
                                v5 ? "reward_contact" : "forward_reward"}));
}

std::vector<Option> common_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"ctrl_cost_weight", 0.5, "weight of the control cost"},
      {"contact_cost_weight", 5e-4, "weight of the contact cost"},
      {"healthy_reward", 1.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the torso leaves healthy_z_min..healthy_z_max"},
      {"healthy_z_min", 0.2, "lowest healthy torso height (gymnasium's healthy_z_range[0])", kMayBeInf},
      {"healthy_z_max", 1.0, "highest healthy torso height (gymnasium's healthy_z_range[1])", kMayBeInf},
      {"contact_force_min", -1.0, "contact forces are clipped below (contact_force_range[0])", kMayBeInf},
      {"contact_force_max", 1.0, "contact forces are clipped above (contact_force_range[1])", kMayBeInf},
      {"reset_noise_scale", 0.1, "qpos + U(-s, s), qvel + s * N(0, 1) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the torso's x, y out of the observation"},
  });
  return options;
}

class Ant final : public MujocoEnv {
 public:
  Ant(const Config& c, bool v5)
      : MujocoEnv(c), v5_(v5), p_(c, v5), main_body_(main_body(m_, c, v5)), info_(spec(m_, c, v5)) {
    camera_config_.distance = 4.0;  // gymnasium's DEFAULT_CAMERA_CONFIG
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform_normal(rng, p_.reset_noise_scale);
    write_obs(out);
    write_info(out, Rewards{}, d_->xpos + 3 * main_body_);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    const double* xpos = d_->xpos + 3 * main_body_;
    const double x_before = xpos[0];
    const double y_before = xpos[1];
    do_simulation(action);
    Rewards r;
    r.x_velocity = (xpos[0] - x_before) / dt();
    r.y_velocity = (xpos[1] - y_before) / dt();
    const bool healthy = is_healthy();
    r.forward = v5_ ? r.x_velocity * p_.forward_reward_weight : r.x_velocity;
    // v4 pays the healthy reward even when unhealthy if that terminates the episode.
    r.survive = v5_ ? (healthy ? p_.healthy_reward : 0.0)
                    : ((healthy || p_.terminate_when_unhealthy) ? 1.0 : 0.0) * p_.healthy_reward;
    r.ctrl_cost = p_.ctrl_cost_weight * action_sum_of_squares(action);
    r.contact_cost = p_.use_contact_cost ? contact_cost() : 0.0;
    *out.reward = (r.forward + r.survive) - (r.ctrl_cost + r.contact_cost);
    *out.terminated = p_.terminate_when_unhealthy && !healthy;
    write_obs(out);
    write_info(out, r, xpos);
  }

 private:
  struct Rewards {
    double x_velocity = 0, y_velocity = 0, forward = 0, survive = 0, ctrl_cost = 0, contact_cost = 0;
  };

  bool is_healthy() const {
    const double z = d_->qpos[2];
    return state_is_finite() && p_.healthy_z_min <= z && z <= p_.healthy_z_max;
  }

  double contact_cost() const {
    double s = 0.0;
    for (int i = 0; i < 6 * m_->nbody; ++i) {
      s += square(clip(d_->cfrc_ext[i], p_.contact_force_min, p_.contact_force_max));
    }
    return p_.contact_cost_weight * s;
  }

  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    const int skip = p_.exclude_positions ? 2 : 0;
    w.put(d_->qpos + skip, m_->nq - skip);
    w.put(d_->qvel, m_->nv);
    if (p_.contact_forces_in_obs) {
      // v4 includes the world body's row, v5 leaves it out.
      const int first = v5_ ? 1 : 0;
      w.put_clipped(d_->cfrc_ext + 6 * first, 6 * (m_->nbody - first), p_.contact_force_min, p_.contact_force_max);
    }
  }

  void write_info(const Output& out, const Rewards& r, const double* xpos) const {
    // v4 reports the torso's position, v5 the free joint's qpos.
    const double x = v5_ ? d_->qpos[0] : xpos[0];
    const double y = v5_ ? d_->qpos[1] : xpos[1];
    info_.plane.write(out, x, y, r.x_velocity, r.y_velocity);
    out.put_info(info_.reward_forward, r.forward);
    // gymnasium's v4 reports the contact cost as reward_ctrl when use_contact_forces is set.
    out.put_info(info_.reward_ctrl, !v5_ && p_.use_contact_cost ? -r.contact_cost : -r.ctrl_cost);
    out.put_info(info_.reward_survive, r.survive);
    out.put_info(info_.reward_contact, -r.contact_cost);
    out.put_info(info_.forward_reward, r.forward);
  }

  // Positions of the info entries; the last is reward_contact in v5, forward_reward in v4.
  struct Info {
    PlaneInfo plane;
    std::size_t reward_forward, reward_ctrl, reward_survive;
    std::optional<std::size_t> reward_contact, forward_reward;
    explicit Info(const EnvSpec& spec)
        : plane(spec),
          reward_forward(info_index(spec.info, "reward_forward")),
          reward_ctrl(info_index(spec.info, "reward_ctrl")),
          reward_survive(info_index(spec.info, "reward_survive")),
          reward_contact(find_info(spec.info, "reward_contact")),
          forward_reward(find_info(spec.info, "forward_reward")) {}
  };

  const bool v5_;
  const Params p_;
  const int main_body_;
  const Info info_;
};

std::vector<Option> v4_options() {
  auto options = common_options();
  options.push_back({"use_contact_forces", false, "add clipped contact forces to the observation and a contact cost"});
  return options;
}

std::vector<Option> v5_options() {
  auto options = common_options();
  options.insert(options.end(), {
      {"forward_reward_weight", 1.0, "weight of the forward reward"},
      {"main_body", std::int64_t{1}, "id of the body whose x, y velocity is rewarded"},
      {"include_cfrc_ext_in_observation", true, "add the clipped contact forces of the bodies to the observation"},
  });
  return options;
}

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "AntV4",
                       .options = v4_options(),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<Ant>(kV4)}) &&
    register_env_type({.name = "AntV5",
                       .options = v5_options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<Ant>(kV5)});

}  // namespace rlpool::mujoco
