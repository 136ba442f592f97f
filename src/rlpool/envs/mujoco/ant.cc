// Ant-v4 and Ant-v5, as gymnasium 1.2.2's ant_v4.py / ant_v5.py.
#include <iterator>

#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

std::vector<Option> common_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"ctrl_cost_weight", 0.5, "weight of the control cost"},
      {"contact_cost_weight", 5e-4, "weight of the contact cost"},
      {"healthy_reward", 1.0, "reward per step while healthy"},
      {"terminate_when_unhealthy", true, "terminate when the torso leaves healthy_z_min..healthy_z_max"},
      {"healthy_z_min", 0.2, "lowest healthy torso height (gymnasium's healthy_z_range[0])"},
      {"healthy_z_max", 1.0, "highest healthy torso height (gymnasium's healthy_z_range[1])"},
      {"contact_force_min", -1.0, "contact forces are clipped below (contact_force_range[0])"},
      {"contact_force_max", 1.0, "contact forces are clipped above (contact_force_range[1])"},
      {"reset_noise_scale", 0.1, "qpos + U(-s, s), qvel + s * N(0, 1) at reset"},
      {"exclude_current_positions_from_observation", true, "leave the torso's x, y out of the observation"},
  });
  return options;
}

class Ant final : public MujocoEnv {
 public:
  Ant(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        ctrl_cost_weight_(c.get_double("ctrl_cost_weight")),
        contact_cost_weight_(c.get_double("contact_cost_weight")),
        healthy_reward_(c.get_double("healthy_reward")),
        terminate_when_unhealthy_(c.get_bool("terminate_when_unhealthy")),
        healthy_z_min_(c.get_double("healthy_z_min")),
        healthy_z_max_(c.get_double("healthy_z_max")),
        contact_force_min_(c.get_double("contact_force_min")),
        contact_force_max_(c.get_double("contact_force_max")),
        reset_noise_scale_(c.get_double("reset_noise_scale")),
        exclude_positions_(c.get_bool("exclude_current_positions_from_observation")),
        forward_reward_weight_(v5 ? c.get_double("forward_reward_weight") : 1.0),
        contact_forces_in_obs_(v5 ? c.get_bool("include_cfrc_ext_in_observation") : c.get_bool("use_contact_forces")),
        use_contact_cost_(v5 || c.get_bool("use_contact_forces")),
        main_body_(v5 ? static_cast<int>(c.get_int("main_body")) : body_id(m_, "torso", xml_file_)) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    reset_uniform_normal(rng, reset_noise_scale_);
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
    r.forward = v5_ ? r.x_velocity * forward_reward_weight_ : r.x_velocity;
    // v4 pays the healthy reward even when unhealthy if that terminates the episode.
    r.survive = v5_ ? (healthy ? healthy_reward_ : 0.0)
                    : ((healthy || terminate_when_unhealthy_) ? 1.0 : 0.0) * healthy_reward_;
    r.ctrl_cost = ctrl_cost_weight_ * action_sum_of_squares(action);
    r.contact_cost = use_contact_cost_ ? contact_cost() : 0.0;
    *out.reward = (r.forward + r.survive) - (r.ctrl_cost + r.contact_cost);
    *out.terminated = terminate_when_unhealthy_ && !healthy;
    write_obs(out);
    write_info(out, r, xpos);
  }

 private:
  struct Rewards {
    double x_velocity = 0, y_velocity = 0, forward = 0, survive = 0, ctrl_cost = 0, contact_cost = 0;
  };

  bool is_healthy() const {
    const double z = d_->qpos[2];
    return state_is_finite() && healthy_z_min_ <= z && z <= healthy_z_max_;
  }

  double contact_cost() const {
    double s = 0.0;
    for (int i = 0; i < 6 * m_->nbody; ++i) s += square(clip(d_->cfrc_ext[i], contact_force_min_, contact_force_max_));
    return contact_cost_weight_ * s;
  }

  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    const int skip = exclude_positions_ ? 2 : 0;
    w.put(d_->qpos + skip, m_->nq - skip);
    w.put(d_->qvel, m_->nv);
    if (contact_forces_in_obs_) {
      // v4 includes the world body's row, v5 leaves it out.
      const int first = v5_ ? 1 : 0;
      w.put_clipped(d_->cfrc_ext + 6 * first, 6 * (m_->nbody - first), contact_force_min_, contact_force_max_);
    }
  }

  void write_info(const Output& out, const Rewards& r, const double* xpos) const {
    // v4 reports the torso's position, v5 the free joint's qpos.
    const double x = v5_ ? d_->qpos[0] : xpos[0];
    const double y = v5_ ? d_->qpos[1] : xpos[1];
    const double values[] = {
        x,
        y,
        std::sqrt(x * x + y * y),
        r.x_velocity,
        r.y_velocity,
        r.forward,
        // gymnasium's v4 reports the contact cost as reward_ctrl when use_contact_forces is set.
        !v5_ && use_contact_cost_ ? -r.contact_cost : -r.ctrl_cost,
        r.survive,
        v5_ ? -r.contact_cost : r.forward,  // v5: reward_contact; v4: forward_reward
    };
    for (std::size_t i = 0; i < std::size(values); ++i) *out.info_as<double>(i) = values[i];
  }

  const bool v5_;
  const double ctrl_cost_weight_, contact_cost_weight_, healthy_reward_;
  const bool terminate_when_unhealthy_;
  const double healthy_z_min_, healthy_z_max_, contact_force_min_, contact_force_max_, reset_noise_scale_;
  const bool exclude_positions_;
  const double forward_reward_weight_;
  const bool contact_forces_in_obs_, use_contact_cost_;
  const int main_body_;
};

const std::vector<std::string> kInfoNames = {"x_position", "y_position",    "distance_from_origin",
                                             "x_velocity", "y_velocity",    "reward_forward",
                                             "reward_ctrl", "reward_survive"};

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 3 && m->nbody >= 2, "the Ant model needs a free-floating torso (nq >= 3)");
  const bool exclude = c.get_bool("exclude_current_positions_from_observation");
  const bool contact = v5 ? c.get_bool("include_cfrc_ext_in_observation") : c.get_bool("use_contact_forces");
  std::int64_t size = m->nq - (exclude ? 2 : 0) + m->nv;
  if (contact) size += 6 * (m->nbody - (v5 ? 1 : 0));
  auto infos = kInfoNames;
  infos.push_back(v5 ? "reward_contact" : "forward_reward");
  if (v5) {
    const auto main_body = c.get_int("main_body");
    require(main_body >= 0 && main_body < m->nbody,
            "main_body must be a body id in [0, " + std::to_string(m->nbody) + "), got " + std::to_string(main_body));
  } else {
    body_id(m, "torso", c.get_string("xml_file"));
  }
  return make_spec(m, size, infos);
}

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
    register_env_type(env_type<Ant>(
        "AntV4", v4_options(), [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<Ant>(
        "AntV5", v5_options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
