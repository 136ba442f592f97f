// Shared base of the MyoSuite tasks: myosuite 2.11.6's MujocoEnv
// (envs/env_base.py), BaseV0 (envs/myo/base_v0.py), its Robot's stepping and
// resetting (robot/robot.py), dm_control's Physics as myosuite drives it
// (physics/mj_sim_scene.py) and the fatigue model (envs/myo/fatigue.py).
//
// A task is a subclass of MyoEnv (one file per myosuite class, as
// myobase/pose_v0.py) that says how its observation and reward terms are
// made (observe, rewards) and what it draws at a reset (reset_task); it
// registers its myosuite ids with register_task, and the muscle-condition
// variants (myoSarc*, myoFati*, myoReaf*) follow from myosuite's naming rule.
// One env type, "MyoSuite", makes any of them from its id (`task_name`).
//
// Models are compiled once per file and shared read-only. The model fields
// myosuite's tasks write (site_pos: where a target is drawn; body_mass and
// geom_size: a carried weight; actuator_gainprm: sarcopenia's weaker
// muscles) are each env's own: it steps a view of the shared model, a copy of
// the mjModel struct whose those arrays point at its own copies.
//
// Random draws come from the env's own generator, seeded from four draws of
// the pool's at every reset (so a saved state holds it); myosuite draws them
// from its np_random in the order the tasks' files give, with numpy's
// formulas. Observations are myosuite's float32 vector (obsdict2obsvec), the
// reward its float64 dense reward, and each reward term goes into the info.
#pragma once

#include <mujoco/mujoco.h>

#include <array>
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
#include "envs/mujoco/renderer.h"

namespace rlpool::myosuite {

using mujoco::api;

// BaseV0.muscle_condition: "", "sarcopenia", "fatigue", "reafferentation".
enum class Condition { kNone, kSarcopenia, kFatigue, kReafferentation };

// numpy's np.sum / np.add.reduce over a contiguous float64 vector (its
// pairwise summation: eight running sums from eight entries on), and
// np.linalg.norm(x, axis=-1), which sums the squares so.
double numpy_sum(const double* x, int n);
double numpy_norm(const double* x, int n);

// What every task takes from its myosuite registration besides its own
// arguments: the model file (relative to the wheel's `myosuite/` folder),
// frame_skip, and the reward weights (weighted_reward_keys, in order).
struct TaskBase {
  std::string model;
  int frame_skip = 10;
  std::vector<std::pair<std::string, double>> weights;
};

// The id's setup as the env type resolves it: the base id's task, the
// variant's condition, the model's path.
struct Setup {
  std::string id;
  std::string xml_file;
  Condition condition = Condition::kNone;
  bool renders = false;
};

class MyoEnv : public Env {
 public:
  void reset(Rng& rng, const Output& out) override;
  void step(const Action& action, Rng& rng, const Output& out) override;
  std::string get_state() const override;
  void set_state(std::string_view bytes) override;
  void render(const Frame& frame) override;

  // The observation's length and the reward terms (rwd_dict's keys other
  // than dense, sparse, solved and done, in its order): the spec's.
  int obs_size() const { return obs_size_; }
  const std::vector<std::string>& terms() const { return terms_; }
  const mjModel* model() const { return m_; }
  // The compiled model this env's view is of (shared by every env of the file).
  std::shared_ptr<const mjModel> shared_model() const { return shared_; }
  // The action's length: the actuators' (nu) unless the task says.
  int action_size() const { return action_size_; }
  // The time one step covers (MujocoEnv.dt: timestep * frame_skip).
  double dt() const { return dt_; }
  // Called once the task is built: sizes the observation from the initial state.
  void finish_setup();

 protected:
  MyoEnv(const Setup& setup, const TaskBase& base, std::vector<std::string> terms);

  // The task's obs_dict and rwd_dict at the current state, written as one
  // observation (in obs_keys order, float64 before myosuite's float32 cast)
  // and the reward terms (in terms() order), sparse, solved and done.
  struct Rewards {
    std::vector<double> terms;
    double sparse = 0.0;
    bool solved = false;
    bool done = false;
    std::optional<double> time;  // obs_dict["time"] where the task rewrites it (else the simulation's)
  };
  virtual void observe(std::vector<double>& obs) = 0;
  virtual void rewards(Rewards& r) = 0;
  // The task's reset up to BaseV0.reset: its draws and model edits. `qpos`
  // and `qvel` start as init_qpos and init_qvel; the task may replace them.
  virtual void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) = 0;
  // Called by set_state once every saved number is back (the kept vectors
  // included) and before its mj_forward: a task rebuilds here the model
  // arrays it derives from kept numbers (an int geom_type from its double
  // mirror, a float heightfield), so that the forward sees them.
  virtual void restore_model() {}
  // Task numbers a saved state must hold besides the simulation and the
  // model arrays (a pose target): registered by the task's constructor, at
  // their final size (a restore writes them in place, so a model field of the
  // task's own may point into one).
  void keep(std::vector<double>* v) { kept_.push_back(v); }

  // Ids by name; std::invalid_argument naming the file if absent.
  int site(const std::string& name) const;
  int joint(const std::string& name) const;
  int body(const std::string& name) const;
  int actuator(const std::string& name) const;

  // mj_forward, as dm_control's Physics.forward.
  void forward() { api().forward(m_, d_); }
  // The act entries of obs_dict: the muscles' activations (na of them).
  void put_act(std::vector<double>& obs) const { obs.insert(obs.end(), d_->act, d_->act + m_->na); }
  // obs_dict["qvel"]: qvel * dt.
  void put_qvel_dt(std::vector<double>& obs) const;
  // The weighted sum of the terms (rwd_dict["dense"]), in weighted_reward_keys' order.
  double dense(const Rewards& r) const;

  // This env's copy of the model fields the tasks write.
  double* site_pos(int id) { return site_pos_.data() + 3 * id; }
  void set_body_mass(int id, double mass) { body_mass_[static_cast<std::size_t>(id)] = mass; }
  double* geom_size(int id) { return geom_size_.data() + 3 * id; }

  Rng& rng() { return rng_; }
  // BaseV0.step's control of the actuators from the action `a` (action_size() entries): float32 as
  // myosuite's action array is, muscles through their sigmoid, the conditions. A task whose action is not the
  // actuators' one by one overrides it and ends in controls_float64 (a float64 array of nu controls).
  virtual void controls(const double* a);
  void controls_float64(std::vector<double>& a);
  void set_action_size(int n) { action_size_ = n; }
  // Robot.reset: mj_resetData, mj_forward without actuation, then qpos and qvel and mj_forward.
  void robot_reset(const std::vector<double>& qpos, const std::vector<double>& qvel);
  // A task whose reset gives BaseV0.reset a false fatigue_reset (die reorientation passes reset_qpos in its
  // place) keeps the fatigue state across episodes.
  void keep_fatigue_across_resets() { fatigue_resets_ = false; }
  // The env's model view and data.
  mjModel* m() const { return m_; }
  mjData* d() const { return d_; }
  const Setup setup_;
  const TaskBase base_;

 private:
  void write(const Output& out, bool with_reward);
  void physics_step();
  void fatigue_step(float* muscle_a);
  void fatigue_update();
  void muscle_controls();
  void point_view();

  const std::shared_ptr<const mjModel> shared_;
  mjModel model_view_;
  std::vector<double> site_pos_, body_mass_, geom_size_, gainprm_;
  mjModel* const m_;
  std::unique_ptr<mjData, void (*)(mjData*)> data_;
  mjData* const d_;
  const std::vector<std::string> terms_;
  std::vector<int> weight_terms_;  // each weight's term (-1: sparse) by name
  double dt_ = 0.0;
  int substeps_ = 1;
  int obs_size_ = 0;
  int action_size_ = 0;
  std::vector<double> init_qpos_, init_qvel_;
  std::vector<int> muscles_;  // actuators with muscle dynamics
  int epl_ = -1, eip_ = -1;   // reafferentation's actuators
  // CumulativeFatigue's state (one per muscle) and constants.
  std::vector<double> ma_, mr_, mf_, tauact_, taudeact_, target_load_;
  std::vector<float> action_;
  std::vector<double> obs_, reset_qpos_, reset_qvel_;
  Rewards rewards_;
  std::vector<std::vector<double>*> kept_;
  std::array<int, mjNWARNING> warnings_before_{};
  Rng rng_;
  std::array<std::uint64_t, 4> start_words_{};
  bool started_ = false;
  bool fatigue_resets_ = true;
  std::unique_ptr<mujoco::Renderer> renderer_;
  mjvCamera free_camera_{};
};

// A myosuite id's maker, registered by its task's file.
struct TaskType {
  TaskBase base;
  std::function<std::unique_ptr<MyoEnv>(const Setup&, const TaskBase&)> create;
};
bool register_task(const std::string& id, TaskType type);

// register_task's `create` for a task class T(setup, base, params).
template <class T, class P>
std::function<std::unique_ptr<MyoEnv>(const Setup&, const TaskBase&)> make_task(P params) {
  return [params](const Setup& s, const TaskBase& b) -> std::unique_ptr<MyoEnv> {
    return std::make_unique<T>(s, b, params);
  };
}

}  // namespace rlpool::myosuite
