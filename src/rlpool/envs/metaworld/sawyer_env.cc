// The MetaWorld tasks' shared base (sawyer_env.h): metaworld 3.1.1's
// SawyerXYZEnv step, reset, observation, caging reward and reward utilities,
// saved states and frames, and the one env type that makes every task.
#include "envs/metaworld/sawyer_env.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "_core/gfx/pixels.h"
#include "envs/mujoco/state_io.h"

namespace rlpool::metaworld {
namespace {

constexpr std::string_view kMagic = "rlpool-metaworld-v1\n";

std::map<std::string, TaskType>& task_types() {
  static std::map<std::string, TaskType> types;
  return types;
}

const TaskType& find_task(const std::string& name) {
  const auto& types = task_types();
  const auto it = types.find(name);
  if (it == types.end()) {
    std::string known;
    for (const auto& [n, type] : types) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("task_name: unknown MetaWorld task '" + name + "' (the tasks: " + known + ")");
  }
  return it->second;
}

int find_id(const mjModel* m, mjtObj type, const char* kind, const char* name, const std::string& xml_file) {
  const int id = api().name2id(m, type, name);
  if (id < 0) throw std::invalid_argument("'" + xml_file + "' has no " + kind + " named '" + name + "'");
  return id;
}

double sigmoid(double x, double value_at_1, Sigmoid kind) {
  switch (kind) {
    case Sigmoid::kGaussian: {
      const double scale = std::sqrt(-2.0 * std::log(value_at_1));
      const double s = x * scale;
      return std::exp(-0.5 * (s * s));
    }
    case Sigmoid::kHyperbolic:
      return 1.0 / std::cosh(x * std::acosh(1.0 / value_at_1));
    case Sigmoid::kLongTail: {
      const double s = x * std::sqrt(1.0 / value_at_1 - 1.0);
      return 1.0 / (s * s + 1.0);
    }
    case Sigmoid::kReciprocal:
      return 1.0 / (std::abs(x) * (1.0 / value_at_1 - 1.0) + 1.0);
    case Sigmoid::kCosine: {
      const double s = x * (std::acos(2.0 * value_at_1 - 1.0) / M_PI);
      return std::abs(s) < 1.0 ? (1.0 + std::cos(M_PI * s)) / 2.0 : 0.0;
    }
    case Sigmoid::kLinear: {
      const double s = x * (1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s : 0.0;
    }
    case Sigmoid::kQuadratic: {
      const double s = x * std::sqrt(1.0 - value_at_1);
      return std::abs(s) < 1.0 ? 1.0 - s * s : 0.0;
    }
    case Sigmoid::kTanhSquared: {
      const double t = std::tanh(x * std::atanh(std::sqrt(1.0 - value_at_1)));
      return 1.0 - t * t;
    }
  }
  return 0.0;
}

std::vector<std::string> split_tasks(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name.empty()) throw std::invalid_argument("task_name: an empty task name in '" + list + "'");
    find_task(name);
    names.push_back(name);
  }
  if (names.empty()) throw std::invalid_argument("task_name: no task given");
  return names;
}

// metaworld's info entries, in its order: the spec declares them and write() fills them in this order,
// followed by task_id (and task_index in a pool of several tasks).
constexpr const char* kInfoNames[7] = {"success", "near_object", "grasp_success", "grasp_reward",
                                       "in_place_reward", "obj_to_target", "unscaled_reward"};

// SawyerXYZEnv._HAND_SPACE: the bounds of the observed hand position.
constexpr Vec3 kHandSpaceLow{-0.525, 0.348, -0.0525};
constexpr Vec3 kHandSpaceHigh{0.525, 1.025, 0.7};

// metaworld's MujocoEnv camera: gymnasium's default free camera.
mujoco::CameraConfig metaworld_camera() { return {}; }

}  // namespace

double tolerance(double x, double lower, double upper, double margin, Sigmoid kind, double value_at_margin) {
  if (lower > upper) throw std::invalid_argument("tolerance: lower bound must be <= upper bound");
  if (margin < 0) throw std::invalid_argument("tolerance: margin must be non-negative");
  const bool in_bounds = lower <= x && x <= upper;
  if (in_bounds) return 1.0;
  if (margin == 0) return 0.0;
  const double d = (x < lower ? lower - x : x - upper) / margin;
  return sigmoid(d, value_at_margin, kind);
}

double hamacher_product(double a, double b) {
  const double denominator = a + b - a * b;
  return denominator > 0 ? (a * b) / denominator : 0.0;
}

double rect_prism_tolerance(const Vec3& curr, const Vec3& zero, const Vec3& one) {
  const auto in_range = [](double a, double b, double c) { return c >= b ? (b <= a && a <= c) : (c <= a && a <= b); };
  if (in_range(curr[0], zero[0], one[0]) && in_range(curr[1], zero[1], one[1]) && in_range(curr[2], zero[2], one[2])) {
    const Vec3 diff = one - zero;
    return (curr[0] - zero[0]) / diff[0] * ((curr[1] - zero[1]) / diff[1]) * ((curr[2] - zero[2]) / diff[2]);
  }
  return 1.0;
}

std::array<double, 4> quat_from_matrix(const double* m) {
  // scipy's Rotation.from_matrix: the largest of m00, m11, m22 and the trace picks the formula.
  const double decision[4] = {m[0], m[4], m[8], m[0] + m[4] + m[8]};
  int choice = 0;
  for (int i = 1; i < 4; ++i) {
    if (decision[i] > decision[choice]) choice = i;
  }
  std::array<double, 4> q{};
  const auto at = [m](int r, int c) { return m[3 * r + c]; };
  if (choice != 3) {
    const int i = choice, j = (i + 1) % 3, k = (j + 1) % 3;
    q[i] = 1.0 - decision[3] + 2.0 * at(i, i);
    q[j] = at(j, i) + at(i, j);
    q[k] = at(k, i) + at(i, k);
    q[3] = at(k, j) - at(j, k);
  } else {
    q[0] = at(2, 1) - at(1, 2);
    q[1] = at(0, 2) - at(2, 0);
    q[2] = at(1, 0) - at(0, 1);
    q[3] = 1.0 + decision[3];
  }
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& v : q) v /= n;
  return q;
}

Common::Common(const Config& c)
    : assets(c.get_string("_assets")),
      tasks(split_tasks(c.get_string("task_name"))),
      partially_observable(c.get_bool("partially_observable")),
      use_one_hot(c.get_bool("use_one_hot")),
      num_goals(static_cast<int>(c.get_int_in("num_goals", 0, 100'000))),
      goal_seed(static_cast<std::uint64_t>(c.get_int("goal_seed"))) {
  if (assets.empty()) throw std::invalid_argument("MetaWorld tasks need metaworld's assets folder (_assets)");
  // _task_ids: each task's place in metaworld's list (info["task_id"]), set by rlpool.envs.metaworld.
  std::stringstream in(c.get_string("_task_ids"));
  std::string id;
  while (std::getline(in, id, ',')) task_ids.push_back(std::stoi(id));
  if (task_ids.size() != tasks.size()) {
    throw std::invalid_argument("MetaWorld tasks need each task's id (_task_ids, one per task_name entry)");
  }
}

bool register_task(TaskType type) {
  auto& types = task_types();
  const std::string name = type.name;
  types.emplace(name, std::move(type));
  return true;
}

SawyerEnv::SawyerEnv(const Config& config, const TaskSetup& setup)
    : xml_file_(config.get_string("_assets") + "/" + setup.xml),
      shared_(mujoco::load_model(xml_file_)),
      model_view_(*shared_),
      body_pos_(shared_->body_pos, shared_->body_pos + 3 * shared_->nbody),
      site_pos_(shared_->site_pos, shared_->site_pos + 3 * shared_->nsite),
      m_(&model_view_),
      data_(mujoco::make_data(shared_.get(), "'" + xml_file_ + "'"), api().deleteData),
      d_(data_.get()),
      setup_(setup),
      mocap_low_(setup.mocap_low.value_or(setup.hand_low)),
      mocap_high_(setup.mocap_high.value_or(setup.hand_high)),
      hand_init_pos_(setup.hand_init_pos),
      mocap_(shared_->body_mocapid[find_id(shared_.get(), mjOBJ_BODY, "body", "mocap", xml_file_)]),
      left_pad_(body("leftpad")),
      right_pad_(body("rightpad")),
      leftpad_geom_(geom("leftpad_geom")),
      rightpad_geom_(geom("rightpad_geom")),
      hand_(body("hand")),
      right_claw_(body("rightclaw")),
      left_claw_(body("leftclaw")),
      right_end_(site("rightEndEffector")),
      left_end_(site("leftEndEffector")) {
  model_view_.body_pos = body_pos_.data();
  model_view_.site_pos = site_pos_.data();
  mujoco::require(mocap_ >= 0, "'" + xml_file_ + "': body 'mocap' is not a mocap body");
  mujoco::require(m_->nu == 2, "'" + xml_file_ + "' needs the gripper's two actuators");
  // SawyerMocapBase.reset_mocap_welds: each weld's data set once (a model
  // field no task writes later; the shared model holds metaworld's values
  // after this, as every env of the file sets the same).
  if (m_->nmocap > 0) {
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    mjModel* shared = const_cast<mjModel*>(shared_.get());
    const double weld[11] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 5.0};
    for (int i = 0; i < m_->neq; ++i) {
      if (m_->eq_type[i] != mjEQ_WELD) continue;
      std::memcpy(shared->eq_data + static_cast<std::ptrdiff_t>(i) * mjNEQDATA, weld, sizeof(weld));
    }
  }
  // SawyerXYZEnv.__init__: mj_forward (its init_left_pad / init_right_pad are live views: see body_com).
  forward();
  keep(target_pos_);
  keep(obj_init_pos_);
  keep(init_tcp_);
  keep(hand_init_pos_);
  if (mujoco::renders(config)) mujoco::load_gl();
}

void SawyerEnv::place(int task_index, const Common& common, const std::string& task_name) {
  task_index_ = task_index;
  num_tasks_ = static_cast<int>(common.tasks.size());
  task_id_ = common.task_ids[static_cast<std::size_t>(task_index)];
  partially_observable_ = common.partially_observable;
  use_one_hot_ = common.use_one_hot;
  config_key_ = task_name + (partially_observable_ ? " partially observable" : " fully observable");
  if (common.num_goals > 0) {
    // metaworld's _make_tasks: a task's goals are the task vectors of as many
    // resets, drawn once from a generator of the benchmark's seed (here
    // goal_seed and the task), the same for every env of the task.
    std::uint64_t seed = common.goal_seed * 1000003ULL + static_cast<std::uint64_t>(task_id_);
    rng_.seed_with(seed);
    goals_.clear();
    for (int i = 0; i < common.num_goals; ++i) {
      first_pass_ = true;
      reset_model();
      first_pass_ = false;
      goals_.push_back(last_rand_vec_);
    }
    config_key_ += " with " + std::to_string(common.num_goals) + " goals of seed " + std::to_string(common.goal_seed);
    api().resetData(m_, d_);
    forward();
  }
}

int SawyerEnv::body(const char* name) const { return find_id(m_, mjOBJ_BODY, "body", name, xml_file_); }
int SawyerEnv::site(const char* name) const { return find_id(m_, mjOBJ_SITE, "site", name, xml_file_); }
int SawyerEnv::geom(const char* name) const { return find_id(m_, mjOBJ_GEOM, "geom", name, xml_file_); }
int SawyerEnv::joint(const char* name) const { return find_id(m_, mjOBJ_JOINT, "joint", name, xml_file_); }

void SawyerEnv::set_body_pos(const char* name, const Vec3& p) {
  std::copy(p.begin(), p.end(), body_pos_.begin() + 3 * body(name));
}
void SawyerEnv::set_site_pos(const char* name, const Vec3& p) {
  std::copy(p.begin(), p.end(), site_pos_.begin() + 3 * site(name));
}

Vec3 SawyerEnv::tcp_center() const { return (site_pos(right_end_) + site_pos(left_end_)) * 0.5; }

std::vector<double> SawyerEnv::rand_vec() {
  if (goal_ >= 0) {
    last_rand_vec_ = goals_[static_cast<std::size_t>(goal_)];
    return last_rand_vec_;
  }
  const std::size_t n = setup_.reset_low.size();
  last_rand_vec_.resize(n);
  for (std::size_t i = 0; i < n; ++i) last_rand_vec_[i] = rng_.uniform(setup_.reset_low[i], setup_.reset_high[i]);
  return last_rand_vec_;
}

void SawyerEnv::reset_hand(int steps) {
  if (!first_pass_) {
    for (int i = 0; i < steps; ++i) {
      std::copy(hand_init_pos_.begin(), hand_init_pos_.end(), d_->mocap_pos + 3 * mocap_);
      const double quat[4] = {1.0, 0.0, 1.0, 0.0};
      std::copy(quat, quat + 4, d_->mocap_quat + 4 * mocap_);
      do_simulation(-1.0, 1.0);
    }
  }
  init_tcp_ = tcp_center();
}

void SawyerEnv::set_state(const double* qpos, const double* qvel) {
  if (qpos != d_->qpos) std::copy(qpos, qpos + m_->nq, d_->qpos);
  if (qvel != d_->qvel) std::copy(qvel, qvel + m_->nv, d_->qvel);
  forward();
}

void SawyerEnv::set_obj_xyz(const Vec3& pos) {
  mujoco::require(m_->nq >= 12 && m_->nv >= 15, "'" + xml_file_ + "' has no object joint at qpos[9:12]");
  std::copy(pos.begin(), pos.end(), d_->qpos + 9);
  std::fill(d_->qvel + 9, d_->qvel + 15, 0.0);
  forward();
}

void SawyerEnv::do_simulation(double ctrl0, double ctrl1) {
  if (first_pass_) return;
  d_->ctrl[0] = ctrl0;
  d_->ctrl[1] = ctrl1;
  for (int i = 0; i < kFrameSkip; ++i) api().step(m_, d_);
}

void SawyerEnv::mj_steps(int n) {
  if (first_pass_) return;
  for (int i = 0; i < n; ++i) api().step(m_, d_);
}

bool SawyerEnv::touching_object(int object_geom) const {
  double left = 0.0, right = 0.0;
  for (int i = 0; i < d_->ncon; ++i) {
    const mjContact& c = d_->contact[i];
    const bool with_object = c.geom1 == object_geom || c.geom2 == object_geom;
    if (!with_object) continue;
    // data.efc_force[efc_address]: an excluded contact's -1 reads the last row, as numpy does.
    const int row = c.efc_address >= 0 ? c.efc_address : d_->nefc + c.efc_address;
    const double force = row >= 0 && row < d_->nefc ? d_->efc_force[row] : 0.0;
    if (c.geom1 == leftpad_geom_ || c.geom2 == leftpad_geom_) left += force;
    if (c.geom1 == rightpad_geom_ || c.geom2 == rightpad_geom_) right += force;
  }
  return 0 < left && 0 < right;
}

double SawyerEnv::gripper_caging_reward(const double* action, const Vec3& obj_pos, double obj_radius,
                                        double pad_success_thresh, double object_reach_radius, double xz_thresh,
                                        double desired_gripper_effort, bool high_density, bool medium_density) const {
  if (high_density && medium_density) throw std::logic_error("Can only be either high_density or medium_density");
  const Vec3 left_pad = body_com(left_pad_), right_pad = body_com(right_pad_);
  const double pad_y_lr[2] = {left_pad[1], right_pad[1]};
  double caging_lr[2];
  for (int i = 0; i < 2; ++i) {
    const double pad_to_obj = std::abs(pad_y_lr[i] - obj_pos[1]);
    const double pad_to_objinit = std::abs(pad_y_lr[i] - obj_init_pos_[1]);
    const double margin = std::abs(pad_to_objinit - pad_success_thresh);
    caging_lr[i] = tolerance(pad_to_obj, obj_radius, pad_success_thresh, margin, Sigmoid::kLongTail);
  }
  const double caging_y = hamacher_product(caging_lr[0], caging_lr[1]);

  const Vec3 tcp = tcp_center();
  const double init_xz[2] = {obj_init_pos_[0] - init_tcp_[0], obj_init_pos_[2] - init_tcp_[2]};
  double caging_xz_margin = std::sqrt(init_xz[0] * init_xz[0] + init_xz[1] * init_xz[1]);
  caging_xz_margin -= xz_thresh;
  const double xz[2] = {tcp[0] - obj_pos[0], tcp[2] - obj_pos[2]};
  const double caging_xz = tolerance(std::sqrt(xz[0] * xz[0] + xz[1] * xz[1]), 0.0, xz_thresh, caging_xz_margin,
                                     Sigmoid::kLongTail);

  // min(max(0, action[-1]), effort) / effort, in float32 as numpy computes it on action's float32.
  const float grip = std::min(std::max(0.0f, static_cast<float>(action[3])), static_cast<float>(desired_gripper_effort));
  const double gripper_closed = static_cast<double>(grip / static_cast<float>(desired_gripper_effort));

  const double caging = hamacher_product(caging_y, caging_xz);
  const double gripping = caging > 0.97 ? gripper_closed : 0.0;
  double caging_and_gripping = hamacher_product(caging, gripping);
  if (high_density) caging_and_gripping = (caging_and_gripping + caging) / 2;
  if (medium_density) {
    const double tcp_to_obj = norm(obj_pos - tcp);
    const double tcp_to_obj_init = norm(obj_init_pos_ - init_tcp_);
    const double reach_margin = std::abs(tcp_to_obj_init - object_reach_radius);
    const double reach = tolerance(tcp_to_obj, 0.0, object_reach_radius, reach_margin, Sigmoid::kLongTail);
    caging_and_gripping = (caging_and_gripping + reach) / 2;
  }
  return caging_and_gripping;
}

SawyerEnv::PadCaging SawyerEnv::pad_caging(const Vec3& obj_pos, double obj_radius, double pad_success_margin,
                                           double grip_success_margin, double x_z_success_margin) const {
  const Vec3 left_pad = body_com(left_pad_), right_pad = body_com(right_pad_);
  const double delta_object_y_left_pad = left_pad[1] - obj_pos[1];
  const double delta_object_y_right_pad = obj_pos[1] - right_pad[1];
  const double right_caging_margin = std::abs(std::abs(obj_pos[1] - right_pad[1]) - pad_success_margin);
  const double left_caging_margin = std::abs(std::abs(obj_pos[1] - left_pad[1]) - pad_success_margin);
  const auto y_term = [&](double upper) {
    const double right = tolerance(delta_object_y_right_pad, obj_radius, upper, right_caging_margin, Sigmoid::kLongTail);
    const double left = tolerance(delta_object_y_left_pad, obj_radius, upper, left_caging_margin, Sigmoid::kLongTail);
    return hamacher_product(left, right);  // symmetric: metaworld multiplies them in either order
  };
  const Vec3 tcp = tcp_center();
  const Vec3 tcp_xz{tcp[0], 0.0, tcp[2]}, obj_xz{obj_pos[0], 0.0, obj_pos[2]};
  const Vec3 init_obj_x_z{obj_init_pos_[0], 0.0, obj_init_pos_[2]}, init_tcp_x_z{init_tcp_[0], 0.0, init_tcp_[2]};
  const double tcp_obj_x_z_margin = norm(init_obj_x_z - init_tcp_x_z) - x_z_success_margin;
  const double x_z_caging =
      tolerance(norm(tcp_xz - obj_xz), 0.0, x_z_success_margin, tcp_obj_x_z_margin, Sigmoid::kLongTail);
  return {y_term(pad_success_margin), x_z_caging, grip_success_margin > 0 ? y_term(grip_success_margin) : 0.0};
}

double SawyerEnv::pad_caging_reward(const double* action, const Vec3& obj_pos, double obj_radius,
                                    double pad_success_margin, double x_z_success_margin) const {
  const PadCaging c = pad_caging(obj_pos, obj_radius, pad_success_margin, 0.0, x_z_success_margin);
  const double gripper_closed = static_cast<double>(std::min(std::max(0.0f, static_cast<float>(action[3])), 1.0f));
  const double caging = hamacher_product(c.y_caging, c.x_z_caging);
  const double gripping = caging > 0.97 ? gripper_closed : 0.0;
  return (hamacher_product(caging, gripping) + caging) / 2;
}

double SawyerEnv::pad_gripping_reward(const Vec3& obj_pos, double obj_radius, double pad_success_margin,
                                      double grip_success_margin, double x_z_success_margin) const {
  const PadCaging c = pad_caging(obj_pos, obj_radius, pad_success_margin, grip_success_margin, x_z_success_margin);
  const double caging = hamacher_product(c.y_caging, c.x_z_caging);
  const double gripping = caging > 0.95 ? c.y_gripping : 0.0;
  return (caging + gripping) / 2;
}

std::array<double, 18> SawyerEnv::curr_obs_combined_no_goal() const {
  std::array<double, 18> o{};
  const Vec3 hand = body_com(hand_);
  std::copy(hand.begin(), hand.end(), o.begin());
  const double gap = norm(body_com(right_claw_) - body_com(left_claw_));
  o[3] = mujoco::clip(gap / 0.1, 0.0, 1.0);
  Objects objs;
  objects(objs);
  // Each object's position then its quaternion, zero-padded to 14.
  std::size_t at = 4, p = 0, q = 0;
  while (p + 3 <= static_cast<std::size_t>(objs.npos) && q + 4 <= static_cast<std::size_t>(objs.nquat)) {
    for (int k = 0; k < 3; ++k) o[at++] = objs.pos[p++];
    for (int k = 0; k < 4; ++k) o[at++] = objs.quat[q++];
  }
  return o;
}

void SawyerEnv::write_obs(double* obs, bool clip) {
  const auto curr = curr_obs_combined_no_goal();
  std::copy(curr.begin(), curr.end(), obs);
  std::copy(prev_obs_.begin(), prev_obs_.end(), obs + 18);
  const Vec3 goal = partially_observable_ ? Vec3{} : pos_goal();
  std::copy(goal.begin(), goal.end(), obs + 36);
  prev_obs_ = curr;
  if (!clip) return;
  // np.clip to sawyer_observation_space: the hand's space, the gripper's [-1, 1], the goal's space.
  for (int half = 0; half < 2; ++half) {
    double* o = obs + 18 * half;
    for (int k = 0; k < 3; ++k) o[k] = mujoco::clip(o[k], kHandSpaceLow[k], kHandSpaceHigh[k]);
    o[3] = mujoco::clip(o[3], -1.0, 1.0);
  }
  for (int k = 0; k < 3; ++k) {
    obs[36 + k] = partially_observable_ ? mujoco::clip(obs[36 + k], 0.0, 0.0)
                                        : mujoco::clip(obs[36 + k], setup_.goal_low[k], setup_.goal_high[k]);
  }
}

void SawyerEnv::write(const Output& out, const double* obs, const Evaluation& e) {
  double* o = out.obs_as<double>(0);
  std::copy(obs, obs + 39, o);
  if (use_one_hot_) {
    std::fill(o + 39, o + 39 + num_tasks_, 0.0);
    o[39 + task_index_] = 1.0;
  }
  // In kInfoNames' order.
  const double values[std::size(kInfoNames)] = {e.success,         e.near_object,   e.grasp_success,  e.grasp_reward,
                                                e.in_place_reward, e.obj_to_target, e.unscaled_reward};
  for (std::size_t i = 0; i < std::size(kInfoNames); ++i) out.put_info(i, values[i]);
  *out.info_as<std::int32_t>(std::size(kInfoNames)) = task_id_;
  if (num_tasks_ > 1) *out.info_as<std::int32_t>(std::size(kInfoNames) + 1) = task_index_;
}

void SawyerEnv::reset(Rng& pool_rng, const Output& out) {
  start_words_ = {pool_rng.next(), pool_rng.next(), pool_rng.next(), pool_rng.next()};
  rng_.set_words(start_words_);
  started_ = true;
  // Fixed goals: one of them, uniformly (metaworld's RandomTaskSelectWrapper).
  goal_ = goals_.empty() ? -1 : static_cast<int>(rng_.integer(goals_.size()));
  curr_path_length_ = 0;
  // SawyerXYZEnv.reset: reset_model, then MujocoEnv.reset: mj_resetData and reset_model again.
  first_pass_ = true;
  reset_model();
  first_pass_ = false;
  api().resetData(m_, d_);
  reset_model();
  double obs[39];
  write_obs(obs, false);
  // reset: the previous frame is the current one (write_obs made it prev_obs_).
  std::copy(obs, obs + 18, obs + 18);
  // metaworld's reset gives no info; rlpool's (as EnvPool's) is the state's evaluation with no action.
  const double no_action[4] = {0.0, 0.0, 0.0, 0.0};
  Evaluation e = evaluate_state(obs, no_action);
  write(out, obs, e);
  *out.reward = 0.0;
}

void SawyerEnv::step(const Action& action, Rng& /*rng*/, const Output& out) {
  const double* a = action.continuous();
  // set_xyz_action: the clipped action times action_scale, in float32; the
  // mocap moved by it, clipped to the mocap's bounds, turned to [1, 0, 1, 0].
  for (int k = 0; k < 3; ++k) {
    const float delta = static_cast<float>(mujoco::clip(a[k], -1.0, 1.0)) * static_cast<float>(0.01);
    double* p = d_->mocap_pos + 3 * mocap_ + k;
    *p = mujoco::clip(*p + static_cast<double>(delta), mocap_low_[k], mocap_high_[k]);
  }
  const double quat[4] = {1.0, 0.0, 1.0, 0.0};
  std::copy(quat, quat + 4, d_->mocap_quat + 4 * mocap_);
  do_simulation(a[3], -a[3]);
  ++curr_path_length_;
  forward();
  double obs[39];
  write_obs(obs, true);
  const Evaluation e = evaluate_state(obs, a);
  write(out, obs, e);
  *out.reward = e.reward;
}

std::string SawyerEnv::get_state() const {
  if (!started_) throw std::logic_error("get_state before the first reset");
  std::string out;
  mujoco::put_head(out, kMagic, config_key_, {start_words_, rng_});
  mujoco::put(out, static_cast<std::int32_t>(goal_));
  mujoco::put(out, static_cast<std::int32_t>(curr_path_length_));
  mujoco::put_simulation(out, m_, d_);
  mujoco::put(out, prev_obs_.data(), 18);
  mujoco::put(out, body_pos_.data(), static_cast<int>(body_pos_.size()));
  mujoco::put(out, site_pos_.data(), static_cast<int>(site_pos_.size()));
  for (const auto& [p, n] : kept_) mujoco::put(out, p, n);
  return out;
}

void SawyerEnv::set_state(std::string_view bytes) {
  mujoco::StateReader in(bytes, "MetaWorld");
  const mujoco::StateHead head = mujoco::read_head(in, kMagic, config_key_);
  const auto goal = in.get<std::int32_t>("goal");
  if (goal < -1 || goal >= static_cast<std::int32_t>(goals_.size())) {
    throw std::invalid_argument("MetaWorld env state names goal " + std::to_string(goal) + ", but this env has " +
                                std::to_string(goals_.size()) + " goals");
  }
  const auto path_length = in.get<std::int32_t>("path length");
  if (path_length < 0) throw std::invalid_argument("MetaWorld env state has a negative path length");
  const mujoco::Simulation sim = mujoco::read_simulation(in, m_);
  const auto prev = in.doubles(18, "previous observation");
  const auto body_pos = in.doubles(static_cast<int>(body_pos_.size()), "body_pos");
  const auto site_pos = in.doubles(static_cast<int>(site_pos_.size()), "site_pos");
  std::vector<std::vector<double>> kept;
  for (const auto& [p, n] : kept_) kept.push_back(in.doubles(n, "task state"));
  in.expect_end();
  start_words_ = head.words;
  rng_ = head.rng;
  goal_ = goal;
  curr_path_length_ = path_length;
  mujoco::apply(sim, d_);
  body_pos_ = body_pos;
  site_pos_ = site_pos;
  model_view_.body_pos = body_pos_.data();
  model_view_.site_pos = site_pos_.data();
  std::copy(prev.begin(), prev.end(), prev_obs_.begin());
  for (std::size_t i = 0; i < kept_.size(); ++i) std::copy(kept[i].begin(), kept[i].end(), kept_[i].first);
  forward();
  mujoco::restore_warmstart(sim, d_);
  started_ = true;
}

void SawyerEnv::render(const Frame& frame) {
  if (!renderer_) {
    renderer_ = std::make_unique<mujoco::Renderer>(m_, /*show_rangefinders=*/true);
    free_camera_ = mujoco::gymnasium_camera(m_, d_, metaworld_camera());
  }
  const mjvCamera camera = mujoco::camera_for(m_, frame.camera_id, free_camera_);
  try {
    renderer_->draw(m_, d_, camera, frame);
  } catch (...) {
    renderer_.reset();
    throw;
  }
}

namespace {

EnvSpec metaworld_spec(const Config& c) {
  const Common common(c);
  EnvSpec spec;
  const auto n = static_cast<std::int64_t>(common.tasks.size());
  const std::int64_t size = 39 + (common.use_one_hot ? n : 0);
  // sawyer_observation_space: the hand's space and the gripper's [-1, 1] in
  // both frames, unbounded objects, the goal's space (zeros where partially
  // observable; the union of the tasks' where a pool holds several).
  std::vector<double> low(static_cast<std::size_t>(size)), high(static_cast<std::size_t>(size));
  const double inf = std::numeric_limits<double>::infinity();
  for (int half = 0; half < 2; ++half) {
    for (int k = 0; k < 3; ++k) {
      low[static_cast<std::size_t>(18 * half + k)] = kHandSpaceLow[static_cast<std::size_t>(k)];
      high[static_cast<std::size_t>(18 * half + k)] = kHandSpaceHigh[static_cast<std::size_t>(k)];
    }
    low[static_cast<std::size_t>(18 * half + 3)] = -1.0;
    high[static_cast<std::size_t>(18 * half + 3)] = 1.0;
    for (int k = 4; k < 18; ++k) {
      low[static_cast<std::size_t>(18 * half + k)] = -inf;
      high[static_cast<std::size_t>(18 * half + k)] = inf;
    }
  }
  for (int k = 0; k < 3; ++k) {
    double lo = inf, hi = -inf;
    for (const auto& name : common.tasks) {
      const TaskSetup& s = find_task(name).setup;
      lo = std::min(lo, common.partially_observable ? 0.0 : s.goal_low[static_cast<std::size_t>(k)]);
      hi = std::max(hi, common.partially_observable ? 0.0 : s.goal_high[static_cast<std::size_t>(k)]);
    }
    low[static_cast<std::size_t>(36 + k)] = lo;
    high[static_cast<std::size_t>(36 + k)] = hi;
  }
  for (std::int64_t k = 39; k < size; ++k) {
    low[static_cast<std::size_t>(k)] = 0.0;
    high[static_cast<std::size_t>(k)] = 1.0;
  }
  spec.obs.push_back(ArraySpec{.name = "obs", .dtype = DType::kFloat64, .shape = {size}, .low = low, .high = high});
  spec.action = ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {4}, .low = {-1.0}, .high = {1.0}};
  for (const char* name : kInfoNames) spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {}});
  // EnvPool's task_id (the task's place in metaworld's list); a pool of several tasks adds the place in its own.
  spec.info.push_back(ArraySpec{.name = "task_id", .dtype = DType::kInt32, .shape = {}});
  if (n > 1) spec.info.push_back(ArraySpec{.name = "task_index", .dtype = DType::kInt32, .shape = {}});
  // MujocoEnv's rgb_array: 480 x 480 unless sized otherwise; metadata render_fps 80.
  spec.render_width = 480;
  spec.render_height = 480;
  spec.render_any_size = true;
  spec.render_fps = 80.0;
  const auto model = mujoco::load_model(common.assets + "/" + find_task(common.tasks[0]).setup.xml);
  spec.render_cameras = model->ncam;
  return spec;
}

std::unique_ptr<Env> make_metaworld(const Config& c, int env_index) {
  const Common common(c);
  const int index = env_index % static_cast<int>(common.tasks.size());
  const std::string& name = common.tasks[static_cast<std::size_t>(index)];
  const TaskType& type = find_task(name);
  auto env = type.create(c, type.setup);
  env->place(index, common, name);
  return env;
}

std::vector<Option> metaworld_options() {
  std::vector<Option> options = {
      {"_assets", std::string(), "metaworld's assets folder (set by rlpool.envs.metaworld)"},
      {"_task_ids", std::string(), "each task's place in metaworld's list of tasks (set by rlpool.envs.metaworld)"},
      {"task_name", std::string("reach-v3"),
       "metaworld's task name ('pick-place-v3'), or several, comma-separated: env i of a pool runs the i-th "
       "(wrapping round)"},
      {"partially_observable", true, "the goal's position is zeros in the observation (metaworld's default; the "
                                     "MT benchmarks show it)"},
      {"use_one_hot", false, "append the one-hot of the env's task index in the task list to the observation"},
      {"num_goals", std::int64_t{0},
       "0: a fresh task vector (object and goal positions) at every reset; N: each task's N goals are drawn once "
       "from goal_seed and every reset picks one of them (metaworld's benchmark tasks)"},
      {"goal_seed", std::int64_t{0}, "the seed of the fixed goals (num_goals > 0)"},
  };
  for (Option& o : pixel_options()) options.push_back(std::move(o));
  return options;
}

const bool kRegistered = register_env_type({.name = "MetaWorld",
                                            .options = metaworld_options(),
                                            .spec = metaworld_spec,
                                            .create = [](const Config& c) { return make_metaworld(c, 0); },
                                            .create_at = make_metaworld});

}  // namespace

}  // namespace rlpool::metaworld
