// Cartpole domain (tasks: balance, balance_sparse, swingup, swingup_sparse,
// two_poles, three_poles), as dm_control 1.0.50's suite/cartpole.py.
// The poles are the bodies after the cart (bodies 2..nbody-1, one hinge each):
// the compiled model of two_poles/three_poles already holds the chain.
#include <algorithm>
#include <stdexcept>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Row-major xmat entries 'xz' and 'zz'.
constexpr int kXz = 2;
constexpr int kZz = 8;
constexpr int kFirstPole = 2;  // world, cart, then the poles
const std::vector<std::string> kTasks = {"balance",        "balance_sparse", "swingup",
                                         "swingup_sparse", "two_poles",      "three_poles"};

int num_poles(const mjModel* m) {
  if (m->nbody <= kFirstPole) throw std::invalid_argument("the cartpole model has no pole");
  return m->nbody - kFirstPole;
}

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"position", {1 + 2 * num_poles(m)}}, {"velocity", {m->nv}}});
}

class Cartpole final : public DmcEnv {
 public:
  explicit Cartpole(const Config& c)
      : DmcEnv(c, 1),
        task_(task_name(c, kTasks)),
        swing_up_(task_ != "balance" && task_ != "balance_sparse"),
        sparse_(task_ == "balance_sparse" || task_ == "swingup_sparse"),
        poles_(num_poles(m_)),
        slider_(m_->jnt_qposadr[id(mjOBJ_JOINT, "slider")]),
        hinge_1_(m_->jnt_qposadr[id(mjOBJ_JOINT, "hinge_1")]) {}

 private:
  // Balance.initialize_episode: near the upright pose (balance) or hanging
  // down (swing-up), plus a small random velocity to break symmetry.
  void initialize_episode(Rng& rng) override {
    const int nv = m_->nv;
    if (swing_up_) {
      d_->qpos[slider_] = 0.01 * rng.normal();
      d_->qpos[hinge_1_] = kPi + 0.01 * rng.normal();
      for (int i = 2; i < nv; ++i) d_->qpos[i] = 0.1 * rng.normal();
    } else {
      d_->qpos[slider_] = rng.uniform(-0.1, 0.1);
      for (int i = 1; i < nv; ++i) d_->qpos[i] = rng.uniform(-0.034, 0.034);
    }
    for (int i = 0; i < nv; ++i) d_->qvel[i] = 0.01 * rng.normal();
  }

  double cart_position() const { return d_->qpos[slider_]; }
  double pole_angle_cosine(int pole) const { return xmat(kFirstPole + pole)[kZz]; }

  double get_reward() override {
    if (sparse_) {
      double reward = tolerance(cart_position(), -0.25, 0.25);
      for (int p = 0; p < poles_; ++p) reward *= tolerance(pole_angle_cosine(p), 0.995, 1.0);
      return reward;
    }
    double upright = 0.0;
    for (int p = 0; p < poles_; ++p) upright += (pole_angle_cosine(p) + 1.0) / 2.0;
    upright /= poles_;
    const double centered = (1.0 + tolerance(cart_position(), 0.0, 0.0, 2.0)) / 2.0;
    const double small_control =
        (4.0 + tolerance(d_->ctrl[0], 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0)) / 5.0;
    double min_velocity = 1.0;  // tolerance is at most 1
    for (int i = 1; i < m_->nv; ++i) min_velocity = std::min(min_velocity, tolerance(d_->qvel[i], 0.0, 0.0, 5.0));
    const double small_velocity = (1.0 + min_velocity) / 2.0;
    return upright * small_control * small_velocity * centered;
  }

  void get_observation(ObsWriter& w) override {
    // bounded_position: cart position, then ('zz', 'xz') of each pole.
    auto& position = w.next().put(cart_position());
    for (int p = 0; p < poles_; ++p) position.put(xmat(kFirstPole + p)[kZz]).put(xmat(kFirstPole + p)[kXz]);
    w.next().put(d_->qvel, m_->nv);
  }

  const std::string task_;
  const bool swing_up_, sparse_;
  const int poles_, slider_, hinge_1_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcCartpole",
                                                   .options = base_options("balance"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Cartpole>()});

}  // namespace rlpool::dmc
