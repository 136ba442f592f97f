// Manipulator domain (tasks: bring_ball, bring_peg, insert_ball, insert_peg),
// as dm_control 1.0.50's suite/manipulator.py with its default
// fully_observable=True.
#include <algorithm>
#include <array>
#include <cmath>

#include "envs/dmc/manipulation.h"

namespace rlpool::dmc {
namespace {

using manipulation::kPi;

const std::vector<std::string> kTasks = {"bring_ball", "bring_peg", "insert_ball", "insert_peg"};
// _P_IN_HAND, _P_IN_TARGET: probabilities of the object's initial placement.
constexpr double kPInHand = 0.1;
constexpr double kPInTarget = 0.1;
constexpr std::array<const char*, 5> kTouchSensors = {"palm_touch", "finger_touch", "thumb_touch", "fingertip_touch",
                                                      "thumbtip_touch"};

EnvSpec spec(const mjModel* m, const Config& c) {
  task_name(c, kTasks);
  return make_spec(m, {{"arm_pos", {manipulation::kArmJoints, 2}},
                       {"arm_vel", {manipulation::kArmJoints}},
                       {"touch", {static_cast<std::int64_t>(kTouchSensors.size())}},
                       {"hand_pos", {4}},
                       {"object_pos", {4}},
                       {"object_vel", {3}},
                       {"target_pos", {4}}});
}

class Manipulator final : public DmcEnv {
 public:
  explicit Manipulator(const Config& c)
      : DmcEnv(c, 10, kWritesModel),
        use_peg_(task_name(c, kTasks).ends_with("peg")),
        insert_(task_name(c, kTasks).starts_with("insert")),
        arm_(m_, [this](mjtObj type, const char* name) { return id(type, name); }),
        hand_(id(mjOBJ_BODY, "hand")),
        object_(id(mjOBJ_BODY, use_peg_ ? "peg" : "ball")),
        target_(id(mjOBJ_BODY, use_peg_ ? "target_peg" : "target_ball")),
        // Bring tasks have no receptacle: the body before the target (the
        // object's last body, never moved) stands in its place so that every
        // task's state has the same layout (target, then the body before it).
        receptacle_(insert_ ? id(mjOBJ_BODY, use_peg_ ? "slot" : "cup") : target_ - 1),
        grasp_(id(mjOBJ_SITE, "grasp")) {
    const char* object = use_peg_ ? "peg" : "ball";
    const std::array<const char*, 3> dims = {"_x", "_z", "_y"};  // dm_control's 'xzy' order
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const int j = id(mjOBJ_JOINT, (std::string(object) + dims[i]).c_str());
      object_qpos_[i] = m_->jnt_qposadr[j];
      object_dof_[i] = m_->jnt_dofadr[j];
    }
    for (std::size_t i = 0; i < kTouchSensors.size(); ++i) touch_[i] = id(mjOBJ_SENSOR, kTouchSensors[i]);
    if (use_peg_) {
      peg_sites_ = {id(mjOBJ_SITE, "peg_grasp"), grasp_, id(mjOBJ_SITE, "peg_pinch"), id(mjOBJ_SITE, "pinch"),
                    id(mjOBJ_SITE, "peg"), id(mjOBJ_SITE, "target_peg"), id(mjOBJ_SITE, "target_peg_tip"),
                    id(mjOBJ_SITE, "peg_tip")};
    } else {
      ball_sites_ = {id(mjOBJ_SITE, "ball"), id(mjOBJ_SITE, "target_ball")};
    }
    add_task_state(m_->body_pos + 3 * target_, 3);
    add_task_state(m_->body_quat + 4 * target_, 4);
    add_task_state(m_->body_pos + 3 * receptacle_, 3);
    add_task_state(m_->body_quat + 4 * receptacle_, 4);
  }

 private:
  void initialize_episode(Rng& rng) override {
    // Find a collision-free random initial configuration.
    bool penetrating = true;
    while (penetrating) {
      arm_.randomize(m_, d_, rng);
      // Randomise target location.
      const double target_x = rng.uniform(-0.4, 0.4);
      const double target_z = rng.uniform(0.1, 0.4);
      double target_angle = 0.0;
      if (insert_) {
        target_angle = rng.uniform(-kPi / 3, kPi / 3);
        place(receptacle_, target_x, target_z, target_angle);
      } else {
        target_angle = rng.uniform(-kPi, kPi);
      }
      place(target_, target_x, target_z, target_angle);
      // Randomise object location: choice(['in_hand', 'in_target', 'uniform'], p=...).
      const double u = rng.uniform();
      double object_x = 0.0;
      double object_z = 0.0;
      double object_angle = 0.0;
      if (u < kPInHand) {
        after_reset();
        const double* site = d_->site_xpos + 3 * grasp_;
        const double* mat = d_->site_xmat + 9 * grasp_;
        object_x = site[0];
        object_z = site[2];
        object_angle = kPi - std::atan2(mat[6], mat[0]);  // grasp direction (xx, zx)
      } else if (u < kPInHand + kPInTarget) {
        object_x = target_x;
        object_z = target_z;
        object_angle = target_angle;
      } else {
        object_x = rng.uniform(-0.5, 0.5);
        object_z = rng.uniform(0.0, 0.7);
        object_angle = rng.uniform(0.0, 2 * kPi);
        d_->qvel[object_dof_[0]] = rng.uniform(-5.0, 5.0);
      }
      d_->qpos[object_qpos_[0]] = object_x;
      d_->qpos[object_qpos_[1]] = object_z;
      d_->qpos[object_qpos_[2]] = object_angle;
      // Check for collisions.
      after_reset();
      penetrating = d_->ncon > 0;
    }
  }

  // model.body_pos[body, ['x', 'z']] and body_quat[body, ['qw', 'qy']].
  void place(int body, double x, double z, double angle) {
    m_->body_pos[3 * body] = x;
    m_->body_pos[3 * body + 2] = z;
    m_->body_quat[4 * body] = std::cos(angle / 2);
    m_->body_quat[4 * body + 2] = std::sin(angle / 2);
  }

  double is_close(int site1, int site2) const {
    return tolerance(manipulation::site_distance(d_, site1, site2), 0.0, manipulation::kClose,
                     2 * manipulation::kClose);
  }

  double get_reward() override {
    if (!use_peg_) return is_close(ball_sites_[0], ball_sites_[1]);
    const auto& s = peg_sites_;
    const double grasping = (is_close(s[0], s[1]) + is_close(s[2], s[3])) / 2;
    const double bringing = (is_close(s[4], s[5]) + is_close(s[6], s[7])) / 2;
    return std::max(bringing, grasping / 3);
  }

  void get_observation(ObsWriter& w) override {
    arm_.write(m_, d_, w);
    w.next();
    for (int s : touch_) w.put(std::log1p(sensor(s)[0]));
    manipulation::put_body_2d_pose(d_, hand_, w.next());
    manipulation::put_body_2d_pose(d_, object_, w.next());
    w.next();
    for (int dof : object_dof_) w.put(d_->qvel[dof]);
    manipulation::put_body_2d_pose(d_, target_, w.next());
  }

  const bool use_peg_;
  const bool insert_;
  const manipulation::Arm arm_;
  const int hand_;
  const int object_;
  const int target_;
  const int receptacle_;
  const int grasp_;
  std::array<int, 3> object_qpos_{};
  std::array<int, 3> object_dof_{};
  std::array<int, kTouchSensors.size()> touch_{};
  // Reward sites: peg (peg_grasp, grasp, peg_pinch, pinch, peg, target_peg,
  // target_peg_tip, peg_tip) or ball (ball, target_ball).
  std::array<int, 8> peg_sites_{};
  std::array<int, 2> ball_sites_{};
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcManipulator",
                                                   .options = base_options("bring_ball"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Manipulator>()});

}  // namespace rlpool::dmc
