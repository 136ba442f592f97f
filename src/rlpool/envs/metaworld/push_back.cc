// push-back-v3: metaworld 3.1.1's envs/sawyer_push_back_v3.py
// (SawyerPushBackEnvV3), its v2 reward: push the puck back towards the robot to the goal.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class PushBack final : public SawyerEnv {
 public:
  PushBack(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {}

 protected:
  static constexpr double kObjRadius = 0.007;
  static constexpr double kTargetRadius = 0.05;

  // adjust_initObjPos: orig's x, y shifted by the body's offset from the geom, at the geom's height.
  Vec3 adjust_init_obj_pos(const Vec3& orig) const {
    const Vec3 com = body_com("obj"), geom_xpos = geom_pos("objGeom");
    const double diff[2] = {com[0] - geom_xpos[0], com[1] - geom_xpos[1]};
    return {orig[0] + diff[0], orig[1] + diff[1], geom_xpos[2]};
  }

  void reset_model() override {
    reset_hand();
    target_pos_ = {0.0, 0.6, 0.02};
    obj_init_pos_ = adjust_init_obj_pos({0.0, 0.8, 0.02});
    std::vector<double> goal_pos = rand_vec();
    target_pos_ = {goal_pos[3], goal_pos[4], obj_init_pos_[2]};
    while (norm2(Vec3{goal_pos[0] - target_pos_[0], goal_pos[1] - target_pos_[1], 0.0}) < 0.15) {
      goal_pos = rand_vec();
      target_pos_ = {goal_pos[3], goal_pos[4], obj_init_pos_[2]};
    }
    obj_init_pos_ = {goal_pos[0], goal_pos[1], obj_init_pos_[2]};
    set_obj_xyz(obj_init_pos_);
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(geom_pos("objGeom"));
    out.add_quat(geom_quat("objGeom"));
  }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    const Vec3 obj = vec3(obs + 4);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = norm(obj - tcp_center());
    const double target_to_obj = norm(obj - target_pos_);
    const double target_to_obj_init = norm(obj_init_pos_ - target_pos_);
    const double in_place = tolerance(target_to_obj, 0.0, kTargetRadius, target_to_obj_init, Sigmoid::kLongTail);
    // The task's own _gripper_caging_reward.
    const double object_grasped = pad_gripping_reward(obj, kObjRadius, 0.05, kObjRadius + 0.003, 0.01);
    double reward = hamacher_product(object_grasped, in_place);
    if (tcp_to_obj < 0.01 && 0 < tcp_opened && tcp_opened < 0.55 && target_to_obj_init - target_to_obj > 0.01) {
      reward += 1.0 + 5.0 * in_place;
    }
    if (target_to_obj < kTargetRadius) reward = 10.0;
    return target_evaluation(reward, target_to_obj, tcp_to_obj,
                             touching_main_object() && tcp_opened > 0 && obj[2] - 0.02 > obj_init_pos_[2],
                             object_grasped, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "push-back-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_push_back_v3.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.8, 0.02, -0.1, 0.6, 0.0199},
              .reset_high = {0.1, 0.85, 0.02, 0.1, 0.7, 0.0201},
              .goal_low = {-0.1, 0.6, 0.0199},
              .goal_high = {0.1, 0.7, 0.0201},
              .hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)}},
    .create = make_task<PushBack>(),
});

}  // namespace rlpool::metaworld
