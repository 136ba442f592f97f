// Shared base of the Gymnasium-Robotics envs: gymnasium_robotics 1.4.2's
// robot_env.py (MujocoRobotEnv) and utils/mujoco_utils.py in C++.
//
// Each env owns its mjData and a generator of its own (seeded from four draws
// of the pool's at every reset), so that draws made inside a step (a maze's new
// goal) are part of the saved state. Models are shared read-only: a model that
// gymnasium-robotics changes once after loading (Fetch's mocap welds) is
// changed once in a copy that every env with the same file shares.
// Goal-conditioned envs observe a dict of achieved_goal, desired_goal and
// observation (gymnasium's sorted order), as gymnasium-robotics' GoalEnv.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "_core/gfx/pixels.h"
#include "envs/mujoco/mujoco_env.h"

namespace rlpool::robotics {

using mujoco::api;
using mujoco::CameraConfig;
using mujoco::ObsWriter;

// The model of `xml_file` changed by `patch` (run once, on a private copy),
// shared by every env that asks with the same file and `patch_key` while any
// of them is alive. Throws std::invalid_argument as mujoco::load_model.
std::shared_ptr<const mjModel> patched_model(const std::string& xml_file, const std::string& patch_key,
                                             const std::function<void(mjModel*)>& patch);

// mujoco_utils.reset_mocap_welds on a model: every weld's relative pose set
// to the identity, so that a mocap body pulls its welded body onto itself.
void reset_mocap_welds(mjModel* m);

// Ids by name; each throws std::invalid_argument naming the file if absent.
int site_id(const mjModel* m, const char* name, const std::string& xml_file);
int joint_id(const mjModel* m, const char* name, const std::string& xml_file);
int body_id(const mjModel* m, const char* name, const std::string& xml_file);

// An env type's options followed by from_pixels and its settings (the
// rendered frame as the observation, as for the MuJoCo family).
std::vector<Option> with_pixels(std::vector<Option> options);

// reward_type: "sparse" (true) or "dense" (false); anything else is refused.
bool sparse_reward(const Config& c);

// A goal-conditioned spec: obs achieved_goal[goal_size], desired_goal[goal_size],
// observation[obs_size] (float64, unbounded); action Box(-1, 1, (action_size,))
// float32; info is_success float32 and the hidden _distance (float64: the
// distance to the goal, which EnvPool's layer shows as info["distance"]).
EnvSpec goal_spec(std::int64_t goal_size, std::int64_t obs_size, std::int64_t action_size, double render_fps);

class RobotEnv : public Env {
 public:
  std::string get_state() const override;
  void set_state(std::string_view bytes) override;
  void render(const Frame& frame) override;

 protected:
  // `config_key` names the configuration a saved state belongs to (the env
  // type and the options that shape it); states of another one are refused.
  RobotEnv(const Config& config, std::shared_ptr<const mjModel> model, std::string xml_file, std::string config_key,
           std::size_t goal_size, CameraConfig camera);

  // Seeds rng_ from four draws of the pool's generator: every reset starts so.
  void begin_episode(Rng& pool_rng);
  // mujoco_utils.get_site_xvelp / get_site_xvelr: mj_jacSite @ qvel.
  void site_velocity(int site, double* velp, double* velr);
  // mujoco_utils.robot_get_obs: qpos and qvel of the joints named "robot*"
  // (each a hinge or a slide), in joint-id order.
  const std::vector<int>& robot_joints() const { return robot_joints_; }
  // Sites drawn at another place than the simulation's (a goal marker): a
  // render shows site `first` at position `second`, without touching mjData.
  virtual std::vector<std::pair<int, std::array<double, 3>>> marker_sites() const { return {}; }
  // Frames of the robot envs (gymnasium-robotics' MujocoRobotEnv) show the
  // state after an mj_forward, with the goal posed (pose_frame: e.g. the
  // target object at the goal): drawn from a copy of mjData, so that the
  // simulation itself is left as it was. Else the frame is mjData as it is.
  virtual bool fresh_frame() const { return false; }
  virtual void pose_frame(mjData* /*frame*/) const {}
  // Changes to the drawn scene (touch sensors' colours), from the drawn data.
  virtual void edit_scene(mjvScene& /*scene*/, const mjData* /*frame*/) const {}
  // Task state beyond mjData, the generator and the goal (e.g. a per-episode
  // length): appended to and read back from a saved state.
  virtual void save_extra(std::string& /*out*/) const {}
  virtual std::string_view load_extra(std::string_view in) { return in; }

  const std::string xml_file_;
  const std::shared_ptr<const mjModel> model_;
  const mjModel* const m_;
  std::unique_ptr<mjData, void (*)(mjData*)> data_;
  mjData* const d_;
  Rng rng_;
  std::array<std::uint64_t, 4> start_words_{};
  std::vector<double> goal_;
  std::vector<double> jac_;  // 6 x nv scratch for site velocities

 private:
  const std::string config_key_;
  std::vector<int> robot_joints_;
  CameraConfig camera_config_;
  std::unique_ptr<mujoco::Renderer> renderer_;
  std::unique_ptr<mjData, void (*)(mjData*)> frame_data_{nullptr, nullptr};
  mjvCamera free_camera_{};
  bool started_ = false;
};

}  // namespace rlpool::robotics
