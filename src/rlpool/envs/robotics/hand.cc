// HandReach (-v3) and HandManipulateBlock/Egg/Pen (-v1, with and without
// touch sensors; EnvPool's -v0 ids run the same), as gymnasium_robotics
// 1.4.2's envs/shadow_dexterous_hand: hand_env.py (MujocoHandEnv), reach.py
// (MujocoHandReachEnv), manipulate.py (MujocoManipulateEnv),
// manipulate_touch_sensors.py and the object files manipulate_block.py,
// manipulate_egg.py and manipulate_pen.py.
#include <cmath>
#include <numbers>

#include "envs/robotics/robot_env.h"
#include "envs/robotics/rotations.h"

namespace rlpool::robotics {
namespace {

constexpr int kActions = 20;
constexpr int kMaxResetTries = 1000;

// reach.py's DEFAULT_INITIAL_QPOS.
const std::pair<const char*, double> kReachInitialQpos[] = {
    {"robot0:WRJ1", -0.16514339750464327},   {"robot0:WRJ0", -0.31973286565062153},
    {"robot0:FFJ3", 0.14340512546557435},    {"robot0:FFJ2", 0.32028208333591573},
    {"robot0:FFJ1", 0.7126053607727917},     {"robot0:FFJ0", 0.6705281001412586},
    {"robot0:MFJ3", 0.000246444303701037},   {"robot0:MFJ2", 0.3152655251085491},
    {"robot0:MFJ1", 0.7659800313729842},     {"robot0:MFJ0", 0.7323156897425923},
    {"robot0:RFJ3", 0.00038520700007378114}, {"robot0:RFJ2", 0.36743546201985233},
    {"robot0:RFJ1", 0.7119514095008576},     {"robot0:RFJ0", 0.6699446327514138},
    {"robot0:LFJ4", 0.0525442258033891},     {"robot0:LFJ3", -0.13615534724474673},
    {"robot0:LFJ2", 0.39872030433433003},    {"robot0:LFJ1", 0.7415570009679252},
    {"robot0:LFJ0", 0.704096378652974},      {"robot0:THJ4", 0.003673823825070126},
    {"robot0:THJ3", 0.5506291436028695},     {"robot0:THJ2", -0.014515151997119306},
    {"robot0:THJ1", -0.0015229223564485414}, {"robot0:THJ0", -0.7894883021600622},
};
const char* const kFingertips[5] = {"robot0:S_fftip", "robot0:S_mftip", "robot0:S_rftip", "robot0:S_lftip",
                                    "robot0:S_thtip"};

CameraConfig hand_camera() {
  CameraConfig camera;
  camera.distance = 0.5;
  camera.azimuth = 55.0;
  camera.elevation = -25.0;
  camera.lookat = std::array<double, 3>{1.0, 0.96, 0.14};
  return camera;
}

double norm3(const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
double norm4(const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]); }

// manipulate.py's quat_from_angle_and_axis.
void quat_from_angle_and_axis(double angle, double axis[3], double quat[4]) {
  const double n = norm3(axis);
  for (int k = 0; k < 3; ++k) axis[k] /= n;
  quat[0] = std::cos(angle / 2.0);
  const double s = std::sin(angle / 2.0);
  for (int k = 0; k < 3; ++k) quat[1 + k] = s * axis[k];
  const double q = norm4(quat);
  for (int k = 0; k < 4; ++k) quat[k] /= q;
}

// rotations.euler2mat.
void euler2mat(const double* euler, double* m) {
  const double ai = -euler[2], aj = -euler[1], ak = -euler[0];
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk, sc = si * ck, ss = si * sk;
  m[8] = cj * ck;
  m[7] = sj * sc - cs;
  m[6] = sj * cc + ss;
  m[5] = cj * sk;
  m[4] = sj * ss + cc;
  m[3] = sj * cs - sc;
  m[2] = -sj;
  m[1] = cj * si;
  m[0] = cj * ci;
}

// rotations.get_parallel_rotations, as quaternions (manipulate.py's parallel_quats).
const std::vector<std::array<double, 4>>& parallel_quats() {
  static const std::vector<std::array<double, 4>> quats = [] {
    const double half_pi = std::numbers::pi / 2;
    const double mult90[4] = {0.0, half_pi, -half_pi, std::numbers::pi};
    std::vector<std::array<double, 3>> found;
    for (double a : mult90) {
      for (double b : mult90) {
        for (double c : mult90) {
          const double euler[3] = {a, b, c};
          double m[9], canonical[3];
          euler2mat(euler, m);
          mat2euler(m, canonical);
          std::array<double, 3> rot{};
          for (int k = 0; k < 3; ++k) rot[k] = std::nearbyint(canonical[k] / half_pi);
          if (rot[0] == -2) rot[0] = 2;
          if (rot[2] == -2) rot[2] = 2;
          for (double& r : rot) r *= half_pi;
          bool seen = false;
          for (const auto& f : found) seen = seen || f == rot;
          if (!seen) found.push_back(rot);
        }
      }
    }
    std::vector<std::array<double, 4>> out;
    for (const auto& rot : found) {
      std::array<double, 4> q{};
      euler2quat(rot.data(), q.data());
      out.push_back(q);
    }
    return out;
  }();
  return quats;
}

// The options both kinds of hand take (hand_env.py), checked.
struct HandParams {
  bool sparse, relative_control;
  int n_substeps;
  double distance_threshold;
  explicit HandParams(const Config& c)
      : sparse(sparse_reward(c)),
        relative_control(c.get_bool("relative_control")),
        n_substeps(static_cast<int>(c.get_int_in("n_substeps", 1, 1'000'000))),
        distance_threshold(c.get_finite("distance_threshold")) {}
};

// MujocoHandEnv: the 20 position actuators aimed at the middle of their range
// plus the action times half the range (or, with relative_control, at the
// joints' current positions plus that), clipped to the range.
class HandEnv : public RobotEnv {
 public:
  // An env step: the clipped action, n_substeps MuJoCo steps, the task's observation and reward.
  void step(const Action& action, Rng& /*rng*/, const Output& out) final {
    set_clipped_action(action);
    simulate();
    write(out);
  }

 protected:
  // The task's results of the current state (_get_obs, is_success and the reward).
  virtual void write(const Output& out) const = 0;

  HandEnv(const Config& c, const std::string& name, std::size_t goal_size)
      : RobotEnv(c, mujoco::load_model(c.get_string("_xml_file")), c.get_string("_xml_file"), name, goal_size,
                 hand_camera()),
        hp_(c) {
    mujoco::require(m_->nu == kActions, "'" + xml_file_ + "' needs the hand's 20 actuators");
    if (hp_.relative_control) {
      // The joint each actuator drives, by name (robot0:A_FFJ1 -> robot0:FFJ1),
      // plus J0 for the coupled J1 actuators of the four fingers.
      for (int i = 0; i < m_->nu; ++i) {
        std::string name = api().id2name(m_, mjOBJ_ACTUATOR, i);
        const auto at = name.find(":A_");
        if (at != std::string::npos) name.replace(at, 3, ":");
        relative_joints_.push_back({joint_id(m_, name.c_str(), xml_file_), -1});
      }
      for (const char* finger : {"FF", "MF", "RF", "LF"}) {
        const std::string actuator = std::string("robot0:A_") + finger + "J1";
        const int a = api().name2id(m_, mjOBJ_ACTUATOR, actuator.c_str());
        mujoco::require(a >= 0, "'" + xml_file_ + "' has no actuator " + actuator);
        relative_joints_[static_cast<std::size_t>(a)].second =
            joint_id(m_, (std::string("robot0:") + finger + "J0").c_str(), xml_file_);
      }
    }
  }

  // _set_action of a (clipped, float32) action; zeros while a reset settles.
  void set_action(const float* a) {
    for (int i = 0; i < kActions; ++i) {
      const double lo = m_->actuator_ctrlrange[2 * i], hi = m_->actuator_ctrlrange[2 * i + 1];
      double center;
      if (hp_.relative_control) {
        // np.zeros_like(action): the centres are float32.
        const auto [joint, coupled] = relative_joints_[static_cast<std::size_t>(i)];
        float c = f32(d_->qpos[m_->jnt_qposadr[joint]]);
        if (coupled >= 0) c = f32(static_cast<double>(c) + d_->qpos[m_->jnt_qposadr[coupled]]);
        center = c;
      } else {
        center = (hi + lo) / 2.0;
      }
      d_->ctrl[i] = mujoco::clip(center + static_cast<double>(a[i]) * ((hi - lo) / 2.0), lo, hi);
    }
  }

  void set_clipped_action(const Action& action) {
    float a[kActions];
    for (int i = 0; i < kActions; ++i) a[i] = f32(mujoco::clip(action.continuous()[i], -1.0, 1.0));
    set_action(a);
  }

  bool fresh_frame() const override { return true; }

  void simulate() {
    for (int i = 0; i < hp_.n_substeps; ++i) api().step(m_, d_);
  }

  // robot_get_obs.
  void put_robot(ObsWriter& w) const {
    for (int j : robot_joints()) w.put(d_->qpos[m_->jnt_qposadr[j]]);
    for (int j : robot_joints()) w.put(d_->qvel[m_->jnt_dofadr[j]]);
  }

  const HandParams hp_;

 private:
  std::vector<std::pair<int, int>> relative_joints_;
};

std::vector<Option> hand_options(double distance_threshold) {
  return {
      {"_xml_file", std::string(), "gymnasium-robotics' model of the task (set by rlpool.envs.robotics)"},
      {"reward_type", std::string("sparse"), "'sparse' (-1 until the goal is reached, then 0) or 'dense'"},
      {"n_substeps", std::int64_t{20}, "MuJoCo steps per env step"},
      {"relative_control", false, "actions move the joints relative to their current positions"},
      {"distance_threshold", distance_threshold, "distance (m) within which a goal position counts as reached"},
  };
}

// ---------------------------------------------------------------- HandReach

EnvSpec reach_spec(const Config& c) {
  HandParams p(c);
  const auto model = mujoco::load_model(c.get_string("_xml_file"));
  EnvSpec s = goal_spec(15, 63, kActions, std::round(1.0 / (model->opt.timestep * p.n_substeps)));
  s.render_cameras = model->ncam;
  return s;
}

class HandReach final : public HandEnv {
 public:
  explicit HandReach(const Config& c) : HandEnv(c, "HandReach", 15) {
    for (int k = 0; k < 5; ++k) tips_[k] = site_id(m_, kFingertips[k], xml_file_);
    for (int k = 0; k < 5; ++k) targets_[k] = site_id(m_, ("target" + std::to_string(k)).c_str(), xml_file_);
    for (int k = 0; k < 5; ++k) fingers_[k] = site_id(m_, ("finger" + std::to_string(k)).c_str(), xml_file_);
    // _env_setup: the initial joint positions, mj_forward; the fingertips
    // there are the initial goal.
    for (const auto& [name, value] : kReachInitialQpos) d_->qpos[m_->jnt_qposadr[joint_id(m_, name, xml_file_)]] = value;
    api().forward(m_, d_);
    achieved(initial_goal_.data());
    const int palm = body_id(m_, "robot0:palm", xml_file_);
    std::copy(d_->xpos + 3 * palm, d_->xpos + 3 * palm + 3, palm_.begin());
    initial_qpos_.assign(d_->qpos, d_->qpos + m_->nq);
  }

  void reset(Rng& rng, const Output& out) override {
    begin_episode(rng);
    api().resetData(m_, d_);
    std::copy(initial_qpos_.begin(), initial_qpos_.end(), d_->qpos);
    api().forward(m_, d_);
    sample_goal();
    write(out);
  }


 protected:
  std::vector<std::pair<int, std::array<double, 3>>> marker_sites() const override {
    std::vector<std::pair<int, std::array<double, 3>>> markers;
    // The goal's targets, and markers on the fingertips where the last step left them.
    double tips[15];
    achieved(tips);
    for (int k = 0; k < 5; ++k) {
      markers.push_back({targets_[k], {goal_[3 * k], goal_[3 * k + 1], goal_[3 * k + 2]}});
      markers.push_back({fingers_[k], {tips[3 * k], tips[3 * k + 1], tips[3 * k + 2]}});
    }
    return markers;
  }

 private:
  void achieved(double* out) const {
    for (int k = 0; k < 5; ++k) std::copy(d_->site_xpos + 3 * tips_[k], d_->site_xpos + 3 * tips_[k] + 3, out + 3 * k);
  }

  // _sample_goal: the thumb and one other finger meet above the palm; one
  // goal in ten is the initial pose instead (the draw is always made).
  void sample_goal() {
    const auto finger = static_cast<int>(rng_.integer(4));
    double meeting[3] = {palm_[0] + 0.0, palm_[1] + -0.09, palm_[2] + 0.05};
    for (double& m : meeting) m += rng_.normal(0.0, 0.005);
    std::copy(initial_goal_.begin(), initial_goal_.end(), goal_.begin());
    for (int idx : {4, finger}) {
      double dir[3];
      for (int k = 0; k < 3; ++k) dir[k] = meeting[k] - goal_[3 * idx + k];
      const double n = norm3(dir);
      for (double& v : dir) v /= n;
      for (int k = 0; k < 3; ++k) goal_[3 * idx + k] = meeting[k] - 0.005 * dir[k];
    }
    if (rng_.uniform() < 0.1) std::copy(initial_goal_.begin(), initial_goal_.end(), goal_.begin());
  }

  void write(const Output& out) const override {
    double* ag = out.obs_as<double>(0);
    achieved(ag);
    std::copy(goal_.begin(), goal_.end(), out.obs_as<double>(1));
    ObsWriter w(out.obs_as<double>(2));
    put_robot(w);
    w.put(ag, 15);
    double squares = 0.0;
    for (int k = 0; k < 15; ++k) squares += (ag[k] - goal_[k]) * (ag[k] - goal_[k]);
    const double d = std::sqrt(squares);
    *out.info_as<float>(0) = d < hp_.distance_threshold ? 1.0f : 0.0f;
    out.put_info(1, d);
    *out.reward = hp_.sparse ? (d > hp_.distance_threshold ? -1.0 : -0.0) : -d;
  }

  int tips_[5]{}, targets_[5]{}, fingers_[5]{};
  std::array<double, 15> initial_goal_{};
  std::array<double, 3> palm_{};
  std::vector<double> initial_qpos_;
};

// ------------------------------------------------------- HandManipulate

enum class Position { kIgnore, kFixed, kRandom };
enum class Rotation { kIgnore, kFixed, kXyz, kZ, kParallel };
enum class Touch { kOff, kBoolean, kSensordata, kLog };

// The options of the manipulation tasks (manipulate.py), checked.
struct ManipulateParams {
  Position position;
  Rotation rotation;
  Touch touch;
  bool randomize_initial_position, randomize_initial_rotation, ignore_z;
  double rotation_threshold;
  std::string visualisation;

  explicit ManipulateParams(const Config& c)
      : position(position_of(c.get_string("target_position"))),
        rotation(rotation_of(c.get_string("target_rotation"))),
        touch(touch_of(c.get_string("touch_get_obs"))),
        randomize_initial_position(c.get_bool("randomize_initial_position")),
        randomize_initial_rotation(c.get_bool("randomize_initial_rotation")),
        ignore_z(c.get_bool("ignore_z_target_rotation")),
        rotation_threshold(c.get_finite("rotation_threshold")),
        visualisation(c.get_string("touch_visualisation")) {
    if (visualisation != "on_touch" && visualisation != "always" && visualisation != "off") {
      throw std::invalid_argument("touch_visualisation must be 'on_touch', 'always' or 'off', got '" + visualisation +
                                  "'");
    }
  }

  static Position position_of(const std::string& s) {
    if (s == "ignore") return Position::kIgnore;
    if (s == "fixed") return Position::kFixed;
    if (s == "random") return Position::kRandom;
    throw std::invalid_argument("target_position must be 'ignore', 'fixed' or 'random', got '" + s + "'");
  }
  static Rotation rotation_of(const std::string& s) {
    if (s == "ignore") return Rotation::kIgnore;
    if (s == "fixed") return Rotation::kFixed;
    if (s == "xyz") return Rotation::kXyz;
    if (s == "z") return Rotation::kZ;
    if (s == "parallel") return Rotation::kParallel;
    throw std::invalid_argument("target_rotation must be 'ignore', 'fixed', 'xyz', 'z' or 'parallel', got '" + s +
                                "'");
  }
  static Touch touch_of(const std::string& s) {
    if (s == "off") return Touch::kOff;
    if (s == "boolean") return Touch::kBoolean;
    if (s == "sensordata") return Touch::kSensordata;
    if (s == "log") return Touch::kLog;
    throw std::invalid_argument("touch_get_obs must be 'off', 'boolean', 'sensordata' or 'log', got '" + s + "'");
  }
};

// The 92 touch sensors (named robot0:TS_*), in sensor-id order.
std::vector<int> touch_sensors(const mjModel* m) {
  std::vector<int> ids;
  for (int i = 0; i < m->nsensor; ++i) {
    const char* name = api().id2name(m, mjOBJ_SENSOR, i);
    if (name != nullptr && std::string_view(name).find("robot0:TS_") != std::string_view::npos) ids.push_back(i);
  }
  return ids;
}

EnvSpec manipulate_spec(const Config& c) {
  HandParams p(c);
  ManipulateParams mp(c);
  const auto model = mujoco::load_model(c.get_string("_xml_file"));
  const auto touch = mp.touch == Touch::kOff ? 0 : static_cast<std::int64_t>(touch_sensors(model.get()).size());
  EnvSpec s = goal_spec(7, 61 + touch, kActions, std::round(1.0 / (model->opt.timestep * p.n_substeps)));
  s.render_cameras = model->ncam;
  return s;
}

class HandManipulate final : public HandEnv {
 public:
  HandManipulate(const Config& c, const std::string& name)
      : HandEnv(c, name, 7),
        mp_(c),
        object_joint_(joint_id(m_, "object:joint", xml_file_)),
        target_joint_(joint_id(m_, "target:joint", xml_file_)),
        center_(site_id(m_, "object:center", xml_file_)),
        touch_(mp_.touch == Touch::kOff ? std::vector<int>() : touch_sensors(m_)),
        visualisation_(mp_.visualisation) {
    for (int sensor : touch_sensors(m_)) {
      std::string name = api().id2name(m_, mjOBJ_SENSOR, sensor);
      name.replace(name.find("robot0:TS_"), 10, "robot0:T_");
      touch_sites_.push_back({sensor, site_id(m_, name.c_str(), xml_file_)});
    }
    // _env_setup with no initial positions: mj_forward only.
    api().forward(m_, d_);
    initial_qpos_.assign(d_->qpos, d_->qpos + m_->nq);
    initial_qvel_.assign(d_->qvel, d_->qvel + m_->nv);
    initial_time_ = d_->time;
  }

  void reset(Rng& rng, const Output& out) override {
    begin_episode(rng);
    int tries = 0;
    while (!reset_sim()) {
      if (++tries >= kMaxResetTries) {
        throw std::runtime_error(xml_file_ + ": the object fell off the palm in " + std::to_string(tries) +
                                 " reset attempts in a row");
      }
    }
    sample_goal();
    write(out);
  }


 protected:
  // manipulate_touch_sensors.py's touch_visualisation: each touch sensor's
  // site red while it reads a touch and faint green otherwise ("on_touch"),
  // hidden ("off"), or as the model has it ("always").
  void edit_scene(mjvScene& scene, const mjData* frame) const override {
    if (touch_sites_.empty() || visualisation_ == "always") return;
    for (int g = 0; g < scene.ngeom; ++g) {
      mjvGeom& geom = scene.geoms[g];
      if (geom.objtype != mjOBJ_SITE) continue;
      for (const auto& [sensor, site] : touch_sites_) {
        if (geom.objid != site) continue;
        if (visualisation_ == "off") {
          geom.rgba[3] = 0.0f;
        } else {
          const bool touched = frame->sensordata[sensor] != 0.0;
          const float touch[4] = {1.0f, 0.0f, 0.0f, 0.5f}, none[4] = {0.0f, 0.5f, 0.0f, 0.2f};
          std::copy(touched ? touch : none, (touched ? touch : none) + 4, geom.rgba);
        }
      }
    }
  }

  // _render_callback: the target object shows the goal (beside the hand where
  // the goal's position is ignored), at rest.
  void pose_frame(mjData* frame) const override {
    double* target = frame->qpos + m_->jnt_qposadr[target_joint_];
    std::copy(goal_.begin(), goal_.end(), target);
    if (mp_.position == Position::kIgnore) target[0] += 0.15;
    std::fill(frame->qvel + m_->jnt_dofadr[target_joint_], frame->qvel + m_->jnt_dofadr[target_joint_] + 6, 0.0);
  }

 private:
  double* object_qpos() const { return d_->qpos + m_->jnt_qposadr[object_joint_]; }

  // A random rotation of the kind target_rotation says (reset and goal draw alike).
  void random_rotation(double quat[4]) {
    const double angle = rng_.uniform(-std::numbers::pi, std::numbers::pi);
    if (mp_.rotation == Rotation::kXyz || mp_.rotation == Rotation::kIgnore) {
      double axis[3];
      for (double& a : axis) a = rng_.uniform(-1.0, 1.0);
      quat_from_angle_and_axis(angle, axis, quat);
      return;
    }
    double axis[3] = {0.0, 0.0, 1.0};
    quat_from_angle_and_axis(angle, axis, quat);
    if (mp_.rotation == Rotation::kParallel) {
      const auto& parallel = parallel_quats()[rng_.integer(parallel_quats().size())];
      double z[4];
      std::copy(quat, quat + 4, z);
      quat_mul(z, parallel.data(), quat);
    }
  }

  // MujocoManipulateEnv._reset_sim (no mj_resetData: the warm start and the
  // controls carry over): the object turned and moved a little, then 10 steps
  // with the hand at rest; the reset holds if the object is still on the palm.
  bool reset_sim() {
    d_->time = initial_time_;
    std::copy(initial_qpos_.begin(), initial_qpos_.end(), d_->qpos);
    std::copy(initial_qvel_.begin(), initial_qvel_.end(), d_->qvel);
    api().forward(m_, d_);
    double pos[3], quat[4];
    std::copy(object_qpos(), object_qpos() + 3, pos);
    std::copy(object_qpos() + 3, object_qpos() + 7, quat);
    if (mp_.randomize_initial_rotation && mp_.rotation != Rotation::kFixed) {
      double offset[4];
      random_rotation(offset);
      double turned[4];
      quat_mul(quat, offset, turned);
      std::copy(turned, turned + 4, quat);
    }
    if (mp_.randomize_initial_position && mp_.position != Position::kFixed) {
      for (double& p : pos) p += rng_.normal(0.0, 0.005);
    }
    const double n = norm4(quat);
    for (double& q : quat) q /= n;
    std::copy(pos, pos + 3, object_qpos());
    std::copy(quat, quat + 4, object_qpos() + 3);
    const float zeros[kActions] = {};
    for (int i = 0; i < 10; ++i) {
      set_action(zeros);
      simulate();
    }
    api().forward(m_, d_);
    return d_->site_xpos[3 * center_ + 2] > 0.04;
  }

  // _sample_goal.
  void sample_goal() {
    const double* object = object_qpos();
    if (mp_.position == Position::kRandom) {
      // target_position_range of the three objects: x +-0.04, y -0.06..0.02, z 0..0.06.
      const double low[3] = {-0.04, -0.06, 0.0}, high[3] = {0.04, 0.02, 0.06};
      double offset[3];
      for (int k = 0; k < 3; ++k) offset[k] = rng_.uniform(low[k], high[k]);
      for (int k = 0; k < 3; ++k) goal_[k] = object[k] + offset[k];
    } else {
      std::copy(object, object + 3, goal_.begin());
    }
    double quat[4];
    if (mp_.rotation == Rotation::kIgnore || mp_.rotation == Rotation::kFixed) {
      // The object's own orientation.
      std::copy(object + 3, object + 7, quat);
    } else {
      random_rotation(quat);
    }
    const double n = norm4(quat);
    for (int k = 0; k < 4; ++k) goal_[3 + k] = quat[k] / n;
  }

  // _goal_distance: the position's distance (0 where ignored) and the angle
  // between the orientations (0 where ignored; the Pen's leaves out z).
  std::pair<double, double> distances(const double* a, const double* b) const {
    double d_pos = 0.0, d_rot = 0.0;
    if (mp_.position != Position::kIgnore) {
      const double delta[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
      d_pos = norm3(delta);
    }
    if (mp_.rotation != Rotation::kIgnore) {
      double qa[4];
      std::copy(a + 3, a + 7, qa);
      if (mp_.ignore_z) {
        double ea[3], eb[3];
        quat2euler(qa, ea);
        quat2euler(b + 3, eb);
        ea[2] = eb[2];
        euler2quat(ea, qa);
      }
      double conj[4], diff[4];
      quat_conjugate(b + 3, conj);
      quat_mul(qa, conj, diff);
      d_rot = 2 * std::acos(mujoco::clip(diff[0], -1.0, 1.0));
    }
    return {d_pos, d_rot};
  }

  void write(const Output& out) const override {
    double* ag = out.obs_as<double>(0);
    std::copy(object_qpos(), object_qpos() + 7, ag);
    std::copy(goal_.begin(), goal_.end(), out.obs_as<double>(1));
    ObsWriter w(out.obs_as<double>(2));
    put_robot(w);
    w.put(d_->qvel + m_->jnt_dofadr[object_joint_], 6);
    w.put(ag, 7);
    // Indexed by sensor id, as manipulate_touch_sensors.py does.
    for (int id : touch_) {
      const double x = d_->sensordata[id];
      switch (mp_.touch) {
        case Touch::kBoolean: w.put(x > 0.0 ? 1.0 : 0.0); break;
        case Touch::kLog: w.put(std::log(x + 1.0)); break;
        default: w.put(x); break;
      }
    }
    const auto [d_pos, d_rot] = distances(ag, goal_.data());
    const bool success = d_pos < hp_.distance_threshold && d_rot < mp_.rotation_threshold;
    *out.info_as<float>(0) = success ? 1.0f : 0.0f;
    out.put_info(1, d_pos + d_rot);
    *out.reward = hp_.sparse ? (success ? 0.0 : -1.0) : -(10.0 * d_pos + d_rot);
  }

  const ManipulateParams mp_;
  const int object_joint_, target_joint_, center_;
  const std::vector<int> touch_;
  const std::string visualisation_;
  std::vector<std::pair<int, int>> touch_sites_;  // (sensor id, its site's id)
  std::vector<double> initial_qpos_, initial_qvel_;
  double initial_time_ = 0.0;
};

// The Pen's defaults differ (manipulate_pen.py): its goal leaves out the
// rotation about z, it starts unrotated, and 5 cm is close enough.
std::vector<Option> manipulate_options(bool pen) {
  auto options = hand_options(pen ? 0.05 : 0.01);
  options.insert(options.end(), {
      {"target_position", std::string("random"), "the goal position: 'random', 'ignore' or 'fixed'"},
      {"target_rotation", std::string("xyz"), "the goal orientation: 'xyz', 'z', 'parallel', 'ignore' or 'fixed'"},
      {"touch_get_obs", std::string("off"),
       "the 92 touch sensors in the observation: 'off', 'boolean', 'sensordata' (as read) or 'log' (log(x + 1))"},
      {"randomize_initial_position", true, "the object starts a little off its place"},
      {"randomize_initial_rotation", !pen, "the object starts turned as target_rotation says"},
      {"ignore_z_target_rotation", pen, "the goal's rotation about z is left out"},
      {"rotation_threshold", 0.1, "angle (rad) within which the goal orientation counts as reached"},
      {"touch_visualisation", std::string("on_touch"),
       "frames show the touch sensors' sites: 'on_touch' (red while touched), 'always' or 'off'"},
  });
  return options;
}

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "HandReach",
                       .options = with_pixels(hand_options(0.01)),
                       .spec = reach_spec,
                       .create = make_env<HandReach>()}) &&
    register_env_type({.name = "HandManipulateBlock",
                       .options = with_pixels(manipulate_options(false)),
                       .spec = manipulate_spec,
                       .create = make_env<HandManipulate>(std::string("HandManipulateBlock"))}) &&
    register_env_type({.name = "HandManipulateEgg",
                       .options = with_pixels(manipulate_options(false)),
                       .spec = manipulate_spec,
                       .create = make_env<HandManipulate>(std::string("HandManipulateEgg"))}) &&
    register_env_type({.name = "HandManipulatePen",
                       .options = with_pixels(manipulate_options(true)),
                       .spec = manipulate_spec,
                       .create = make_env<HandManipulate>(std::string("HandManipulatePen"))});

}  // namespace rlpool::robotics
