// FetchReach, FetchPush, FetchSlide and FetchPickAndPlace (-v4; EnvPool's -v1
// ids run the same), as gymnasium_robotics 1.4.2's envs/fetch/fetch_env.py
// (MujocoFetchEnv) with the task files reach.py, push.py, slide.py and
// pick_and_place.py, and the mocap helpers of utils/mujoco_utils.py.
#include <cmath>

#include "envs/robotics/robot_env.h"
#include "envs/robotics/rotations.h"

namespace rlpool::robotics {
namespace {

// What a task file (reach.py, push.py, ...) fixes: whether there is an object,
// and where the object starts before setup (object0:joint's initial_qpos).
struct Task {
  std::string name;
  bool has_object;
  std::array<double, 7> object_pose;
};

// The options, checked; the spec reads them too, so that make_spec refuses bad ones.
struct Params {
  bool sparse, has_object, block_gripper, target_in_the_air;
  int n_substeps;
  double distance_threshold, gripper_extra_height, obj_range, target_range;
  std::array<double, 3> target_offset, initial_slide;

  Params(const Config& c, bool object)
      : sparse(sparse_reward(c)),
        has_object(object),
        block_gripper(c.get_bool("block_gripper")),
        target_in_the_air(c.get_bool("target_in_the_air")),
        n_substeps(static_cast<int>(c.get_int_in("n_substeps", 1, 1'000'000))),
        distance_threshold(c.get_finite("distance_threshold")),
        gripper_extra_height(c.get_finite("gripper_extra_height")),
        obj_range(c.get_double_in("obj_range", 0.0, 1e3)),
        target_range(c.get_double_in("target_range", 0.0, 1e3)),
        target_offset{c.get_finite("target_offset_x"), c.get_finite("target_offset_y"),
                      c.get_finite("target_offset_z")},
        initial_slide{c.get_finite("initial_slide0"), c.get_finite("initial_slide1"),
                      c.get_finite("initial_slide2")} {
    // The object is placed at least 0.1 from the gripper, by drawing again until it is.
    if (has_object && obj_range * std::sqrt(2.0) <= 0.1) {
      throw std::invalid_argument("obj_range must be more than 0.1 / sqrt(2) = 0.0707 (the object starts at least "
                                  "0.1 from the gripper), got " + std::to_string(obj_range));
    }
  }
};

std::shared_ptr<const mjModel> fetch_model(const Config& c) {
  return patched_model(c.get_string("_xml_file"), "mocap welds", reset_mocap_welds);
}

EnvSpec spec(const Config& c, bool object) {
  const Params p(c, object);
  const auto model = fetch_model(c);
  const std::string& xml = c.get_string("_xml_file");
  site_id(model.get(), "robot0:grip", xml);
  if (object) site_id(model.get(), "object0", xml);
  // 25 entries with an object (Push, Slide, PickAndPlace), 10 without (Reach).
  EnvSpec s = goal_spec(3, object ? 25 : 10, 4, std::round(1.0 / (model->opt.timestep * p.n_substeps)));
  s.render_cameras = model->ncam;
  return s;
}

// gymnasium-robotics' DEFAULT_CAMERA_CONFIG of the Fetch envs.
CameraConfig fetch_camera() {
  CameraConfig camera;
  camera.distance = 2.5;
  camera.azimuth = 132.0;
  camera.elevation = -14.0;
  camera.lookat = std::array<double, 3>{1.3, 0.75, 0.55};
  return camera;
}

class Fetch final : public RobotEnv {
 public:
  Fetch(const Config& c, const Task& task)
      : RobotEnv(c, fetch_model(c), c.get_string("_xml_file"), task.name, 3, fetch_camera()),
        task_(task),
        p_(c, task.has_object),
        grip_(site_id(m_, "robot0:grip", xml_file_)),
        object_(task.has_object ? site_id(m_, "object0", xml_file_) : -1),
        target_(site_id(m_, "target0", xml_file_)),
        object_joint_(task.has_object ? joint_id(m_, "object0:joint", xml_file_) : -1),
        left_finger_(joint_id(m_, "robot0:l_gripper_finger_joint", xml_file_)),
        right_finger_(joint_id(m_, "robot0:r_gripper_finger_joint", xml_file_)),
        mocap_(m_->body_mocapid[body_id(m_, "robot0:mocap", xml_file_)]) {
    mujoco::require(robot_joints().size() >= 2, "'" + xml_file_ + "' needs the gripper's two robot joints");
    mujoco::require(mocap_ >= 0, "'" + xml_file_ + "': robot0:mocap is not a mocap body");
    setup();
  }

  void reset(Rng& rng, const Output& out) override {
    begin_episode(rng);
    // _reset_sim: the settled state of setup(), then the object somewhere on
    // the table at least 0.1 from the gripper.
    api().resetData(m_, d_);
    d_->time = initial_time_;
    std::copy(initial_qpos_.begin(), initial_qpos_.end(), d_->qpos);
    std::copy(initial_qvel_.begin(), initial_qvel_.end(), d_->qvel);
    if (p_.has_object) {
      double x = grip0_[0], y = grip0_[1];
      while (std::sqrt((x - grip0_[0]) * (x - grip0_[0]) + (y - grip0_[1]) * (y - grip0_[1])) < 0.1) {
        x = grip0_[0] + rng_.uniform(-p_.obj_range, p_.obj_range);
        y = grip0_[1] + rng_.uniform(-p_.obj_range, p_.obj_range);
      }
      double* object_qpos = d_->qpos + m_->jnt_qposadr[object_joint_];
      object_qpos[0] = x;
      object_qpos[1] = y;
    }
    api().forward(m_, d_);
    sample_goal();
    write(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    // The action as gymnasium-robotics takes it: clipped to [-1, 1] as float32;
    // the position change is float32 too (action[:3] *= 0.05).
    float a[4];
    for (int i = 0; i < 4; ++i) a[i] = f32(mujoco::clip(action.continuous()[i], -1.0, 1.0));
    const double grip = p_.block_gripper ? 0.0 : static_cast<double>(a[3]);
    // ctrl_set_action: the gripper's two position actuators (PickAndPlace)
    // aim at the fingers' positions plus the action.
    for (int i = 0; i < m_->nu && i < 2; ++i) {
      d_->ctrl[i] = m_->actuator_biastype[i] == mjBIAS_NONE
                        ? grip
                        : d_->qpos[m_->jnt_qposadr[m_->actuator_trnid[2 * i]]] + grip;
    }
    // mocap_set_action: the mocap moves to its welded body's pose (as the last
    // step left it), plus the position change and the fixed rotation [1, 0, 1, 0].
    reset_mocap_to_bodies();
    const float scale = f32(0.05);
    for (int k = 0; k < 3; ++k) d_->mocap_pos[3 * mocap_ + k] += static_cast<double>(a[k] * scale);
    const double rot[4] = {1.0, 0.0, 1.0, 0.0};
    for (int k = 0; k < 4; ++k) d_->mocap_quat[4 * mocap_ + k] += rot[k];
    for (int i = 0; i < p_.n_substeps; ++i) api().step(m_, d_);
    // _step_callback: a blocked gripper's fingers are held closed.
    if (p_.block_gripper) {
      d_->qpos[m_->jnt_qposadr[left_finger_]] = 0.0;
      d_->qpos[m_->jnt_qposadr[right_finger_]] = 0.0;
      api().forward(m_, d_);
    }
    write(out);
  }

 protected:
  std::vector<std::pair<int, std::array<double, 3>>> marker_sites() const override {
    return {{target_, {goal_[0], goal_[1], goal_[2]}}};
  }
  bool fresh_frame() const override { return true; }

 private:
  // _env_setup, once per env: the initial joint positions, the mocap moved
  // above the table, then 10 x n_substeps steps to let the arm settle there.
  // Every reset starts from the state this leaves (velocities included).
  void setup() {
    const char* slides[3] = {"robot0:slide0", "robot0:slide1", "robot0:slide2"};
    for (int k = 0; k < 3; ++k) d_->qpos[m_->jnt_qposadr[joint_id(m_, slides[k], xml_file_)]] = p_.initial_slide[k];
    if (p_.has_object) std::copy(task_.object_pose.begin(), task_.object_pose.end(), d_->qpos + m_->jnt_qposadr[object_joint_]);
    api().forward(m_, d_);  // reset_mocap_welds' (the welds themselves are the shared model's)
    api().forward(m_, d_);
    const double* g = d_->site_xpos + 3 * grip_;
    const double target[3] = {-0.498 + g[0], 0.005 + g[1], -0.431 + p_.gripper_extra_height + g[2]};
    std::copy(target, target + 3, d_->mocap_pos + 3 * mocap_);
    const double quat[4] = {1.0, 0.0, 1.0, 0.0};
    std::copy(quat, quat + 4, d_->mocap_quat + 4 * mocap_);
    for (int i = 0; i < 10 * p_.n_substeps; ++i) api().step(m_, d_);
    std::copy(d_->site_xpos + 3 * grip_, d_->site_xpos + 3 * grip_ + 3, grip0_.begin());
    if (p_.has_object) height_offset_ = d_->site_xpos[3 * object_ + 2];
    initial_time_ = d_->time;
    initial_qpos_.assign(d_->qpos, d_->qpos + m_->nq);
    initial_qvel_.assign(d_->qvel, d_->qvel + m_->nv);
  }

  // mujoco_utils.reset_mocap2body_xpos: each weld's mocap body takes its
  // other body's pose.
  void reset_mocap_to_bodies() {
    for (int i = 0; i < m_->neq; ++i) {
      if (m_->eq_type[i] != mjEQ_WELD) continue;
      int mocap = m_->body_mocapid[m_->eq_obj1id[i]];
      int body = m_->eq_obj2id[i];
      if (mocap == -1) {
        mocap = m_->body_mocapid[m_->eq_obj2id[i]];
        body = m_->eq_obj1id[i];
      }
      if (mocap == -1) continue;
      std::copy(d_->xpos + 3 * body, d_->xpos + 3 * body + 3, d_->mocap_pos + 3 * mocap);
      std::copy(d_->xquat + 4 * body, d_->xquat + 4 * body + 4, d_->mocap_quat + 4 * mocap);
    }
  }

  // _sample_goal.
  void sample_goal() {
    for (int k = 0; k < 3; ++k) goal_[k] = grip0_[k] + rng_.uniform(-p_.target_range, p_.target_range);
    if (!p_.has_object) return;
    for (int k = 0; k < 3; ++k) goal_[k] += p_.target_offset[k];
    goal_[2] = height_offset_;
    if (p_.target_in_the_air && rng_.uniform() < 0.5) goal_[2] += rng_.uniform(0.0, 0.45);
  }

  // _get_obs, is_success and (after a step) the reward.
  void write(const Output& out) const {
    const double dt = m_->opt.timestep * p_.n_substeps;
    const double* grip_pos = d_->site_xpos + 3 * grip_;
    double grip_velp[3];
    const_cast<Fetch*>(this)->site_velocity(grip_, grip_velp, nullptr);
    for (double& v : grip_velp) v *= dt;
    const auto& robot = robot_joints();
    // gripper_state and gripper_vel: the last two robot joints (the fingers).
    const int finger_a = robot[robot.size() - 2], finger_b = robot[robot.size() - 1];
    ObsWriter w(out.obs_as<double>(2));
    w.put(grip_pos, 3);
    const double* achieved = grip_pos;
    if (p_.has_object) {
      const double* object_pos = d_->site_xpos + 3 * object_;
      achieved = object_pos;
      double object_rot[3], object_velp[3], object_velr[3];
      mat2euler(d_->site_xmat + 9 * object_, object_rot);
      const_cast<Fetch*>(this)->site_velocity(object_, object_velp, object_velr);
      w.put(object_pos, 3);
      for (int k = 0; k < 3; ++k) w.put(object_pos[k] - grip_pos[k]);
      w.put(d_->qpos[m_->jnt_qposadr[finger_a]]);
      w.put(d_->qpos[m_->jnt_qposadr[finger_b]]);
      w.put(object_rot, 3);
      for (int k = 0; k < 3; ++k) w.put(object_velp[k] * dt - grip_velp[k]);
      for (int k = 0; k < 3; ++k) w.put(object_velr[k] * dt);
    } else {
      w.put(d_->qpos[m_->jnt_qposadr[finger_a]]);
      w.put(d_->qpos[m_->jnt_qposadr[finger_b]]);
    }
    w.put(grip_velp, 3);
    w.put(d_->qvel[m_->jnt_dofadr[finger_a]] * dt);
    w.put(d_->qvel[m_->jnt_dofadr[finger_b]] * dt);
    std::copy(achieved, achieved + 3, out.obs_as<double>(0));
    std::copy(goal_.begin(), goal_.end(), out.obs_as<double>(1));
    double squares = 0.0;
    for (int k = 0; k < 3; ++k) squares += (achieved[k] - goal_[k]) * (achieved[k] - goal_[k]);
    const double d = std::sqrt(squares);
    *out.info_as<float>(0) = d < p_.distance_threshold ? 1.0f : 0.0f;
    out.put_info(1, d);
    *out.reward = p_.sparse ? (d > p_.distance_threshold ? -1.0 : -0.0) : -d;
  }

  const Task task_;
  const Params p_;
  const int grip_, object_, target_, object_joint_, left_finger_, right_finger_, mocap_;
  std::array<double, 3> grip0_{};
  double height_offset_ = 0.0;
  double initial_time_ = 0.0;
  std::vector<double> initial_qpos_, initial_qvel_;
};

std::vector<Option> options(double slide0, double gripper_extra_height, bool block_gripper, bool in_the_air,
                            double offset_x, double obj_range, double target_range) {
  return {
      {"_xml_file", std::string(), "gymnasium-robotics' model of the task (set by rlpool.envs.robotics)"},
      {"reward_type", std::string("sparse"), "'sparse' (-1 until the goal is within distance_threshold, then 0) "
                                             "or 'dense' (minus the distance to the goal)"},
      {"n_substeps", std::int64_t{20}, "MuJoCo steps per env step"},
      {"distance_threshold", 0.05, "distance (m) within which the goal counts as reached"},
      {"gripper_extra_height", gripper_extra_height, "height (m) of the gripper's start above its usual one"},
      {"block_gripper", block_gripper, "hold the gripper's fingers closed (its action entry is ignored)"},
      {"target_in_the_air", in_the_air, "half the goals are up to 0.45 m above the table"},
      {"target_offset_x", offset_x, "offset (m) of the goal from the gripper's start, x"},
      {"target_offset_y", 0.0, "offset (m) of the goal from the gripper's start, y"},
      {"target_offset_z", 0.0, "offset (m) of the goal from the gripper's start, z"},
      {"obj_range", obj_range, "the object starts within this distance (m) of the gripper, in x and y"},
      {"target_range", target_range, "the goal is within this distance (m) of the gripper's start, per axis"},
      {"initial_slide0", slide0, "the arm's initial slide joint positions (m), x"},
      {"initial_slide1", 0.48, "the arm's initial slide joint positions (m), y"},
      {"initial_slide2", 0.0, "the arm's initial slide joint positions (m), z"},
  };
}

std::function<EnvSpec(const Config&)> spec_of(bool object) {
  return [object](const Config& c) { return spec(c, object); };
}

const Task kReach{"FetchReach", false, {}};
const Task kPush{"FetchPush", true, {1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0}};
const Task kSlide{"FetchSlide", true, {1.7, 1.1, 0.41, 1.0, 0.0, 0.0, 0.0}};
const Task kPickAndPlace{"FetchPickAndPlace", true, {1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0}};

}  // namespace

static const bool kRegistered =
    register_env_type({.name = "FetchReach",
                       .options = with_pixels(options(0.4049, 0.2, true, true, 0.0, 0.15, 0.15)),
                       .spec = spec_of(false),
                       .create = make_env<Fetch>(kReach)}) &&
    register_env_type({.name = "FetchPush",
                       .options = with_pixels(options(0.405, 0.0, true, false, 0.0, 0.15, 0.15)),
                       .spec = spec_of(true),
                       .create = make_env<Fetch>(kPush)}) &&
    register_env_type({.name = "FetchSlide",
                       .options = with_pixels(options(0.05, -0.02, true, false, 0.4, 0.1, 0.3)),
                       .spec = spec_of(true),
                       .create = make_env<Fetch>(kSlide)}) &&
    register_env_type({.name = "FetchPickAndPlace",
                       .options = with_pixels(options(0.405, 0.2, false, true, 0.0, 0.15, 0.15)),
                       .spec = spec_of(true),
                       .create = make_env<Fetch>(kPickAndPlace)});

}  // namespace rlpool::robotics
