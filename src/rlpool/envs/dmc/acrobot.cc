// Acrobot domain (tasks: swingup, swingup_sparse), as dm_control 1.0.50's suite/acrobot.py.
#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Row-major xmat entries: 'xz' (horizontal part of the body's z-axis) and 'zz' (vertical).
constexpr int kXz = 2;
constexpr int kZz = 8;
const std::vector<std::string> kTasks = {"swingup", "swingup_sparse"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"orientations", {4}}, {"velocity", {m->nv}}});
}

class Acrobot final : public DmcEnv {
 public:
  explicit Acrobot(const Config& c)
      : DmcEnv(c, 1),
        sparse_(task_name(c, kTasks) == "swingup_sparse"),
        upper_arm_(id(mjOBJ_BODY, "upper_arm")),
        lower_arm_(id(mjOBJ_BODY, "lower_arm")),
        shoulder_(m_->jnt_qposadr[id(mjOBJ_JOINT, "shoulder")]),
        elbow_(m_->jnt_qposadr[id(mjOBJ_JOINT, "elbow")]),
        target_(id(mjOBJ_SITE, "target")),
        tip_(id(mjOBJ_SITE, "tip")) {}

 private:
  // Balance.initialize_episode: shoulder and elbow uniform in [-pi, pi).
  void initialize_episode(Rng& rng) override {
    d_->qpos[shoulder_] = rng.uniform(-kPi, kPi);
    d_->qpos[elbow_] = rng.uniform(-kPi, kPi);
  }

  // Physics.to_target: distance from the tip to the target.
  double to_target() const {
    const double* a = d_->site_xpos + 3 * target_;
    const double* b = d_->site_xpos + 3 * tip_;
    const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return std::sqrt(dx * dx + dy * dy + dz * dz);
  }

  double get_reward() override {
    const double radius = m_->site_size[3 * target_];
    return tolerance(to_target(), 0.0, radius, sparse_ ? 0.0 : 1.0);
  }

  void get_observation(ObsWriter& w) override {
    // Physics.orientations: horizontal() then vertical() of both arms.
    w.next()
        .put(xmat(upper_arm_)[kXz])
        .put(xmat(lower_arm_)[kXz])
        .put(xmat(upper_arm_)[kZz])
        .put(xmat(lower_arm_)[kZz]);
    w.next().put(d_->qvel, m_->nv);
  }

  const bool sparse_;
  const int upper_arm_, lower_arm_, shoulder_, elbow_, target_, tip_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcAcrobot",
                                                   .options = base_options("swingup"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Acrobot>()});

}  // namespace rlpool::dmc
