// pick-out-of-hole-v3: metaworld 3.1.1's envs/sawyer_pick_out_of_hole_v3.py
// (SawyerPickOutOfHoleEnvV3), its v2 reward: grasp the peg, lift it out of its hole to the goal.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class PickOutOfHole final : public SawyerEnv {
 public:
  PickOutOfHole(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {}

 protected:
  void reset_model() override {
    reset_hand();
    std::vector<double> v = rand_vec();
    while (norm2(Vec3{v[0] - v[3], v[1] - v[4], 0.0}) < 0.15) v = rand_vec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    set_obj_xyz(obj_init_pos_);
    target_pos_ = {v[3], v[4], v[5]};
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("obj"));
    out.add_quat(body_quat("obj"));
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 obj = vec3(obs + 4);
    const Vec3 gripper = tcp_center();
    const double obj_to_target = norm(obj - target_pos_);
    const double tcp_to_obj = norm(obj - gripper);
    const double in_place_margin = norm(obj_init_pos_ - target_pos_);

    const double threshold = 0.03;
    const double radius = norm2(gripper - obj_init_pos_);
    const double floor = radius <= threshold ? 0.0 : 0.015 * std::log(radius - threshold) + 0.15;
    const double above_floor = gripper[2] >= floor
                                   ? 1.0
                                   : tolerance(std::max(floor - gripper[2], 0.0), 0.0, 0.01, 0.02, Sigmoid::kLongTail);
    const double object_grasped = gripper_caging_reward(action, obj, 0.015, 0.02, 0.01, 0.03, 0.1, true);
    const double in_place = tolerance(obj_to_target, 0.0, 0.02, in_place_margin, Sigmoid::kLongTail);
    double reward = hamacher_product(object_grasped, in_place);

    const bool near_object = tcp_to_obj < 0.04;
    const bool pinched_without_obj = obs[3] < 0.33;
    const bool lifted = obj[2] - 0.02 > obj_init_pos_[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) reward += 1.0 + 5.0 * hamacher_product(in_place, above_floor);
    // self.TARGET_RADIUS: the base's 0.05 (not the class's _TARGET_RADIUS).
    if (obj_to_target < 0.05) reward = 10.0;

    return target_evaluation(reward, obj_to_target, tcp_to_obj, grasp_success, object_grasped, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "pick-out-of-hole-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_pick_out_of_hole.xml",
              .hand_low = {-0.5, 0.40, -0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {0.0, 0.75, 0.02, -0.1, 0.5, 0.15},
              .reset_high = {0.0, 0.75, 0.02, 0.1, 0.6, 0.3},
              .goal_low = {-0.1, 0.5, 0.15},
              .goal_high = {0.1, 0.6, 0.3},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = make_task<PickOutOfHole>(),
});

}  // namespace rlpool::metaworld
