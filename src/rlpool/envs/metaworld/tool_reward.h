// The reward terms that metaworld 3.1.1's tool tasks copy between them: assembly-v3, disassemble-v3 and
// hammer-v3 (a wrench or hammer grasped by its handle) and box-close-v3 (the box's lid). They score how
// nearly the tool lies as it should (_reward_quat: the distance of the object's quaternion, obs[7:11], from
// an ideal one), grasp the handle where the hand is along it (the object's position with its x the hand's
// once the two are within half the handle's length), score lifting and placing it (disassemble's and
// hammer's _reward_pos) and report the same info (near_object: a task's own readiness term; grasp_success:
// the grasp reward at least 0.5; obj_to_target: 0).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld::tool {

// _reward_quat: max(1 - |obs[7:11] - ideal| / scale, 0).
inline double reward_quat(const double* obs, const std::array<double, 4>& ideal, double scale) {
  double diff[4];
  for (int k = 0; k < 4; ++k) diff[k] = obs[7 + k] - ideal[k];
  const double error = norm(diff, 4);
  return std::max(1.0 - error / scale, 0.0);
}

// The object's position (obs[4:7]) with its x set to the hand's (obs[0]) where they are closer in x than half
// the handle's length: where the gripper's caging reward measures the handle.
inline Vec3 handle_threshed(const double* obs, double handle_length) {
  const Vec3 hand = vec3(obs), obj = vec3(obs + 4);
  Vec3 threshed = obj;
  const double threshold = handle_length / 2.0;
  if (std::abs(obj[0] - hand[0]) < threshold) threshed[0] = hand[0];
  return threshed;
}

// disassemble's and hammer's _reward_pos: 0.1 for trying to lift (`pos` above 0.02), 0.9 for its closeness to
// the target.
inline double lift_and_place(const Vec3& pos, const Vec3& target) {
  const Vec3 pos_error = target - pos;
  const double a = 0.1, b = 0.9;
  const bool lifted = pos[2] > 0.02;
  return a * static_cast<double>(lifted) + b * tolerance(norm(pos_error), 0.0, 0.02, 0.2, Sigmoid::kLongTail);
}

// evaluate_state's info of these tasks.
inline Evaluation evaluation(double reward, bool success, double near_object, double grab, double in_place) {
  return metaworld::evaluation(reward, success, near_object, grab >= 0.5, grab, in_place, 0.0);
}

}  // namespace rlpool::metaworld::tool
