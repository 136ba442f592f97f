// Pendulum domain (task: swingup), as dm_control 1.0.50's suite/pendulum.py.
#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kPi = 3.14159265358979323846;
// _COSINE_BOUND = cos(deg2rad(8)).
const double kCosineBound = std::cos(8.0 * kPi / 180.0);
// Row-major xmat entries 'xz' and 'zz'.
constexpr int kXz = 2;
constexpr int kZz = 8;
const std::vector<std::string> kTasks = {"swingup"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"orientation", {2}}, {"velocity", {1}}});
}

class Pendulum final : public DmcEnv {
 public:
  explicit Pendulum(const Config& c)
      : DmcEnv(c, 1), pole_(id(mjOBJ_BODY, "pole")), hinge_(id(mjOBJ_JOINT, "hinge")) {
    task_name(c, kTasks);
  }

 private:
  // SwingUp.initialize_episode: pole angle uniform in [-pi, pi).
  void initialize_episode(Rng& rng) override { d_->qpos[m_->jnt_qposadr[hinge_]] = rng.uniform(-kPi, kPi); }

  double get_reward() override { return tolerance(xmat(pole_)[kZz], kCosineBound, 1.0); }

  void get_observation(ObsWriter& w) override {
    w.next().put(xmat(pole_)[kZz]).put(xmat(pole_)[kXz]);  // pole_orientation: ['zz', 'xz']
    w.next().put(d_->qvel[m_->jnt_dofadr[hinge_]]);
  }

  const int pole_, hinge_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcPendulum",
                                                   .options = base_options("swingup"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Pendulum>()});

}  // namespace rlpool::dmc
