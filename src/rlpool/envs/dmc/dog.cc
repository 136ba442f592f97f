// Dog domain (tasks: stand, walk, trot, run, fetch), as dm_control 1.0.50's
// suite/dog.py. The model is dm_control's per task: the floor size depends on
// the task and only fetch has the ball, the target and the walls.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "envs/dmc/dmc_env.h"

namespace rlpool::dmc {
namespace {

const std::vector<std::string> kTasks = {"stand", "walk", "trot", "run", "fetch"};

// Cosine of _MAX_UPRIGHT_ANGLE (30 degrees), computed as numpy does.
const double kMinUprightCosine = std::cos(30.0 * std::numbers::pi / 180.0);
constexpr double kStandHeightFraction = 0.9;
constexpr double kWalkSpeed = 1.0;
constexpr double kTrotSpeed = 3.0;
constexpr double kRunSpeed = 9.0;

// Target speed of the Move tasks; 0 for stand and fetch.
double move_speed(const std::string& task) {
  if (task == "walk") return kWalkSpeed;
  if (task == "trot") return kTrotSpeed;
  if (task == "run") return kRunSpeed;
  return 0.0;
}

// Number of hinge joints (joint_angles / joint_velocites size).
int hinge_count(const mjModel* m) {
  int n = 0;
  for (int j = 0; j < m->njnt; ++j) n += m->jnt_type[j] == mjJNT_HINGE;
  return n;
}

EnvSpec spec(const mjModel* m, const Config& c) {
  const std::string task = task_name(c, kTasks);
  const int hinges = hinge_count(m);
  std::vector<ObsEntry> obs = {{"joint_angles", {hinges}},
                               {"joint_velocites", {hinges}},  // sic: dm_control's key
                               {"torso_pelvis_height", {2}},
                               {"z_projection", {9}},
                               {"torso_com_velocity", {3}},
                               {"inertial_sensors", {9}},
                               {"foot_forces", {12}},
                               {"touch_sensors", {4}},
                               {"actuator_state", {m->na}}};
  if (task == "fetch") {
    obs.push_back({"ball_state", {6}});
    obs.push_back({"target_position", {3}});
  }
  return make_spec(m, obs);
}

// v.dot(R) for a row-major 3x3 R: v expressed in the frame R.
void to_frame(double out[3], const double v[3], const double* r) {
  for (int j = 0; j < 3; ++j) out[j] = v[0] * r[j] + v[1] * r[3 + j] + v[2] * r[6 + j];
}

double distance(const double* a, const double* b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

class Dog final : public DmcEnv {
 public:
  explicit Dog(const Config& c)
      : DmcEnv(c, 3),
        task_(task_name(c, kTasks)),
        fetch_(task_ == "fetch"),
        move_speed_(move_speed(task_)),
        torso_(id(mjOBJ_BODY, "torso")),
        pelvis_(id(mjOBJ_BODY, "pelvis")),
        skull_(id(mjOBJ_BODY, "skull")),
        root_(id(mjOBJ_JOINT, "root")),
        torso_linvel_(id(mjOBJ_SENSOR, "torso_linvel")),
        inertial_{id(mjOBJ_SENSOR, "accelerometer"), id(mjOBJ_SENSOR, "velocimeter"), id(mjOBJ_SENSOR, "gyro")},
        touch_{id(mjOBJ_SENSOR, "palm_L"), id(mjOBJ_SENSOR, "palm_R"), id(mjOBJ_SENSOR, "sole_L"),
               id(mjOBJ_SENSOR, "sole_R")},
        foot_{id(mjOBJ_SENSOR, "foot_L"), id(mjOBJ_SENSOR, "foot_R"), id(mjOBJ_SENSOR, "hand_L"),
              id(mjOBJ_SENSOR, "hand_R")} {
    for (int j = 0; j < m_->njnt; ++j) {
      if (m_->jnt_type[j] != mjJNT_HINGE) continue;
      hinge_qpos_.push_back(m_->jnt_qposadr[j]);
      hinge_qvel_.push_back(m_->jnt_dofadr[j]);
    }
    if (m_->nu != m_->na) throw std::invalid_argument("dog: every actuator must have one activation state");
    // Stand heights of the default pose and body weight: the same every
    // episode (Stand.initialize_episode measures them right after reset).
    api().resetData(m_, d_);
    after_reset();
    stand_height_[0] = xpos(torso_)[2] * kStandHeightFraction;
    stand_height_[1] = xpos(pelvis_)[2] * kStandHeightFraction;
    body_weight_ = -m_->opt.gravity[2] * m_->body_subtreemass[torso_];
    if (fetch_) {
      ball_root_ = id(mjOBJ_JOINT, "ball_root");
      ball_ = id(mjOBJ_GEOM, "ball");
      target_ = id(mjOBJ_GEOM, "target");
      head_ = id(mjOBJ_SITE, "head");
      upper_bite_ = id(mjOBJ_SITE, "upper_bite");
      lower_bite_ = id(mjOBJ_SITE, "lower_bite");
      floor_size_ = m_->geom_size[3 * id(mjOBJ_GEOM, "floor")];
    }
  }

 private:
  // Stand.initialize_episode (+ Fetch's ball throw).
  void initialize_episode(Rng& rng) override {
    api().resetData(m_, d_);  // physics.reset()
    after_reset();

    // Random heading about z.
    const double azimuth = rng.uniform(0.0, 2.0 * std::numbers::pi);
    double* q = d_->qpos + m_->jnt_qposadr[root_] + 3;
    q[0] = std::cos(azimuth / 2);
    q[1] = 0.0;
    q[2] = 0.0;
    q[3] = std::sin(azimuth / 2);

    // Root velocities in the horizontal plane (qvel 0, 1 and yaw rate 5).
    d_->qvel[0] = 2 * rng.normal();
    d_->qvel[1] = 2 * rng.normal();
    d_->qvel[5] = 2 * rng.normal();

    // Actuator states uniform in the ctrlrange.
    for (int a = 0; a < m_->nu; ++a) d_->act[a] = rng.uniform(m_->actuator_ctrlrange[2 * a], m_->actuator_ctrlrange[2 * a + 1]);

    if (!fetch_) return;
    // Ball flying towards the centre at an upward angle.
    const double radius = 0.75 * floor_size_;
    const double ball_azimuth = rng.uniform(0.0, 2.0 * std::numbers::pi);
    double* bq = d_->qpos + m_->jnt_qposadr[ball_root_];
    bq[0] = radius * std::sin(ball_azimuth);
    bq[1] = radius * std::cos(ball_azimuth);
    bq[2] = 0.05;
    const double vertical_height = rng.uniform(0.0, 3.0);
    const double vertical_velocity = std::sqrt(2 * -m_->opt.gravity[2] * vertical_height);
    const double horizontal_speed = rng.uniform(0.0, 5.0);
    const double dx = -std::sin(ball_azimuth) + 0.05 * rng.normal();
    const double dy = -std::cos(ball_azimuth) + 0.05 * rng.normal();
    double* bv = d_->qvel + m_->jnt_dofadr[ball_root_];
    bv[0] = horizontal_speed * dx;
    bv[1] = horizontal_speed * dy;
    bv[2] = vertical_velocity;
  }

  // Physics.torso_com_velocity: com velocity in the torso frame.
  std::array<double, 3> torso_com_velocity() const {
    std::array<double, 3> v{};
    to_frame(v.data(), sensor(torso_linvel_), xmat(torso_));
    return v;
  }

  // Physics.ball_in_head_frame: ball position and velocity relative to the head.
  std::array<double, 6> ball_in_head_frame() const {
    const double* head_frame = d_->site_xmat + 9 * head_;
    double rel[3];
    for (int i = 0; i < 3; ++i) rel[i] = d_->geom_xpos[3 * ball_ + i] - d_->site_xpos[3 * head_ + i];
    double head_vel[6];
    double ball_vel[6];  // MuJoCo's (angular, linear) order
    api().objectVelocity(m_, d_, mjOBJ_SITE, head_, head_vel, 0);
    api().objectVelocity(m_, d_, mjOBJ_GEOM, ball_, ball_vel, 0);
    double rel_vel[3];
    for (int i = 0; i < 3; ++i) rel_vel[i] = ball_vel[3 + i] - head_vel[3 + i];
    std::array<double, 6> out{};
    to_frame(out.data(), rel, head_frame);
    to_frame(out.data() + 3, rel_vel, head_frame);
    return out;
  }

  // Stand.get_reward_factors, times Move's or Fetch's.
  double get_reward() override {
    const double torso_h = xpos(torso_)[2];
    const double pelvis_h = xpos(pelvis_)[2];
    double reward = tolerance(torso_h, stand_height_[0], INFINITY, stand_height_[0]);
    reward *= tolerance(pelvis_h, stand_height_[1], INFINITY, stand_height_[1]);
    for (int body : {skull_, torso_, pelvis_}) {
      reward *= tolerance(xmat(body)[8], kMinUprightCosine, INFINITY, kMinUprightCosine + 1, Sigmoid::kLinear, 0.0);
    }
    double touch = 0.0;
    for (int s : touch_) touch += sensor(s)[0];
    reward *= tolerance(touch, body_weight_, INFINITY, body_weight_, Sigmoid::kLinear, 0.9);

    if (move_speed_ > 0.0) {
      const double forward = tolerance(torso_com_velocity()[0], move_speed_, 2 * move_speed_,
                                       std::max(1.0, move_speed_), Sigmoid::kLinear, 0.0);
      reward *= (4 * forward + 1) / 5;
    }
    if (fetch_) {
      const double* ball = d_->geom_xpos + 3 * ball_;
      const double mouth =
          0.5 * (distance(ball, d_->site_xpos + 3 * upper_bite_) + distance(ball, d_->site_xpos + 3 * lower_bite_));
      const double bite_radius = m_->site_size[3 * upper_bite_];
      double reach_ball = tolerance(mouth, 0.0, bite_radius, 2.0, Sigmoid::kReciprocal);
      reach_ball = (6 * reach_ball + 1) / 7;
      const double target_radius = m_->geom_size[3 * target_];
      const double to_target = distance(ball, d_->geom_xpos + 3 * target_);
      const double near_target = tolerance(to_target, 0.0, target_radius, floor_size_, Sigmoid::kReciprocal);
      const double fetch_ball = (near_target + 1) / 2;
      if (to_target < 2 * target_radius) reach_ball = 1.0;  // let go once fetched
      reward *= reach_ball * fetch_ball;
    }
    return reward;
  }

  void get_observation(ObsWriter& w) override {
    w.next();
    for (int a : hinge_qpos_) w.put(d_->qpos[a]);
    w.next();
    for (int a : hinge_qvel_) w.put(d_->qvel[a]);
    w.next().put(xpos(torso_)[2]).put(xpos(pelvis_)[2]);
    w.next();
    for (int body : {skull_, torso_, pelvis_}) w.put(xmat(body) + 6, 3);  // zx, zy, zz
    w.next().put(torso_com_velocity().data(), 3);
    w.next();
    for (int s : inertial_) w.put(sensor(s), 3);
    w.next();
    for (int s : foot_) w.put(sensor(s), 3);
    w.next();
    for (int s : touch_) w.put(sensor(s)[0]);
    w.next().put(d_->act, m_->na);
    if (fetch_) {
      w.next().put(ball_in_head_frame().data(), 6);
      // Physics.target_in_head_frame.
      double rel[3];
      double out[3];
      for (int i = 0; i < 3; ++i) rel[i] = d_->geom_xpos[3 * target_ + i] - d_->site_xpos[3 * head_ + i];
      to_frame(out, rel, d_->site_xmat + 9 * head_);
      w.next().put(out, 3);
    }
  }

  const std::string task_;
  const bool fetch_;
  const double move_speed_;
  const int torso_, pelvis_, skull_, root_, torso_linvel_;
  const std::array<int, 3> inertial_;
  const std::array<int, 4> touch_;
  const std::array<int, 4> foot_;
  std::vector<int> hinge_qpos_, hinge_qvel_;
  double stand_height_[2] = {0.0, 0.0};
  double body_weight_ = 0.0;
  // Fetch only.
  int ball_root_ = -1, ball_ = -1, target_ = -1, head_ = -1, upper_bite_ = -1, lower_bite_ = -1;
  double floor_size_ = 0.0;
};

}  // namespace

static const bool kRegistered = register_env_type(
    {.name = "DmcDog", .options = base_options("stand"), .spec = model_spec(spec), .create = make_env<Dog>()});

}  // namespace rlpool::dmc
