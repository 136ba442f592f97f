// FrankaKitchen (-v1), as gymnasium_robotics 1.4.2's envs/franka_kitchen/
// kitchen_env.py (KitchenEnv) on franka_env.py (FrankaRobot, gymnasium's
// MujocoEnv with frame_skip 40): a Franka arm in a kitchen, rewarded for each
// task (a burner, the light, a cabinet, the microwave, the kettle) whose
// joints come within 0.3 of their goal.
//
// The observation is a nested dict: achieved_goal and desired_goal map each
// task to its joints (entries named "achieved_goal.<task>"), next to the noisy
// 59-number observation. franka_config.xml's joint limits and noise
// amplitudes come as the hidden option _franka_config (read by
// rlpool.envs.robotics).
#include <cmath>
#include <cstring>
#include <sstream>

#include "envs/robotics/robot_env.h"

namespace rlpool::robotics {
namespace {

constexpr double kBonusThreshold = 0.3;

// OBS_ELEMENT_INDICES and OBS_ELEMENT_GOALS, in their order (the info masks').
struct KitchenTask {
  const char* name;
  std::vector<int> indices;
  std::vector<double> goal;
};
const std::vector<KitchenTask>& kitchen_tasks() {
  static const std::vector<KitchenTask> tasks = {
      {"bottom burner", {11, 12}, {-0.88, -0.01}},
      {"top burner", {15, 16}, {-0.92, -0.01}},
      {"light switch", {17, 18}, {-0.69, -0.05}},
      {"slide cabinet", {19}, {0.37}},
      {"hinge cabinet", {20, 21}, {0.0, 1.45}},
      {"microwave", {22}, {-0.75}},
      {"kettle", {23, 24, 25, 26, 27, 28, 29}, {-0.23, 0.75, 1.62, 0.99, 0.0, 0.0, -0.06}},
  };
  return tasks;
}
constexpr int kTasks = 7;

// kitchen_env.py's init_qpos.
const double kInitQpos[30] = {
    1.48388023e-01,  -1.76848573e00, 1.84390296e00,  -2.47685760e00, 2.60252026e-01,  7.12533105e-01,
    1.59515394e00,   4.79267505e-02, 3.71350919e-02, -2.66279850e-04, -5.18043486e-05, 3.12877220e-05,
    -4.51199853e-05, -3.90842156e-06, -4.22629655e-05, 6.28065475e-05, 4.04984708e-05, 4.62730939e-04,
    -2.26906415e-04, -4.65501369e-04, -6.44129196e-03, -1.77048263e-03, 1.08009684e-03, -2.69397440e-01,
    3.50383255e-01,  1.61944683e00,  1.00618764e00,  4.06395120e-03, -6.62095997e-03, -2.68278933e-04,
};

// tasks_to_complete ("microwave,kettle"): a mask over kitchen_tasks().
std::array<bool, kTasks> task_mask(const std::string& names) {
  std::array<bool, kTasks> mask{};
  std::stringstream in(names);
  std::string name;
  while (std::getline(in, name, ',')) {
    bool found = false;
    for (int t = 0; t < kTasks; ++t) {
      if (name == kitchen_tasks()[t].name) mask[t] = found = true;
    }
    if (!found) {
      std::string known;
      for (const auto& t : kitchen_tasks()) known += (known.empty() ? "" : ", ") + std::string(t.name);
      throw std::invalid_argument("tasks_to_complete has '" + name + "', which is not a kitchen task (" + known + ")");
    }
  }
  return mask;
}

// franka_config.xml, per dof: pos_bound (2), vel_bound (2), pos_noise_amp, vel_noise_amp.
struct FrankaConfig {
  std::vector<std::array<double, 6>> dofs;
  FrankaConfig(const std::string& text, int nv) {
    std::stringstream in(text);
    std::array<double, 6> row{};
    while (in >> row[0] >> row[1] >> row[2] >> row[3] >> row[4] >> row[5]) dofs.push_back(row);
    if (static_cast<int>(dofs.size()) != nv) {
      throw std::invalid_argument("_franka_config has " + std::to_string(dofs.size()) + " joints, the model " +
                                  std::to_string(nv));
    }
  }
};

struct Params {
  std::array<bool, kTasks> goal;
  bool terminate_on_tasks_completed, remove_task_when_completed;
  double object_noise_ratio, robot_noise_ratio;
  int frame_skip;
  explicit Params(const Config& c)
      : goal(task_mask(c.get_string("tasks_to_complete"))),
        terminate_on_tasks_completed(c.get_bool("terminate_on_tasks_completed")),
        remove_task_when_completed(c.get_bool("remove_task_when_completed")),
        object_noise_ratio(c.get_finite("object_noise_ratio")),
        robot_noise_ratio(c.get_finite("robot_noise_ratio")),
        frame_skip(static_cast<int>(c.get_int_in("frame_skip", 1, 1'000'000))) {}
};

EnvSpec spec(const Config& c) {
  Params p(c);
  const auto model = mujoco::load_model(c.get_string("_xml_file"));
  mujoco::require(model->nq == 30 && model->nv == 29 && model->nu == 9,
                  "the kitchen model has 30 positions, 29 velocities and 9 actuators");
  FrankaConfig(c.get_string("_franka_config"), model->nv);
  EnvSpec s;
  s.obs_kind = ObsKind::kDict;
  // gymnasium's Dict sorts its keys: achieved_goal, desired_goal, observation; the tasks by name.
  std::vector<int> sorted;
  for (int t = 0; t < kTasks; ++t) {
    if (p.goal[t]) sorted.push_back(t);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](int a, int b) { return std::string(kitchen_tasks()[a].name) < kitchen_tasks()[b].name; });
  for (const char* part : {"achieved_goal", "desired_goal"}) {
    for (int t : sorted) {
      const auto n = static_cast<std::int64_t>(kitchen_tasks()[t].indices.size());
      s.obs.push_back(ArraySpec{.name = std::string(part) + "." + kitchen_tasks()[t].name, .dtype = DType::kFloat64,
                                .shape = {n}});
    }
  }
  s.obs.push_back(ArraySpec{.name = "observation", .dtype = DType::kFloat64, .shape = {59}});
  s.action = ArraySpec{.name = "action", .dtype = DType::kFloat64, .shape = {9}, .low = {-1.0}, .high = {1.0}};
  for (const char* name : {"tasks_to_complete", "step_task_completions", "episode_task_completions"}) {
    s.info.push_back(ArraySpec{.name = name, .dtype = DType::kBool, .shape = {kTasks}});
  }
  s.render_width = 480;
  s.render_height = 480;
  s.render_any_size = true;
  s.render_fps = std::round(1.0 / (model->opt.timestep * p.frame_skip));
  s.render_cameras = model->ncam;
  return s;
}

CameraConfig kitchen_camera() {
  CameraConfig camera;
  camera.distance = 2.2;
  camera.azimuth = 70.0;
  camera.elevation = -35.0;
  camera.lookat = std::array<double, 3>{-0.2, 0.5, 2.0};
  return camera;
}

class FrankaKitchen final : public RobotEnv {
 public:
  explicit FrankaKitchen(const Config& c)
      : RobotEnv(c, mujoco::load_model(c.get_string("_xml_file")), c.get_string("_xml_file"), "FrankaKitchen", 0,
                 kitchen_camera()),
        p_(c),
        config_(c.get_string("_franka_config"), m_->nv) {
    mujoco::require(robot_joints().size() == 9, "the kitchen model has the arm's 9 robot joints");
    for (int t = 0; t < kTasks; ++t) {
      if (p_.goal[t]) sorted_.push_back(t);
    }
    std::sort(sorted_.begin(), sorted_.end(),
              [](int a, int b) { return std::string(kitchen_tasks()[a].name) < kitchen_tasks()[b].name; });
  }

  void reset(Rng& rng, const Output& out) override {
    begin_episode(rng);
    // MujocoEnv.reset: mj_resetData; FrankaRobot.reset_model: init_qpos, the
    // velocities as mj_resetData left them (zeros).
    api().resetData(m_, d_);
    std::copy(kInitQpos, kInitQpos + m_->nq, d_->qpos);
    std::fill(d_->qvel, d_->qvel + m_->nv, 0.0);
    api().forward(m_, d_);
    episode_done_ = {};
    step_done_ = {};
    to_complete_ = p_.goal;
    write_obs(out);
    write_info(out);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    // FrankaRobot.step: the action (float64) clipped and doubled is a joint
    // velocity, clipped to its bounds; the control is the last observed
    // (noisy) position plus that velocity times dt, clipped to the bounds.
    const double dt = m_->opt.timestep * p_.frame_skip;
    for (int i = 0; i < 9; ++i) {
      const auto& dof = config_.dofs[static_cast<std::size_t>(i)];
      const double a = 0.0 + mujoco::clip(action.continuous()[i], -1.0, 1.0) * 2.0;
      const double velocity = mujoco::clip(a, dof[2], dof[3]);
      d_->ctrl[i] = mujoco::clip(last_robot_qpos_[i] + velocity * dt, dof[0], dof[1]);
    }
    for (int i = 0; i < p_.frame_skip; ++i) api().step(m_, d_);
    api().rnePostConstraint(m_, d_);
    write_obs(out);
    // compute_reward: the tasks still to complete whose joints are near their goal.
    step_done_ = {};
    int reward = 0;
    for (int t = 0; t < kTasks; ++t) {
      if (!to_complete_[t]) continue;
      const auto& task = kitchen_tasks()[t];
      double squares = 0.0;
      for (std::size_t k = 0; k < task.indices.size(); ++k) {
        const double d = d_->qpos[task.indices[k]] - task.goal[k];
        squares += d * d;
      }
      if (std::sqrt(squares) < kBonusThreshold) {
        step_done_[t] = true;
        ++reward;
      }
    }
    *out.reward = reward;
    for (int t = 0; t < kTasks; ++t) {
      if (!step_done_[t]) continue;
      if (p_.remove_task_when_completed) to_complete_[t] = false;
      episode_done_[t] = true;
    }
    if (p_.terminate_on_tasks_completed) *out.terminated = episode_done_ == p_.goal;
    write_info(out);
  }

 protected:
  void save_extra(std::string& out) const override {
    out.append(reinterpret_cast<const char*>(last_robot_qpos_.data()), sizeof(last_robot_qpos_));
    for (const auto* mask : {&to_complete_, &step_done_, &episode_done_}) {
      out.append(reinterpret_cast<const char*>(mask->data()), sizeof(*mask));
    }
  }

  std::string_view load_extra(std::string_view in) override {
    const std::size_t need = sizeof(last_robot_qpos_) + 3 * sizeof(to_complete_);
    if (in.size() < need) throw std::invalid_argument("FrankaKitchen env state ends inside its task masks");
    std::array<double, 9> qpos{};
    std::memcpy(qpos.data(), in.data(), sizeof(qpos));
    check_finite_state(qpos.data(), qpos.size(), [](std::size_t i) { return "robot qpos[" + std::to_string(i) + "]"; });
    std::array<std::array<bool, kTasks>, 3> masks{};
    for (int k = 0; k < 3; ++k) {
      for (int t = 0; t < kTasks; ++t) {
        const auto byte = static_cast<unsigned char>(in[sizeof(qpos) + static_cast<std::size_t>(k * kTasks + t)]);
        if (byte > 1) throw std::invalid_argument("FrankaKitchen env state: a task mask entry is not 0 or 1");
        masks[k][t] = byte == 1;
      }
    }
    last_robot_qpos_ = qpos;
    to_complete_ = masks[0];
    step_done_ = masks[1];
    episode_done_ = masks[2];
    return in.substr(need);
  }

 private:
  // FrankaRobot._get_obs, then KitchenEnv._get_obs: 59 noise draws, in this order.
  void write_obs(const Output& out) {
    ObsWriter w(out.obs_as<double>(2 * sorted_.size()));
    const auto& robot = robot_joints();
    double qvel[9];
    for (int i = 0; i < 9; ++i) {
      const auto& dof = config_.dofs[static_cast<std::size_t>(i)];
      last_robot_qpos_[i] = d_->qpos[m_->jnt_qposadr[robot[i]]] + p_.robot_noise_ratio * dof[4] * rng_.uniform(-1.0, 1.0);
    }
    for (int i = 0; i < 9; ++i) {
      const auto& dof = config_.dofs[static_cast<std::size_t>(i)];
      qvel[i] = d_->qvel[m_->jnt_dofadr[robot[i]]] + p_.robot_noise_ratio * dof[5] * rng_.uniform(-1.0, 1.0);
    }
    w.put(last_robot_qpos_.data(), 9);
    w.put(qvel, 9);
    // The objects' positions take the noise amplitudes from dof 8 on (upstream's offset), their velocities from 9.
    for (int i = 9; i < m_->nq; ++i) {
      w.put(d_->qpos[i] + p_.object_noise_ratio * config_.dofs[static_cast<std::size_t>(i - 1)][4] *
                              rng_.uniform(-1.0, 1.0));
    }
    for (int i = 9; i < m_->nv; ++i) {
      w.put(d_->qvel[i] + p_.object_noise_ratio * config_.dofs[static_cast<std::size_t>(i)][5] *
                              rng_.uniform(-1.0, 1.0));
    }
    for (std::size_t k = 0; k < sorted_.size(); ++k) {
      const auto& task = kitchen_tasks()[sorted_[k]];
      double* achieved = out.obs_as<double>(k);
      double* desired = out.obs_as<double>(sorted_.size() + k);
      for (std::size_t j = 0; j < task.indices.size(); ++j) {
        achieved[j] = d_->qpos[task.indices[j]];
        desired[j] = task.goal[j];
      }
    }
  }

  void write_info(const Output& out) const {
    std::copy(to_complete_.begin(), to_complete_.end(), out.info_as<bool>(0));
    std::copy(step_done_.begin(), step_done_.end(), out.info_as<bool>(1));
    std::copy(episode_done_.begin(), episode_done_.end(), out.info_as<bool>(2));
  }

  const Params p_;
  const FrankaConfig config_;
  std::vector<int> sorted_;
  std::array<double, 9> last_robot_qpos_{};
  std::array<bool, kTasks> to_complete_{}, step_done_{}, episode_done_{};
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "FrankaKitchen",
    .options = with_pixels({
            {"_xml_file", std::string(), "gymnasium-robotics' kitchen model (set by rlpool.envs.robotics)"},
            {"_franka_config", std::string(), "franka_config.xml's limits and noise (set by rlpool.envs.robotics)"},
            {"tasks_to_complete", std::string("bottom burner,top burner,light switch,slide cabinet,hinge cabinet,"
                                              "microwave,kettle"),
             "the tasks of the goal: a list of names (or one string, the names joined by commas)"},
            {"terminate_on_tasks_completed", true, "the episode ends when every task of the goal is complete"},
            {"remove_task_when_completed", true, "a completed task is rewarded once (else at every step it stays so)"},
            {"object_noise_ratio", 0.0005, "scale of the uniform noise on the objects' observed joints"},
            {"robot_noise_ratio", 0.01, "scale of the uniform noise on the arm's observed joints"},
            {"frame_skip", std::int64_t{40}, "MuJoCo steps per env step"},
        }),
    .spec = spec,
    .create = make_env<FrankaKitchen>(),
});

}  // namespace rlpool::robotics
