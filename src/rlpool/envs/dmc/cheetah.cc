// Cheetah domain (task: run), as dm_control 1.0.50's suite/cheetah.py.
#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kRunSpeed = 10.0;
const std::vector<std::string> kTasks = {"run"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"position", {m->nq - 1}}, {"velocity", {m->nv}}});
}

class Cheetah final : public DmcEnv {
 public:
  explicit Cheetah(const Config& c) : DmcEnv(c, 1), speed_(id(mjOBJ_SENSOR, "torso_subtreelinvel")) { task_name(c, kTasks); }

 private:
  void initialize_episode(Rng& rng) override {
    // Limited joints uniform in their range, then 200 steps to settle.
    for (int j = 0; j < m_->njnt; ++j) {
      if (m_->jnt_limited[j]) d_->qpos[m_->jnt_qposadr[j]] = rng.uniform(m_->jnt_range[2 * j], m_->jnt_range[2 * j + 1]);
    }
    physics_step(200);
    d_->time = 0.0;
  }

  double get_reward() override {
    return tolerance(sensor(speed_)[0], kRunSpeed, INFINITY, kRunSpeed, Sigmoid::kLinear, 0.0);
  }

  void get_observation(ObsWriter& w) override {
    w.next().put(d_->qpos + 1, m_->nq - 1);
    w.next().put(d_->qvel, m_->nv);
  }

  const int speed_;
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcCheetah", .options = base_options("run"), .spec = model_spec(spec), .create = make_env<Cheetah>()});

}  // namespace rlpool::dmc
