// Shared base of the MetaWorld tasks: metaworld 3.1.1's SawyerXYZEnv
// (sawyer_xyz_env.py) and its reward utilities (utils/reward_utils.py) in C++.
//
// A task is a subclass of SawyerEnv (one file per task, as metaworld's
// envs/sawyer_*_v3.py) that says what its model, spaces and initial positions
// are (TaskSetup), places its objects and goal at reset (reset_model), names
// its objects' positions and orientations (objects) and scores a step
// (evaluate_state); it registers itself with register_task. One env type,
// "MetaWorld", makes any of them: a pool's env i runs the i-th task of the
// `task_name` list (wrapping round), so that one pool can hold a multi-task
// benchmark (MT10, ML10's training tasks, ...).
//
// Models are compiled once per file and shared read-only. The only model
// fields metaworld's tasks write (body_pos and site_pos: where a door stands,
// the goal marker) are the env's own: each env steps a view of the shared
// model, a copy of the mjModel struct whose body_pos and site_pos point at
// arrays of its own (the rest points into the shared model's buffer).
//
// Random draws come from the env's own generator, seeded from four draws of
// the pool's at every reset (so a saved state holds it). metaworld draws its
// task vector (`_get_state_rand_vec`: object and goal positions) from its
// np_random in each of the two reset_model calls of a reset (its own reset,
// then gymnasium's MujocoEnv.reset after mj_resetData); rlpool makes the same
// two passes with the same draws, and skips the simulation of the first,
// whose state mj_resetData throws away.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "_core/env/env.h"
#include "envs/mujoco/mujoco_env.h"

namespace rlpool::metaworld {

using mujoco::api;
using Vec3 = std::array<double, 3>;

// --- utils/reward_utils.py -------------------------------------------------

enum class Sigmoid { kGaussian, kHyperbolic, kLongTail, kReciprocal, kCosine, kLinear, kQuadratic, kTanhSquared };

// reward_utils.tolerance: 1 inside [lower, upper], else the sigmoid of the
// distance to the nearest bound over `margin` (value_at_margin there); with
// margin 0, 0 outside.
double tolerance(double x, double lower, double upper, double margin, Sigmoid sigmoid = Sigmoid::kGaussian,
                 double value_at_margin = 0.1);
// reward_utils.hamacher_product: a*b / (a + b - a*b), 0 where that is 0.
double hamacher_product(double a, double b);
// reward_utils.rect_prism_tolerance.
double rect_prism_tolerance(const Vec3& curr, const Vec3& zero, const Vec3& one);

// --- small vector helpers (numpy on 3-vectors) ------------------------------

inline Vec3 vec3(const double* p) { return {p[0], p[1], p[2]}; }
inline Vec3 operator+(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 operator-(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 operator*(const Vec3& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
// np.linalg.norm of a 3-vector, of its first two entries, of any n.
inline double norm(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }
inline double norm2(const Vec3& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1]); }
inline double norm(const double* a, int n) { return mujoco::norm(a, n); }

// scipy's Rotation.from_matrix(xmat).as_quat(): (x, y, z, w), by the same
// branch on the largest of the diagonal and the trace.
std::array<double, 4> quat_from_matrix(const double* xmat);

// --- a task -----------------------------------------------------------------

// What a task's __init__ gives SawyerXYZEnv and sets up: its model, the hand's
// and the mocap's bounds, the random reset space (`_random_reset_space`: the
// task vector's bounds) and the goal space.
struct TaskSetup {
  std::string xml;  // under metaworld's assets folder: "sawyer_xyz/sawyer_reach_v3.xml"
  Vec3 hand_low{-0.2, 0.55, 0.05}, hand_high{0.2, 0.75, 0.3};
  std::optional<Vec3> mocap_low = {}, mocap_high = {};  // default: the hand's
  std::vector<double> reset_low, reset_high;
  Vec3 goal_low{}, goal_high{};
  Vec3 hand_init_pos{};
};

// evaluate_state's reward and the seven entries of metaworld's info.
struct Evaluation {
  double reward = 0.0;
  double success = 0.0, near_object = 0.0, grasp_success = 0.0, grasp_reward = 0.0, in_place_reward = 0.0,
         obj_to_target = 0.0, unscaled_reward = 0.0;
};

// An Evaluation from evaluate_state's parts, in metaworld's info order (true/false as 1.0/0.0); the
// unscaled reward is the reward, as every v2 task reports it.
inline Evaluation evaluation(double reward, double success, double near_object, double grasp_success,
                             double grasp_reward, double in_place_reward, double obj_to_target) {
  return {reward, success, near_object, grasp_success, grasp_reward, in_place_reward, obj_to_target, reward};
}

// The info most v2 tasks report: success once the object is within 0.07 of the target, near_object once
// the gripper's centre is within 0.03 of the object.
inline Evaluation target_evaluation(double reward, double obj_to_target, double tcp_to_obj, bool grasp_success,
                                    double grasp_reward, double in_place_reward) {
  return evaluation(reward, obj_to_target <= 0.07, tcp_to_obj <= 0.03, grasp_success, grasp_reward,
                    in_place_reward, obj_to_target);
}

// Up to 14 numbers of the objects' positions (3 each) or quaternions (4 each).
struct Objects {
  std::array<double, 14> pos{}, quat{};
  int npos = 0, nquat = 0;
  void add_pos(const double* p) { for (int k = 0; k < 3; ++k) pos[npos++] = p[k]; }
  void add_pos(const Vec3& p) { add_pos(p.data()); }
  void add_quat(const double* q) { for (int k = 0; k < 4; ++k) quat[nquat++] = q[k]; }
  void add_quat(const std::array<double, 4>& q) { add_quat(q.data()); }
};

// What every env of a pool shares: the options, read once.
struct Common {
  std::string assets;              // metaworld's assets folder
  std::vector<std::string> tasks;  // task_name, split at commas
  std::vector<int> task_ids;       // each one's place in metaworld's list (_task_ids)
  bool partially_observable;
  bool use_one_hot;
  int num_goals;
  std::uint64_t goal_seed;
  explicit Common(const Config& c);
};

class SawyerEnv : public Env {
 public:
  void reset(Rng& rng, const Output& out) override;
  void step(const Action& action, Rng& rng, const Output& out) override;
  std::string get_state() const override;
  void set_state(std::string_view bytes) override;
  void render(const Frame& frame) override;

  // Which task of the pool's list this env runs, and the whole list.
  void place(int task_index, const Common& common, const std::string& task_name);

 protected:
  SawyerEnv(const Config& config, const TaskSetup& setup);

  // The task's reset_model, up to its `return self._get_obs()` (the base
  // makes the observation).
  virtual void reset_model() = 0;
  // _get_pos_objects and _get_quat_objects.
  virtual void objects(Objects& out) const = 0;
  // evaluate_state(obs, action): obs is the clipped 39-entry observation,
  // action the action as given (4 entries, not clipped).
  virtual Evaluation evaluate_state(const double* obs, const double* action) = 0;
  // _get_id_main_object (touching_main_object): geom "objGeom" unless the task says.
  virtual int main_object_geom() const { return geom("objGeom"); }
  // _get_pos_goal: the target position unless the task says.
  virtual Vec3 pos_goal() const { return target_pos_; }

  // Ids by name; std::invalid_argument naming the file if absent.
  int body(const char* name) const;
  int site(const char* name) const;
  int geom(const char* name) const;
  int joint(const char* name) const;

  // data.body(name).xpos (get_body_com), data.site(name).xpos, data.geom(name).xpos. In metaworld these
  // are views of mjData, not copies: an attribute set from one without .copy() (init_left_pad = get_body_com(
  // "leftpad"), obj_init_pos = self._get_pos_objects() in some tasks) follows the simulation, and its C++
  // port reads the live value where it is used.
  Vec3 body_com(int id) const { return vec3(d_->xpos + 3 * id); }
  Vec3 body_com(const char* name) const { return body_com(body(name)); }
  Vec3 site_pos(int id) const { return vec3(d_->site_xpos + 3 * id); }
  Vec3 site_pos(const char* name) const { return site_pos(site(name)); }
  Vec3 geom_pos(const char* name) const { return vec3(d_->geom_xpos + 3 * geom(name)); }
  const double* body_quat(const char* name) const { return d_->xquat + 4 * body(name); }
  // Rotation.from_matrix(data.geom(name).xmat).as_quat() / of a body's / a site's xmat.
  std::array<double, 4> geom_quat(const char* name) const { return quat_from_matrix(d_->geom_xmat + 9 * geom(name)); }
  std::array<double, 4> body_xmat_quat(const char* name) const { return quat_from_matrix(d_->xmat + 9 * body(name)); }
  std::array<double, 4> site_quat(const char* name) const { return quat_from_matrix(d_->site_xmat + 9 * site(name)); }
  // self.model.body(name).pos = p / self.model.site(name).pos = p (this env's own copy).
  void set_body_pos(const char* name, const Vec3& p);
  void set_site_pos(const char* name, const Vec3& p);
  Vec3 model_body_pos(const char* name) const { return vec3(m_->body_pos + 3 * body(name)); }
  Vec3 model_site_pos(const char* name) const { return vec3(m_->site_pos + 3 * site(name)); }
  // qpos / qvel of a joint (its first entry).
  double* joint_qpos(const char* name) { return d_->qpos + m_->jnt_qposadr[joint(name)]; }
  double* joint_qvel(const char* name) { return d_->qvel + m_->jnt_dofadr[joint(name)]; }

  // tcp_center: the middle of the two fingers' end-effector sites.
  Vec3 tcp_center() const;
  // _get_state_rand_vec: the task vector (its size is the reset space's),
  // drawn U(reset_low, reset_high) entry by entry, or the env's chosen goal
  // where the pool holds fixed goals (num_goals > 0).
  std::vector<double> rand_vec();
  // _reset_hand: `steps` frame_skips with the mocap at hand_init_pos and the
  // gripper open; then init_tcp = tcp_center. No simulation in a reset's
  // first pass.
  void reset_hand(int steps = 50);
  // gymnasium's MujocoEnv.set_state: qpos and qvel, then mj_forward.
  void set_state(const double* qpos, const double* qvel);
  // _set_obj_xyz: qpos[9:12] = pos, qvel[9:15] = 0, then set_state.
  void set_obj_xyz(const Vec3& pos);
  // do_simulation(ctrl, frame_skip): ctrl, then frame_skip mj_steps (none in a reset's first pass).
  void do_simulation(double ctrl0, double ctrl1);
  // mujoco.mj_step(model, data) `n` times, as a few tasks' reset_model call it (none in a first pass).
  void mj_steps(int n);
  // mujoco.mj_forward.
  void forward() { api().forward(m_, d_); }
  // touching_object / touching_main_object: the contact forces of both
  // finger pads on the geom are positive.
  bool touching_object(int object_geom) const;
  bool touching_main_object() const { return touching_object(main_object_geom()); }
  // SawyerXYZEnv._gripper_caging_reward.
  double gripper_caging_reward(const double* action, const Vec3& obj_pos, double obj_radius, double pad_success_thresh,
                               double object_reach_radius, double xz_thresh, double desired_gripper_effort = 1.0,
                               bool high_density = false, bool medium_density = false) const;
  // The caging reward pick-place's family of tasks overrides _gripper_caging_reward with: the pads'
  // caging of the object in y (bounds obj_radius..pad_success_margin, margins from the pads' live
  // positions: metaworld's init_left_pad / init_right_pad are views) and the gripper centre's in the
  // x-z plane (bounds 0..x_z_success_margin, margin from obj_init_pos_ and init_tcp_). pad_caging_reward
  // is pick-place's: caging combined with the gripper's closing (the action's last entry, in float32) once
  // caging > 0.97, averaged with caging. pad_gripping_reward is soccer's, sweep's and push-back's: caging
  // averaged with the pads' gripping in y (bounds obj_radius..grip_success_margin) once caging > 0.95.
  double pad_caging_reward(const double* action, const Vec3& obj_pos, double obj_radius, double pad_success_margin,
                           double x_z_success_margin) const;
  double pad_gripping_reward(const Vec3& obj_pos, double obj_radius, double pad_success_margin,
                             double grip_success_margin, double x_z_success_margin) const;
  // Task state beyond mjData that a saved state must hold (the initial object
  // position, heights and distances set at reset): registered once, by the
  // task's constructor, as `n` doubles at `p`.
  void keep(double* p, int n) { kept_.emplace_back(p, n); }
  void keep(Vec3& v) { keep(v.data(), 3); }
  void keep(double& x) { keep(&x, 1); }

  static constexpr int kFrameSkip = 5;
  static constexpr int kMaxPathLength = 500;

  const std::string xml_file_;
  const std::shared_ptr<const mjModel> shared_;
  mjModel model_view_;
  std::vector<double> body_pos_, site_pos_;
  mjModel* const m_;
  std::unique_ptr<mjData, void (*)(mjData*)> data_;
  mjData* const d_;
  const TaskSetup setup_;
  const Vec3 mocap_low_, mocap_high_;
  // SawyerXYZEnv's attributes the tasks read and write.
  Vec3 hand_init_pos_;
  Vec3 target_pos_{};
  Vec3 obj_init_pos_{};
  Vec3 init_tcp_{};
  int curr_path_length_ = 0;
  // True during a reset's first reset_model pass: draws, no simulation.
  bool first_pass_ = false;

 private:
  // The two caging terms of pad_caging_reward and pad_gripping_reward: the pads' in y, the gripper's in x-z.
  struct PadCaging {
    double y_caging, x_z_caging, y_gripping;
  };
  PadCaging pad_caging(const Vec3& obj_pos, double obj_radius, double pad_success_margin, double grip_success_margin,
                       double x_z_success_margin) const;
  void write_obs(double* obs, bool clip);
  void write(const Output& out, const double* obs, const Evaluation& e);
  std::array<double, 18> curr_obs_combined_no_goal() const;

  Rng rng_;
  std::array<std::uint64_t, 4> start_words_{};
  bool started_ = false;
  std::vector<std::pair<double*, int>> kept_;
  std::array<double, 18> prev_obs_{};
  std::vector<double> last_rand_vec_;
  // The pool's place of this env: the task's index in its list and in EnvPool's
  // list; fixed goals (num_goals > 0) and the one in use.
  int task_index_ = 0, task_id_ = 0, num_tasks_ = 1;
  bool partially_observable_ = true, use_one_hot_ = false;
  std::vector<std::vector<double>> goals_;
  int goal_ = -1;
  std::string config_key_;
  const int mocap_;
  const int left_pad_, right_pad_, leftpad_geom_, rightpad_geom_, hand_, right_claw_, left_claw_, right_end_,
      left_end_;
  std::unique_ptr<mujoco::Renderer> renderer_;
  mjvCamera free_camera_{};
};

// A task's maker and setup, registered by its file under metaworld's name
// ("pick-place-v3").
struct TaskType {
  std::string name;
  TaskSetup setup;
  std::function<std::unique_ptr<SawyerEnv>(const Config&, const TaskSetup&)> create;
};
bool register_task(TaskType type);

// register_task's `create` for a task class T(config, setup).
template <class T>
std::function<std::unique_ptr<SawyerEnv>(const Config&, const TaskSetup&)> make_task() {
  return [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> { return std::make_unique<T>(c, s); };
}

}  // namespace rlpool::metaworld
