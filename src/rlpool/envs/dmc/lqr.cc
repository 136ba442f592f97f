// LQR domain (tasks: lqr_2_1, lqr_6_2), as dm_control 1.0.50's suite/lqr.py.
//
// dm_control draws each joint's stiffness uniform(15, 25) (damping 0) when it
// builds the model from its random seed; the shared model here is the one
// built with random=0, so each episode draws its own stiffness instead (task
// state, so that get_state/set_state carry it). There is no time limit (the
// registration's); the episode ends when the state norm is tiny.
#include <cmath>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

const std::vector<std::string> kTasks = {"lqr_2_1", "lqr_6_2"};
constexpr double kControlCostCoef = 0.1;
constexpr double kStiffnessLow = 15.0;
constexpr double kStiffnessHigh = 25.0;
// LQRLevel._TERMINAL_TOL.
constexpr double kTerminalTol = 1e-6;

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"position", {m->nq}}, {"velocity", {m->nv}}});
}

class Lqr final : public DmcEnv {
 public:
  explicit Lqr(const Config& c) : DmcEnv(c, 1, kWritesModel) {
    task_name(c, kTasks);
    add_task_state(m_->jnt_stiffness, m_->njnt);
  }

 private:
  void initialize_episode(Rng& rng) override {
    // _make_model's per-joint stiffness (the model's, drawn per episode here).
    for (int j = 0; j < m_->njnt; ++j) m_->jnt_stiffness[j] = rng.uniform(kStiffnessLow, kStiffnessHigh);
    // A random state on the sphere of radius sqrt(2).
    double norm2 = 0.0;
    for (int i = 0; i < m_->nq; ++i) {
      d_->qpos[i] = rng.normal();
      norm2 += d_->qpos[i] * d_->qpos[i];
    }
    const double scale = std::sqrt(2.0) / std::sqrt(norm2);
    for (int i = 0; i < m_->nq; ++i) d_->qpos[i] *= scale;
  }

  double get_reward() override {
    double state_cost = 0.0;
    for (int i = 0; i < m_->nq; ++i) state_cost += d_->qpos[i] * d_->qpos[i];
    double control_cost = 0.0;
    for (int i = 0; i < m_->nu; ++i) control_cost += d_->ctrl[i] * d_->ctrl[i];
    return 1 - (0.5 * state_cost + 0.5 * control_cost * kControlCostCoef);
  }

  void get_observation(ObsWriter& w) override {
    w.next().put(d_->qpos, m_->nq);
    w.next().put(d_->qvel, m_->nv);
  }

  std::optional<double> get_termination() override {
    // Physics.state_norm: the norm of (qpos, qvel, act).
    double norm2 = 0.0;
    for (int i = 0; i < m_->nq; ++i) norm2 += d_->qpos[i] * d_->qpos[i];
    for (int i = 0; i < m_->nv; ++i) norm2 += d_->qvel[i] * d_->qvel[i];
    for (int i = 0; i < m_->na; ++i) norm2 += d_->act[i] * d_->act[i];
    if (std::sqrt(norm2) < kTerminalTol) return 0.0;
    return std::nullopt;
  }
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcLqr", .options = base_options("lqr_2_1"), .spec = model_spec(spec), .create = make_env<Lqr>()});

}  // namespace rlpool::dmc
