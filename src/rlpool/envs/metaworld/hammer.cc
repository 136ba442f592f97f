// hammer-v3: metaworld 3.1.1's envs/sawyer_hammer_v3.py
// (SawyerHammerEnvV3), its v2 reward: grasp the hammer, drive the nail in.
#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/tool_reward.h"

namespace rlpool::metaworld {
namespace {

class Hammer final : public SawyerEnv {
 public:
  Hammer(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {}

 protected:
  static constexpr double kHammerHandleLength = 0.14;

  void reset_model() override {
    reset_hand();
    set_body_pos("box", {0.24, 0.85, 0.0});
    target_pos_ = site_pos("goal");
    const std::vector<double> v = rand_vec();
    const Vec3 hammer_init_pos{v[0], v[1], v[2]};
    obj_init_pos_ = hammer_init_pos;
    // _set_hammer_xyz: as _set_obj_xyz.
    set_obj_xyz(hammer_init_pos);
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("hammer"));
    out.add_pos(body_com("nail_link"));
    out.add_quat(body_quat("hammer"));
    out.add_quat(body_quat("nail_link"));
  }

  int main_object_geom() const override { return geom("HammerHandle"); }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 hammer_head = vec3(obs + 4) + Vec3{0.16, 0.06, 0.0};
    const Vec3 hammer_threshed = tool::handle_threshed(obs, kHammerHandleLength);
    // The ideal laid-down hammer.
    const double quat = tool::reward_quat(obs, {1.0, 0.0, 0.0, 0.0}, 0.4);
    const double grab = gripper_caging_reward(action, hammer_threshed, 0.015, 0.02, 0.01, 0.01, 1.0, true);
    const double in_place = tool::lift_and_place(hammer_head, target_pos_);
    double reward = (2.0 * grab + 6.0 * in_place) * quat;
    const bool success = *joint_qpos("NailSlideJoint") > 0.09;
    if (success && reward > 5.0) reward = 10.0;
    return tool::evaluation(reward, success, quat, grab, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "hammer-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_hammer.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.4, 0.0},
              .reset_high = {0.1, 0.5, 0.0},
              .goal_low = {0.2399, 0.7399, 0.109},
              .goal_high = {0.2401, 0.7401, 0.111},
              .hand_init_pos = {0.0, 0.4, 0.2}},
    .create = make_task<Hammer>(),
});

}  // namespace rlpool::metaworld
