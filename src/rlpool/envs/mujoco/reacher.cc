// Reacher-v4 and Reacher-v5, as gymnasium 1.4's reacher_v4.py / reacher_v5.py.
#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {
namespace {

// The options (v4 takes none: its weights are fixed), checked; the spec reads
// them too, so that make_spec refuses bad ones.
struct Params {
  double dist_weight, control_weight;

  Params(const Config& c, bool v5)
      : dist_weight(v5 ? c.get_finite("reward_dist_weight") : 1.0),
        control_weight(v5 ? c.get_finite("reward_control_weight") : 1.0) {}
};

EnvSpec spec(const mjModel* m, const Config& c, bool v5) {
  require(m->nq >= 4 && m->nv >= 4, "the Reacher model needs 2 arm joints and the target's 2");
  for (const char* body : {"fingertip", "target"}) body_id(m, body, c.get_string("xml_file"));
  Params(c, v5);  // reads, so checks, the options
  return make_spec(m, 4 + (m->nq - 2) + 2 + (v5 ? 2 : 3), {"reward_dist", "reward_ctrl"});
}

class Reacher final : public MujocoEnv {
 public:
  Reacher(const Config& c, bool v5)
      : MujocoEnv(c),
        v5_(v5),
        p_(c, v5),
        fingertip_(body_id(m_, "fingertip", xml_file_)),
        target_(body_id(m_, "target", xml_file_)),
        info_(spec(m_, c, v5)) {}

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
    out.put_info(info_.reward_dist, 0.0);
    out.put_info(info_.reward_ctrl, 0.0);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    // v4 rewards the state before the step, v5 the state after it.
    if (v5_) do_simulation(action);
    double vec[3];
    fingertip_to_target(vec);
    const double dist = -norm(vec, 3) * p_.dist_weight;
    const double ctrl = -action_sum_of_squares(action) * p_.control_weight;
    if (!v5_) do_simulation(action);
    *out.reward = dist + ctrl;
    *out.terminated = false;
    write_obs(out);
    out.put_info(info_.reward_dist, dist);
    out.put_info(info_.reward_ctrl, ctrl);
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

  // Positions of the info entries.
  struct Info {
    std::size_t reward_dist, reward_ctrl;
    explicit Info(const EnvSpec& spec)
        : reward_dist(info_index(spec.info, "reward_dist")), reward_ctrl(info_index(spec.info, "reward_ctrl")) {}
  };

  const bool v5_;
  const Params p_;
  const int fingertip_, target_;
  const Info info_;
};

std::vector<Option> v5_options() {
  auto options = base_options(2);
  options.insert(options.end(), {
      {"reward_dist_weight", 1.0, "weight of the fingertip-to-target distance"},
      {"reward_control_weight", 1.0, "weight of the control cost"},
  });
  return options;
}

}  // namespace

// gymnasium's v4 takes no task arguments.
static const bool kRegistered =
    register_env_type({.name = "ReacherV4",
                       .options = base_options(2),
                       .spec = model_spec(spec, kV4),
                       .create = make_env<Reacher>(kV4)}) &&
    register_env_type({.name = "ReacherV5",
                       .options = v5_options(),
                       .spec = model_spec(spec, kV5),
                       .create = make_env<Reacher>(kV5)});

}  // namespace rlpool::mujoco
