// basketball-v3: metaworld 3.1.1's envs/sawyer_basketball_v3.py
// (SawyerBasketballEnvV3), its v2 reward: grasp the ball, carry it into the hoop.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class Basketball final : public SawyerEnv {
 public:
  Basketball(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {
    // init_config's obj_init_pos (float32): reset_model keeps its height.
    obj_init_pos_ = {0.0, 0.6f, 0.03f};
  }

 protected:
  static constexpr double kTargetRadius = 0.08;

  void reset_model() override {
    reset_hand();
    std::vector<double> goal_pos = rand_vec();
    Vec3 basket_pos{goal_pos[3], goal_pos[4], goal_pos[5]};
    while (norm2(Vec3{goal_pos[0] - basket_pos[0], goal_pos[1] - basket_pos[1], 0.0}) < 0.15) {
      goal_pos = rand_vec();
      basket_pos = {goal_pos[3], goal_pos[4], goal_pos[5]};
    }
    obj_init_pos_ = {goal_pos[0], goal_pos[1], obj_init_pos_[2]};
    set_body_pos("basket_goal", basket_pos);
    // metaworld's _target_pos is a view of data.site("goal").xpos: it follows the simulation (pos_goal and
    // evaluate_state read the live value), and the site's model position is set to its world position.
    set_obj_xyz(obj_init_pos_);
    set_site_pos("goal", site_pos("goal"));
    target_pos_ = site_pos("goal");
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("bsktball"));
    out.add_quat(body_quat("bsktball"));
  }

  Vec3 pos_goal() const override { return site_pos("goal"); }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 obj = vec3(obs + 4);
    Vec3 target = site_pos("goal");
    target[2] = 0.3;
    const Vec3 d = obj - target;
    const double target_to_obj = norm(Vec3{d[0] * 1.0, d[1] * 1.0, d[2] * 2.0});
    const Vec3 d_init = obj_init_pos_ - target;
    const double target_to_obj_init = norm(Vec3{d_init[0] * 1.0, d_init[1] * 1.0, d_init[2] * 2.0});
    const double in_place = tolerance(target_to_obj, 0.0, kTargetRadius, target_to_obj_init, Sigmoid::kLongTail);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = norm(obj - tcp_center());
    double object_grasped = gripper_caging_reward(action, obj, 0.025, 0.06, 0.01, 0.005, 1.0, true);
    const bool lifted = tcp_to_obj < 0.035 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_pos_[2];
    if (lifted) object_grasped = 1.0;
    double reward = hamacher_product(object_grasped, in_place);
    if (lifted) reward += 1.0 + 5.0 * in_place;
    if (target_to_obj < kTargetRadius) reward = 10.0;
    return evaluation(reward, target_to_obj <= kTargetRadius, tcp_to_obj <= 0.05,
                      tcp_opened > 0 && obj[2] - 0.03 > obj_init_pos_[2], object_grasped, in_place, target_to_obj);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "basketball-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_basketball.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.6, 0.0299, -0.1, 0.85, 0.0},
              .reset_high = {0.1, 0.7, 0.0301, 0.1, 0.9 + 1e-7, 0.0},
              .goal_low = {-0.1 + 0.0, 0.85 + -0.083, 0.0 + 0.2499},
              .goal_high = {0.1 + 0.0, 0.9 + 1e-7 + -0.083, 0.0 + 0.2501},
              .hand_init_pos = {0.0, 0.6f, 0.2f}},
    .create = make_task<Basketball>(),
});

}  // namespace rlpool::metaworld
