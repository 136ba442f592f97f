// Pusher-v4 and Pusher-v5, as gymnasium 1.4's pusher_v4.py / pusher_v5.py.
//
// gymnasium refuses Pusher-v4 on MuJoCo >= 3 (its pusher.xml behaves differently
// there, Gymnasium issue #950); rlpool runs gymnasium's v4 rules on the MuJoCo
// it is built with, so v4 episodes differ from those recorded on MuJoCo 2.
#include <optional>

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

// The options (v4 takes none: its weights are fixed), checked; the spec reads
// them too, so that make_spec refuses bad ones.
struct Params {
  double near_weight, dist_weight, control_weight;

  Params(const Config& c, bool v5)
      : near_weight(v5 ? c.get_finite("reward_near_weight") : 0.5),
        dist_weight(v5 ? c.get_finite("reward_dist_weight") : 1.0),
        control_weight(v5 ? c.get_finite("reward_control_weight") : 0.1) {}
};

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 11 && m->nv >= 11, "the Pusher model needs 7 arm joints and the object's and goal's 2 each");
  for (const char* body : {"tips_arm", "object", "goal"}) body_id(m, body, c.get_string("xml_file"));
  Params(c, v5);  // reads, so checks, the options
  return make_spec(m, 23,
                   v5 ? std::vector<std::string>{"reward_dist", "reward_ctrl", "reward_near"}
                      : std::vector<std::string>{"reward_dist", "reward_ctrl"});
}

class Pusher final : public MujocoEnv {
 public:
  Pusher(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        p_(c, v5),
        tips_arm_(body_id(m_, "tips_arm", xml_file_)),
        object_(body_id(m_, "object", xml_file_)),
        goal_(body_id(m_, "goal", xml_file_)),
        info_(spec(m_, c, v5)) {
    camera_config_.distance = 4.0;  // gymnasium's DEFAULT_CAMERA_CONFIG
  }

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    double* qpos = scratch_.data();
    double* qvel = qpos + m_->nq;
    std::copy(init_qpos_.begin(), init_qpos_.end(), qpos);
    // The cylinder anywhere in [-0.3, 0] x [-0.2, 0.2] more than 0.17 from the goal at the origin.
    double cx, cy;
    do {
      cx = rng.uniform(-0.3, 0.0);
      cy = rng.uniform(-0.2, 0.2);
    } while (!(std::sqrt(cx * cx + cy * cy) > 0.17));
    qpos[m_->nq - 4] = cx;
    qpos[m_->nq - 3] = cy;
    qpos[m_->nq - 2] = 0.0;
    qpos[m_->nq - 1] = 0.0;
    for (int i = 0; i < m_->nv; ++i) qvel[i] = init_qvel_[static_cast<std::size_t>(i)] + rng.uniform(-0.005, 0.005);
    for (int i = m_->nv - 4; i < m_->nv; ++i) qvel[i] = 0.0;
    set_qpos_qvel(qpos, qvel);
    write_obs(out);
    write_info(out, 0.0, 0.0, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    // v4 rewards the state before the step, v5 the state after it.
    if (v5_) do_simulation(action);
    double arm[3], goal[3];
    const double* object = d_->xpos + 3 * object_;
    for (int k = 0; k < 3; ++k) {
      arm[k] = object[k] - d_->xpos[3 * tips_arm_ + k];
      goal[k] = object[k] - d_->xpos[3 * goal_ + k];
    }
    const double ctrl = -action_sum_of_squares(action);
    double near, dist, reward;
    if (v5_) {
      near = -norm(arm, 3) * p_.near_weight;
      dist = -norm(goal, 3) * p_.dist_weight;
      reward = dist + ctrl * p_.control_weight + near;
    } else {
      near = -norm(arm, 3);
      dist = -norm(goal, 3);
      reward = dist + p_.control_weight * ctrl + p_.near_weight * near;
      do_simulation(action);
    }
    *out.reward = reward;
    *out.terminated = false;
    write_obs(out);
    write_info(out, dist, v5_ ? ctrl * p_.control_weight : ctrl, near);
  }

 private:
  void write_info(const Output& out, double dist, double ctrl, double near) const {
    out.put_info(info_.reward_dist, dist);
    out.put_info(info_.reward_ctrl, ctrl);
    out.put_info(info_.reward_near, near);
  }

  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos, 7);
    w.put(d_->qvel, 7);
    w.put(d_->xpos + 3 * tips_arm_, 3);
    w.put(d_->xpos + 3 * object_, 3);
    w.put(d_->xpos + 3 * goal_, 3);
  }

  // Positions of the info entries; v5 adds reward_near.
  struct Info {
    std::size_t reward_dist, reward_ctrl;
    std::optional<std::size_t> reward_near;
    explicit Info(const EnvSpec& spec)
        : reward_dist(info_index(spec.info, "reward_dist")),
          reward_ctrl(info_index(spec.info, "reward_ctrl")),
          reward_near(find_info(spec.info, "reward_near")) {}
  };

  const bool v5_;
  const Params p_;
  const int tips_arm_, object_, goal_;
  const Info info_;
};

std::vector<Option> v5_options() {
  auto options = base_options(5);
  options.insert(options.end(), {
      {"reward_near_weight", 0.5, "weight of the arm-to-object distance"},
      {"reward_dist_weight", 1.0, "weight of the object-to-goal distance"},
      {"reward_control_weight", 0.1, "weight of the control cost"},
  });
  return options;
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type({.name = "PusherV4",
                       .options = base_options(5),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<Pusher>(kV4)}) &&
    register_env_type({.name = "PusherV5",
                       .options = v5_options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<Pusher>(kV5)});

}  // namespace rlpool::mujoco
