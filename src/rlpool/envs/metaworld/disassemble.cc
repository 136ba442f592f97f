// disassemble-v3: metaworld 3.1.1's envs/sawyer_disassemble_peg_v3.py
// (SawyerNutDisassembleEnvV3), its v2 reward: grasp the wrench, lift its nut off the peg.
#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/tool_reward.h"

namespace rlpool::metaworld {
namespace {

class Disassemble final : public SawyerEnv {
 public:
  Disassemble(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {}

 protected:
  static constexpr double kWrenchHandleLength = 0.02;

  void reset_model() override {
    reset_hand();
    target_pos_ = {0.0, 0.8, 0.17};
    obj_init_pos_ = {0.0, 0.7, 0.025};
    std::vector<double> goal_pos = rand_vec();
    while (norm2(Vec3{goal_pos[0] - goal_pos[3], goal_pos[1] - goal_pos[4], 0.0}) < 0.1) goal_pos = rand_vec();
    obj_init_pos_ = {goal_pos[0], goal_pos[1], goal_pos[2]};
    target_pos_ = obj_init_pos_ + Vec3{0.0, 0.0, 0.15};
    const Vec3 peg_pos = obj_init_pos_ + Vec3{0.0, 0.0, 0.03};
    const Vec3 peg_top_pos = obj_init_pos_ + Vec3{0.0, 0.0, 0.08};
    set_body_pos("peg", peg_pos);
    set_site_pos("pegTop", peg_top_pos);
    forward();
    set_obj_xyz(obj_init_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos("RoundNut-8"));
    out.add_quat(body_quat("RoundNut"));
  }

  int main_object_geom() const override { return geom("WrenchHandle"); }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 wrench_center = site_pos("RoundNut");
    const Vec3 wrench_threshed = tool::handle_threshed(obs, kWrenchHandleLength);
    // The ideal laid-down wrench.
    const double quat = tool::reward_quat(obs, {0.707, 0.0, 0.0, 0.707}, 0.4);
    const double grab = gripper_caging_reward(action, wrench_threshed, 0.015, 0.02, 0.01, 0.01, 1.0, true);
    // _reward_pos: lifted 0.1 above the target.
    const double in_place = tool::lift_and_place(wrench_center, target_pos_ + Vec3{0.0, 0.0, 0.1});
    double reward = (2.0 * grab + 6.0 * in_place) * quat;
    const bool success = obs[6] > target_pos_[2];
    if (success) reward = 10.0;
    return tool::evaluation(reward, success, quat, grab, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "disassemble-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_assembly_peg.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {0.0, 0.6, 0.025, -0.1, 0.6, 0.1699},
              .reset_high = {0.1, 0.75, 0.02501, 0.1, 0.75, 0.1701},
              .goal_low = {-0.1 + 0.0, 0.6 + 0.0, 0.1699 + 0.005},
              .goal_high = {0.1 + 0.0, 0.75 + 0.0, 0.1701 + 0.005},
              .hand_init_pos = {0.0, 0.4f, 0.2f}},
    .create = make_task<Disassemble>(),
});

}  // namespace rlpool::metaworld
