// The walking task shared by walk.cc and terrain.cc: myosuite 2.11.6's
// WalkEnvV0 (envs/myo/myobase/walk_v0.py, class WalkEnvV0), which TerrainEnvV0
// extends with a heightfield and a third fall condition.
//
// The observation is qpos without x and y, qvel * dt, the centre of mass's
// x-y velocity, the torso's orientation, the feet's heights, the centre of
// mass's height, the feet's positions relative to the pelvis, the phase of the
// hip cycle (steps / hip_period mod 1), the actuators' lengths, velocities and
// forces (clipped, forces / 1000) and the muscles' activations. The reward
// terms are vel_reward, cyclic_hip, ref_rot, joint_angle_rew and act_mag; the
// episode ends when the centre of mass is low or the pelvis turned. `steps`
// counts the steps since the reset (part of a saved state).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {

// WalkEnvV0._setup's arguments (their registered values as defaults).
struct WalkParams {
  double min_height = 0.8;
  double max_rot = 0.8;
  int hip_period = 100;
  // "init": keyframe 2; "random": keyframe 2 or 3 with noise; anything else: keyframe 0.
  std::string reset_type = "init";
  double target_x_vel = 0.0;
  double target_y_vel = 1.2;
};

// WalkEnvV0's and TerrainEnvV0's weighted_reward_keys.
inline std::vector<std::pair<std::string, double>> walk_weights() {
  return {{"vel_reward", 5.0}, {"done", -100}, {"cyclic_hip", -10}, {"ref_rot", 10.0}, {"joint_angle_rew", 5.0}};
}

// This env's own geom_pos (the shared model is read-only), with the geom
// "terrain" at height z, pointed to by the env's model view.
void own_terrain_pos(mjModel* m, std::vector<double>& geom_pos, int terrain_geom, double z);
// This env's own geom_rgba, the terrain's alpha set and, with hide_skins, the
// skins' (geom group 1) made 0: what the frames show.
void own_geom_rgba(mjModel* m, std::vector<float>& geom_rgba, int terrain_geom, float terrain_alpha, bool hide_skins);

// np.linalg.norm(x) of a short vector with no axis: numpy takes sqrt(x.dot(x)),
// which OpenBLAS's ddot on x86-64 sums as a chain of fused multiply-adds.
double blas_norm(const double* x, int n);

class WalkEnv : public MyoEnv {
 public:
  WalkEnv(const Setup& setup, const TaskBase& base, WalkParams params, double terrain_z);
  // WalkEnvV0.step: the base step, then steps + 1 (the observation and reward see the count before).
  void step(const Action& action, Rng& rng, const Output& out) override;

 protected:
  void observe(std::vector<double>& obs) override;
  void rewards(Rewards& r) override;
  void reset_task(std::vector<double>& qpos, std::vector<double>& qvel) override;

  // WalkEnvV0._get_done's conditions (TerrainEnvV0 adds the knee's).
  virtual bool fallen() const;
  // The reset state reset_type gives, with its draws (WalkEnvV0.reset's branches).
  void initial_state(std::vector<double>& qpos, std::vector<double>& qvel);
  // _get_com()[2] and _get_com_velocity().
  double com_height() const;
  void com_velocity(double vel[2]) const;
  double foot_height(int side) const;

  const WalkParams p_;

 private:
  std::vector<double> steps_{0.0};
  std::vector<double> geom_pos_;
  std::vector<float> geom_rgba_;
  std::vector<double> target_rot_;  // init_qpos[3:7]: key_qpos[0]'s
  int talus_[2] = {-1, -1};         // left, right
  int pelvis_ = -1, torso_ = -1;
  int hip_flexion_[2] = {-1, -1};   // qpos addresses, left, right
  int hip_joints_[4] = {-1, -1, -1, -1};  // hip_adduction_l/r, hip_rotation_l/r
};

}  // namespace rlpool::myosuite
