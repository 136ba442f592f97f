// soccer-v3: metaworld 3.1.1's envs/sawyer_soccer_v3.py (SawyerSoccerEnvV3),
// its v2 reward: push the ball into the goal.
#include <algorithm>

#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class Soccer final : public SawyerEnv {
 public:
  Soccer(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) { obj_init_pos_ = {0.0, 0.6, 0.03}; }

 protected:
  static constexpr double kObjRadius = 0.013;
  static constexpr double kTargetRadius = 0.07;

  void reset_model() override {
    reset_hand();
    target_pos_ = {0.0, 0.9, 0.03};
    std::vector<double> goal_pos = rand_vec();
    target_pos_ = {goal_pos[3], goal_pos[4], goal_pos[5]};
    while (norm2(Vec3{goal_pos[0] - target_pos_[0], goal_pos[1] - target_pos_[1], 0.0}) < 0.15) {
      goal_pos = rand_vec();
      target_pos_ = {goal_pos[3], goal_pos[4], goal_pos[5]};
    }
    obj_init_pos_ = {goal_pos[0], goal_pos[1], obj_init_pos_[2]};
    set_body_pos("goal_whole", target_pos_);
    set_obj_xyz(obj_init_pos_);
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("soccer_ball"));
    out.add_quat(body_xmat_quat("soccer_ball"));
  }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    const Vec3 obj = vec3(obs + 4);
    const double tcp_opened = obs[3];
    const Vec3 tcp = tcp_center();
    const double tcp_to_obj = norm(obj - tcp);
    const Vec3 d = obj - target_pos_, d_init = obj - obj_init_pos_;
    const double target_to_obj = norm(Vec3{d[0] * 3.0, d[1] * 1.0, d[2] * 1.0});
    const double target_to_obj_init = norm(Vec3{d_init[0] * 3.0, d_init[1] * 1.0, d_init[2] * 1.0});
    double in_place = tolerance(target_to_obj, 0.0, kTargetRadius, target_to_obj_init, Sigmoid::kLongTail);
    const double goal_line = target_pos_[1] - 0.1;
    if (obj[1] > goal_line && std::abs(obj[0] - target_pos_[0]) > 0.10) {
      in_place = std::clamp(in_place - 2 * ((obj[1] - goal_line) / (1 - goal_line)), 0.0, 1.0);
    }
    // The task's own _gripper_caging_reward.
    const double object_grasped = pad_gripping_reward(obj, kObjRadius, 0.05, kObjRadius + 0.01, 0.005);
    double reward = (3 * object_grasped) + (6.5 * in_place);
    if (target_to_obj < kTargetRadius) reward = 10.0;
    const double obj_to_target = norm(obj - target_pos_);

    return target_evaluation(reward, obj_to_target, tcp_to_obj,
                             touching_main_object() && tcp_opened > 0 && obj[2] - 0.02 > obj_init_pos_[2],
                             object_grasped, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "soccer-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_soccer.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.6, 0.03, -0.1, 0.8, 0.0},
              .reset_high = {0.1, 0.7, 0.03, 0.1, 0.9, 0.0},
              .goal_low = {-0.1, 0.8, 0.0},
              .goal_high = {0.1, 0.9, 0.0},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = make_task<Soccer>(),
});

}  // namespace rlpool::metaworld
