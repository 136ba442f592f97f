// Point-mass domain (tasks: easy, hard), as dm_control 1.0.50's suite/point_mass.py.
#include <stdexcept>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

const std::vector<std::string> kTasks = {"easy", "hard"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"position", {m->nq}}, {"velocity", {m->nv}}});
}

class PointMass final : public DmcEnv {
 public:
  explicit PointMass(const Config& c)
      : DmcEnv(c, 1, kWritesModel),
        randomize_gains_(task_name(c, kTasks) == "hard"),
        target_(id(mjOBJ_GEOM, "target")),
        pointmass_(id(mjOBJ_GEOM, "pointmass")) {
    if (m_->nwrap < 4) throw std::invalid_argument("the point_mass model has fewer than 4 tendon wraps");
    // hard draws the tendons' joint coefficients (wrap_prm[0:4]) per episode.
    add_task_state(m_->wrap_prm, 4);
  }

 private:
  // A random unit vector in the plane (randn(2), normalised).
  static void random_direction(Rng& rng, double dir[2]) {
    dir[0] = rng.normal();
    dir[1] = rng.normal();
    const double norm = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1]);
    dir[0] /= norm;
    dir[1] /= norm;
  }

  // PointMass.initialize_episode.
  void initialize_episode(Rng& rng) override {
    randomize_limited_and_rotational_joints(m_, d_, rng);
    if (randomize_gains_) {
      // Each control actuates a random linear combination of the joints; the
      // second direction is redrawn while it is nearly parallel to the first.
      double dir1[2];
      double dir2[2];
      random_direction(rng, dir1);
      do {
        random_direction(rng, dir2);
      } while (std::abs(dir1[0] * dir2[0] + dir1[1] * dir2[1]) > 0.9);
      m_->wrap_prm[0] = dir1[0];
      m_->wrap_prm[1] = dir1[1];
      m_->wrap_prm[2] = dir2[0];
      m_->wrap_prm[3] = dir2[1];
    }
  }

  double get_reward() override {
    // Physics.mass_to_target_dist.
    const double* a = d_->geom_xpos + 3 * target_;
    const double* b = d_->geom_xpos + 3 * pointmass_;
    const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    const double dist = std::sqrt(dx * dx + dy * dy + dz * dz);
    const double target_size = m_->geom_size[3 * target_];
    const double near_target = tolerance(dist, 0.0, target_size, target_size);
    double control_reward = 0.0;
    for (int i = 0; i < m_->nu; ++i) {
      control_reward += tolerance(d_->ctrl[i], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0);
    }
    control_reward /= m_->nu;
    const double small_control = (control_reward + 4.0) / 5.0;
    return near_target * small_control;
  }

  void get_observation(ObsWriter& w) override {
    w.next().put(d_->qpos, m_->nq);
    w.next().put(d_->qvel, m_->nv);
  }

  const bool randomize_gains_;
  const int target_, pointmass_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcPointMass",
                                                   .options = base_options("easy"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<PointMass>()});

}  // namespace rlpool::dmc
