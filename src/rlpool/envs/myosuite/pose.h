// What the joint-posing tasks (pose.cc) and the torso-posing tasks
// (torso.cc) share: myosuite 2.11.6's PoseEnvV0.get_reward_dict
// (envs/myo/myobase/pose_v0.py), which TorsoEnvV0.get_reward_dict
// (envs/myo/myobase/torso_v0.py) repeats with its own far threshold.
#pragma once

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {

class PoseRewardEnv : public MyoEnv {
 protected:
  // The reward terms pose, bonus, penalty and act_reg.
  PoseRewardEnv(const Setup& setup, const TaskBase& base);
  // get_reward_dict from the pose error's norm: pose (-pose_dist), bonus (within pose_thd and 1.5 pose_thd),
  // penalty (beyond far_th, which is also done), act_reg (-|act| / na; 0 without activations, whose obs_dict
  // entry is zeros), sparse and solved.
  void pose_rewards(double pose_dist, double pose_thd, double far_th, Rewards& r) const;
};

}  // namespace rlpool::myosuite
