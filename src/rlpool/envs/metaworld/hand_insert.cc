// hand-insert-v3: metaworld 3.1.1's envs/sawyer_hand_insert_v3.py
// (SawyerHandInsertEnvV3), its v2 reward: push the block into the hole in the table.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class HandInsert final : public SawyerEnv {
 public:
  HandInsert(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {
    // init_config's obj_init_pos: reset_model keeps its height.
    obj_init_pos_ = {0.0, 0.6, 0.05};
  }

 protected:
  static constexpr double kTargetRadius = 0.05;

  void reset_model() override {
    reset_hand();
    std::vector<double> goal_pos = rand_vec();
    while (norm2(Vec3{goal_pos[0] - goal_pos[3], goal_pos[1] - goal_pos[4], 0.0}) < 0.15) goal_pos = rand_vec();
    obj_init_pos_ = {goal_pos[0], goal_pos[1], obj_init_pos_[2]};
    target_pos_ = {goal_pos[3], goal_pos[4], goal_pos[5]};
    set_obj_xyz(obj_init_pos_);
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("obj"));
    out.add_quat(body_quat("obj"));
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 obj = vec3(obs + 4);
    const double target_to_obj = norm(obj - target_pos_);
    const double target_to_obj_init = norm(obj_init_pos_ - target_pos_);
    const double in_place = tolerance(target_to_obj, 0.0, kTargetRadius, target_to_obj_init, Sigmoid::kLongTail);
    const double object_grasped = gripper_caging_reward(action, obj, 0.015, 0.05, 0.01, 0.005, 1.0, true);
    double reward = hamacher_product(object_grasped, in_place);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = norm(obj - tcp_center());
    if (tcp_to_obj < 0.02 && tcp_opened > 0) reward += 1.0 + 7.0 * in_place;
    if (target_to_obj < kTargetRadius) reward = 10.0;
    return evaluation(reward, target_to_obj <= 0.05, tcp_to_obj <= 0.03,
                      touching_main_object() && tcp_opened > 0 && obj[2] - 0.02 > obj_init_pos_[2], object_grasped,
                      in_place, target_to_obj);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "hand-insert-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_table_with_hole.xml",
              .hand_low = {-0.5, 0.40, -0.15},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.6, 0.05, -0.04, 0.8, -0.0201},
              .reset_high = {0.1, 0.7, 0.05, 0.04, 0.88, -0.0199},
              .goal_low = {-0.04, 0.8, -0.0201},
              .goal_high = {0.04, 0.88, -0.0199},
              // init_config's hand_init_pos is float32.
              .hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)}},
    .create = make_task<HandInsert>(),
});

}  // namespace rlpool::metaworld
