// Reacher-v4 and Reacher-v5, as gymnasium 1.2.2's reacher_v4.py / reacher_v5.py.
#include "mujoco_env.h"

namespace rlpool::mujoco {
namespace {

class Reacher final : public MujocoEnv {
 public:
  Reacher(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        dist_weight_(v5 ? c.get_double("reward_dist_weight") : 1.0),
        control_weight_(v5 ? c.get_double("reward_control_weight") : 1.0),
        fingertip_(body_id(m_, "fingertip", xml_file_)),
        target_(body_id(m_, "target", xml_file_)) {}

  void reset(Rng& rng, const Output& out) override {
    reset_data();
    double* qpos = scratch_.data();
    double* qvel = qpos + m_->nq;
    for (int i = 0; i < m_->nq; ++i) qpos[i] = rng.uniform(-0.1, 0.1) + init_qpos_[static_cast<std::size_t>(i)];
    // The target anywhere in the disc of radius 0.2.
    double gx, gy;
    do {
      gx = rng.uniform(-0.2, 0.2);
      gy = rng.uniform(-0.2, 0.2);
    } while (!(std::sqrt(gx * gx + gy * gy) < 0.2));
    qpos[m_->nq - 2] = gx;
    qpos[m_->nq - 1] = gy;
    for (int i = 0; i < m_->nv; ++i) qvel[i] = init_qvel_[static_cast<std::size_t>(i)] + rng.uniform(-0.005, 0.005);
    qvel[m_->nv - 2] = 0.0;
    qvel[m_->nv - 1] = 0.0;
    set_qpos_qvel(qpos, qvel);
    write_obs(out);
    *out.info_as<double>(0) = 0.0;
    *out.info_as<double>(1) = 0.0;
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    // v4 rewards the state before the step, v5 the state after it.
    if (v5_) do_simulation(action);
    double vec[3];
    fingertip_to_target(vec);
    const double dist = -norm(vec, 3) * dist_weight_;
    const double ctrl = -action_sum_of_squares(action) * control_weight_;
    if (!v5_) do_simulation(action);
    *out.reward = dist + ctrl;
    *out.terminated = false;
    write_obs(out);
    *out.info_as<double>(0) = dist;
    *out.info_as<double>(1) = ctrl;
  }

 private:
  void fingertip_to_target(double* vec) const {
    for (int k = 0; k < 3; ++k) vec[k] = d_->xpos[3 * fingertip_ + k] - d_->xpos[3 * target_ + k];
  }

  void write_obs(const Output& out) const {
    ObsWriter w(out.obs_as<double>());
    w.put(std::cos(d_->qpos[0]));
    w.put(std::cos(d_->qpos[1]));
    w.put(std::sin(d_->qpos[0]));
    w.put(std::sin(d_->qpos[1]));
    w.put(d_->qpos + 2, m_->nq - 2);
    w.put(d_->qvel, 2);
    double vec[3];
    fingertip_to_target(vec);
    // v4 observes the whole vector, v5 its x and y.
    w.put(vec, v5_ ? 2 : 3);
  }

  const bool v5_;
  const double dist_weight_, control_weight_;
  const int fingertip_, target_;
};

std::vector<Option> v5_options() {
  auto options = base_options(2);
  options.insert(options.end(), {
      {"reward_dist_weight", 1.0, "weight of the fingertip-to-target distance"},
      {"reward_control_weight", 1.0, "weight of the control cost"},
  });
  return options;
}

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 4 && m->nv >= 4, "the Reacher model needs 2 arm joints and the target's 2");
  for (const char* body : {"fingertip", "target"}) body_id(m, body, c.get_string("xml_file"));
  return make_spec(m, 4 + (m->nq - 2) + 2 + (v5 ? 2 : 3), {"reward_dist", "reward_ctrl"});
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type(env_type<Reacher>(
        "ReacherV4", base_options(2), [](const mjModel* m, const Config& c) { return spec(m, c, false); }, false)) &&
    register_env_type(env_type<Reacher>(
        "ReacherV5", v5_options(), [](const mjModel* m, const Config& c) { return spec(m, c, true); }, true));

}  // namespace rlpool::mujoco
