// Pusher-v4 and Pusher-v5, as gymnasium 1.2.2's pusher_v4.py / pusher_v5.py.
//
// gymnasium refuses Pusher-v4 on MuJoCo >= 3 (its pusher.xml behaves differently
// there, Gymnasium issue #950); rlpool runs gymnasium's v4 rules on the MuJoCo
// it is built with, so v4 episodes differ from those recorded on MuJoCo 2.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class Pusher final : public MujocoEnv {
 public:
  Pusher(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        near_weight_(v5 ? c.get_double("reward_near_weight") : 0.5),
        dist_weight_(v5 ? c.get_double("reward_dist_weight") : 1.0),
        control_weight_(v5 ? c.get_double("reward_control_weight") : 0.1),
        tips_arm_(body_id(m_, "tips_arm", xml_file_)),
        object_(body_id(m_, "object", xml_file_)),
        goal_(body_id(m_, "goal", xml_file_)) {}

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
    for (int i = 0; i < (v5_ ? 3 : 2); ++i) *out.info_as<double>(i) = 0.0;
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
      near = -norm(arm, 3) * near_weight_;
      dist = -norm(goal, 3) * dist_weight_;
      reward = dist + ctrl * control_weight_ + near;
    } else {
      near = -norm(arm, 3);
      dist = -norm(goal, 3);
      reward = dist + control_weight_ * ctrl + near_weight_ * near;
      do_simulation(action);
    }
    *out.reward = reward;
    *out.terminated = false;
    write_obs(out);
    *out.info_as<double>(0) = dist;
    *out.info_as<double>(1) = v5_ ? ctrl * control_weight_ : ctrl;
    if (v5_) *out.info_as<double>(2) = near;
  }

 private:
  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    w.put(d_->qpos, 7);
    w.put(d_->qvel, 7);
    w.put(d_->xpos + 3 * tips_arm_, 3);
    w.put(d_->xpos + 3 * object_, 3);
    w.put(d_->xpos + 3 * goal_, 3);
  }

  const bool v5_;
  const double near_weight_, dist_weight_, control_weight_;
  const int tips_arm_, object_, goal_;
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

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 11 && m->nv >= 11, "the Pusher model needs 7 arm joints and the object's and goal's 2 each");
  for (const char* body : {"tips_arm", "object", "goal"}) body_id(m, body, c.get_string("xml_file"));
  return make_spec(m, 23,
                   v5 ? std::vector<std::string>{"reward_dist", "reward_ctrl", "reward_near"}
                      : std::vector<std::string>{"reward_dist", "reward_ctrl"});
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type(env_type<Pusher>(
        "PusherV4", base_options(5), [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<Pusher>(
        "PusherV5", v5_options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
