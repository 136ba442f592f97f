// Shared base of the DeepMind Control Suite envs: dm_control's
// control.Environment, mujoco.Physics and suite.base.Task in C++.
//
// The model is the one dm_control builds: Python loads the task with the
// installed dm_control (rlpool.envs.dmc), saves its compiled model as an MJB
// file (MuJoCo's binary model format) and hands its path to the env as the
// hidden option `_model_file`.
// Envs share the compiled model read-only, each through its own copy of the
// mjModel struct (dm_control toggles the actuation flag in mjOption around
// resets). A task that moves targets or reshapes terrain in the model itself,
// as dm_control does, gets a whole copy of its own (writes_model): the dog's
// model alone is 70 MB, so only those tasks pay for one.
//
// One step is dm_control's: before_step (ctrl = action), Physics.step with
// legacy_step (mj_step2, then mj_step n-1 times, then mj_step1, so that mjData
// matches qpos/qvel), after_step, then reward, observation and termination.
#pragma once

#include <mujoco/mujoco.h>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"
#include "envs/mujoco/mujoco_env.h"

namespace rlpool::dmc {

using mujoco::api;

// dm_control.utils.rewards: the sigmoids of `tolerance`.
enum class Sigmoid { kGaussian, kHyperbolic, kLongTail, kReciprocal, kCosine, kLinear, kQuadratic, kTanhSquared };
constexpr double kDefaultValueAtMargin = 0.1;

// rewards.tolerance(x, bounds=(lower, upper), margin, sigmoid, value_at_margin).
double tolerance(double x, double lower, double upper, double margin = 0.0, Sigmoid sigmoid = Sigmoid::kGaussian,
                 double value_at_margin = kDefaultValueAtMargin);

// The compiled model in `_model_file`, shared read-only while any env uses
// it; std::invalid_argument if MuJoCo cannot load it.
std::shared_ptr<const mjModel> load_model(const Config& config);

// The options every DMC task takes besides the pool's: EnvPool's `task_name`
// and `frame_skip`, and the hidden model options.
std::vector<Option> base_options(const std::string& default_task);

// One observation entry: dm_control's key and shape (float64, unbounded).
struct ObsEntry {
  std::string name;
  std::vector<std::int64_t> shape;
};

// The spec of a DMC task: a dict observation of float64 entries in
// dm_control's order, the actuators' ctrlrange as a float64 action (unbounded
// for actuators without ctrllimited, as dm_control's action_spec), and
// dm_control's discount.
EnvSpec make_spec(const mjModel* m, const std::vector<ObsEntry>& obs, const std::vector<std::string>& scalar_infos = {});

// `task_name`, checked against the domain's tasks (std::invalid_argument naming them).
std::string task_name(const Config& config, const std::vector<std::string>& tasks);

// A task's spec function: spec(model of the config, config).
using ModelSpec = EnvSpec (*)(const mjModel* m, const Config& config);
std::function<EnvSpec(const Config&)> model_spec(ModelSpec spec);

// Writes one env's observation entries in order (float64).
class ObsWriter {
 public:
  explicit ObsWriter(const Output& out) : out_(out) {}
  // Starts the next entry.
  ObsWriter& next() {
    p_ = out_.obs_as<double>(entry_++);
    return *this;
  }
  ObsWriter& put(double x) {
    *p_++ = x;
    return *this;
  }
  ObsWriter& put(const double* x, int n) {
    for (int i = 0; i < n; ++i) *p_++ = x[i];
    return *this;
  }

 private:
  const Output& out_;
  std::size_t entry_ = 0;
  double* p_ = nullptr;
};

class DmcEnv : public Env {
 public:
  // control.Environment.reset: Physics.reset (mj_resetData, mj_forward with
  // actuation off), initialize_episode, Physics.after_reset, observation.
  void reset(Rng& rng, const Output& out) final;
  // control.Environment.step (the time limit is the engine's).
  void step(const Action& action, Rng& rng, const Output& out) final;

  // float64 values: time, qpos, qvel, act, qacc_warmstart, ctrl, then the task
  // state (the model entries the task sets per episode, see add_task_state).
  // set_state then runs mj_forward with actuation off, as after a reset.
  std::string get_state() const override;
  void set_state(std::string_view bytes) override;
  // dm_control's Physics.render: camera -1 is the free camera of
  // mjv_defaultFreeCamera, others the model's fixed cameras.
  void render(const Frame& frame) override;

 protected:
  // n_sub_steps: physics steps per control step (dm_control's
  // control_timestep / timestep; what EnvPool calls frame_skip, where rlpool's
  // frame_skip is control steps per env step). writes_model: the task writes model arrays (targets,
  // terrain), so the env needs a model copy of its own; without it m_'s arrays
  // are shared with every other env and must only be read.
  DmcEnv(const Config& config, int n_sub_steps, bool writes_model = false);

  // suite Task methods.
  virtual void initialize_episode(Rng& rng) = 0;
  virtual void before_step(const Action& action);  // ctrl = action
  virtual void after_step() {}
  virtual double get_reward() = 0;
  virtual void get_observation(ObsWriter& w) = 0;
  // A discount ends the episode (dm_control's get_termination; none: goes on).
  virtual std::optional<double> get_termination() { return std::nullopt; }
  // Info entries, if the task's spec has any.
  virtual void write_info(const Output& /*out*/) {}

  // Physics.step(nstep) with legacy_step.
  void physics_step(int nstep = 1);
  // Physics.forward and Physics.after_reset (mj_forward with actuation off).
  void forward();
  void after_reset();

  // Id of the named object; std::invalid_argument if the model has none.
  int id(mjtObj type, const char* name) const;
  // The model entries a task sets per episode (targets, terrain): part of its
  // state (get_state/set_state), in the order added. Only with writes_model.
  void add_task_state(double* first, int count);
  void add_task_state(float* first, int count);

  // Physics.named.data views used by many tasks.
  const double* xpos(int body) const { return d_->xpos + 3 * body; }
  const double* xmat(int body) const { return d_->xmat + 9 * body; }
  const double* sensor(int sensor_id) const { return d_->sensordata + m_->sensor_adr[sensor_id]; }
  const double* sensor(const char* name) const { return sensor(id(mjOBJ_SENSOR, name)); }

  // Physics.model/data of this env.
  const std::shared_ptr<const mjModel> shared_model_;
  std::unique_ptr<mjModel, void (*)(mjModel*)> own_model_;  // writes_model only
  mjModel model_struct_;                                     // otherwise: the shared model's struct
  mjModel* const m_;
  std::unique_ptr<mjData, void (*)(mjData*)> data_;
  mjData* const d_;

 private:
  bool physics_failed();

  const int n_sub_steps_;
  const int frame_skip_;
  std::vector<std::pair<double*, int>> task_state_;
  std::vector<std::pair<float*, int>> task_state_f32_;
  std::vector<int> warnings_before_;
  std::unique_ptr<mujoco::Renderer> renderer_;  // made by the first render()
  mjvCamera free_camera_{};
  std::uint64_t episodes_ = 0;          // resets and set_state calls so far
  std::uint64_t rendered_episode_ = 0;  // the episode whose terrain the renderer holds
};

// DmcEnv's writes_model argument, for readability at the call site.
constexpr bool kWritesModel = true;

// Randomizers (dm_control.suite.utils.randomizers.randomize_limited_and_rotational_joints).
void randomize_limited_and_rotational_joints(const mjModel* m, mjData* d, Rng& rng);

// mju_axisAngle2Quat and quaternion helpers.
void axis_angle_to_quat(double quat[4], const double axis[3], double angle);

}  // namespace rlpool::dmc
