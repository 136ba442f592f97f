// Swimmer domain (tasks: swimmer6, swimmer15), as dm_control 1.0.50's suite/swimmer.py.
// The model of each task already has its 6 or 15 links; the sizes come from it.
#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

constexpr int kSubSteps = 15;  // control timestep .03 s / timestep .002 s
constexpr double kCloseTargetProbability = 0.2;
const std::vector<std::string> kTasks = {"swimmer6", "swimmer15"};

// Sensor values before the per-body velocimeters and gyros (nose_pos,
// target_pos, head_xaxis, head_yaxis): dm_control's sensordata[12:].
constexpr int kBodySensorsStart = 12;

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"joints", {m->nq - 3}},
                       {"to_target", {2}},
                       {"body_velocities", {(m->nsensordata - kBodySensorsStart) / 6 * 3}}});
}

class Swimmer final : public DmcEnv {
 public:
  explicit Swimmer(const Config& c)
      : DmcEnv(c, kSubSteps, kWritesModel),
        target_(id(mjOBJ_GEOM, "target")),
        nose_(id(mjOBJ_GEOM, "nose")),
        head_(id(mjOBJ_BODY, "head")),
        target_light_(id(mjOBJ_LIGHT, "target_light")) {
    task_name(c, kTasks);
    // The target's x, y (geom and its light) are drawn per episode.
    add_task_state(m_->geom_pos + 3 * target_, 2);
    add_task_state(m_->light_pos + 3 * target_light_, 2);
  }

 private:
  void initialize_episode(Rng& rng) override {
    randomize_limited_and_rotational_joints(m_, d_, rng);
    const bool close_target = rng.uniform() < kCloseTargetProbability;
    const double box = close_target ? 0.3 : 2.0;
    const double x = rng.uniform(-box, box);
    const double y = rng.uniform(-box, box);
    m_->geom_pos[3 * target_] = x;
    m_->geom_pos[3 * target_ + 1] = y;
    m_->light_pos[3 * target_light_] = x;
    m_->light_pos[3 * target_light_ + 1] = y;
  }

  // nose_to_target: the nose-to-target vector in the head's frame, x and y.
  void nose_to_target(double out[2]) const {
    const double* t = d_->geom_xpos + 3 * target_;
    const double* n = d_->geom_xpos + 3 * nose_;
    const double* r = xmat(head_);
    for (int j = 0; j < 2; ++j) {
      out[j] = (t[0] - n[0]) * r[j] + (t[1] - n[1]) * r[3 + j] + (t[2] - n[2]) * r[6 + j];
    }
  }

  double get_reward() override {
    double v[2];
    nose_to_target(v);
    const double target_size = m_->geom_size[3 * target_];
    return tolerance(std::hypot(v[0], v[1]), 0.0, target_size, 5 * target_size, Sigmoid::kLongTail);
  }

  void get_observation(ObsWriter& w) override {
    w.next().put(d_->qpos + 3, m_->nq - 3);
    double v[2];
    nose_to_target(v);
    w.next().put(v, 2);
    // body_velocities: per body (velocimeter, gyro), local vx, vy and wz.
    w.next();
    for (int i = kBodySensorsStart; i + 6 <= m_->nsensordata; i += 6) {
      w.put(d_->sensordata[i]).put(d_->sensordata[i + 1]).put(d_->sensordata[i + 5]);
    }
  }

  const int target_;
  const int nose_;
  const int head_;
  const int target_light_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcSwimmer",
                                                   .options = base_options("swimmer6"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Swimmer>()});

}  // namespace rlpool::dmc
