// Ball-in-Cup domain (task: catch), as dm_control 1.0.50's suite/ball_in_cup.py.
#include <cmath>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

const std::vector<std::string> kTasks = {"catch"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"position", {m->nq}}, {"velocity", {m->nv}}});
}

class BallInCup final : public DmcEnv {
 public:
  explicit BallInCup(const Config& c)
      : DmcEnv(c, 10),
        ball_x_(m_->jnt_qposadr[id(mjOBJ_JOINT, "ball_x")]),
        ball_z_(m_->jnt_qposadr[id(mjOBJ_JOINT, "ball_z")]),
        target_(id(mjOBJ_SITE, "target")),
        ball_body_(id(mjOBJ_BODY, "ball")),
        ball_geom_(id(mjOBJ_GEOM, "ball")) {
    task_name(c, kTasks);
  }

 private:
  void initialize_episode(Rng& rng) override {
    // Rejection sampling: a random ball position until nothing penetrates.
    bool penetrating = true;
    while (penetrating) {
      d_->qpos[ball_x_] = rng.uniform(-0.2, 0.2);
      d_->qpos[ball_z_] = rng.uniform(0.2, 0.5);
      after_reset();
      penetrating = d_->ncon > 0;
    }
  }

  // Physics.in_target: the ball inside the target box (x and z).
  double get_reward() override {
    const double* site = d_->site_xpos + 3 * target_;
    const double* ball = xpos(ball_body_);
    const double ball_size = m_->geom_size[3 * ball_geom_];
    const double dx = std::abs(site[0] - ball[0]);
    const double dz = std::abs(site[2] - ball[2]);
    const bool in = dx < m_->site_size[3 * target_] - ball_size && dz < m_->site_size[3 * target_ + 2] - ball_size;
    return in ? 1.0 : 0.0;
  }

  void get_observation(ObsWriter& w) override {
    w.next().put(d_->qpos, m_->nq);
    w.next().put(d_->qvel, m_->nv);
  }

  const int ball_x_, ball_z_, target_, ball_body_, ball_geom_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcBallInCup",
                                                   .options = base_options("catch"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<BallInCup>()});

}  // namespace rlpool::dmc
