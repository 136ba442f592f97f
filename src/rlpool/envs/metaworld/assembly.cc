// assembly-v3: metaworld 3.1.1's envs/sawyer_assembly_peg_v3.py
// (SawyerNutAssemblyEnvV3), its v2 reward: grasp the wrench, put its nut on the peg.
#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/tool_reward.h"

namespace rlpool::metaworld {
namespace {

class Assembly final : public SawyerEnv {
 public:
  Assembly(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {}

 protected:
  static constexpr double kWrenchHandleLength = 0.02;

  void reset_model() override {
    reset_hand();
    std::vector<double> goal_pos = rand_vec();
    while (norm2(Vec3{goal_pos[0] - goal_pos[3], goal_pos[1] - goal_pos[4], 0.0}) < 0.1) goal_pos = rand_vec();
    obj_init_pos_ = {goal_pos[0], goal_pos[1], goal_pos[2]};
    target_pos_ = {goal_pos[3], goal_pos[4], goal_pos[5]};
    const Vec3 peg_pos = target_pos_ - Vec3{0.0, 0.0, 0.05};
    set_obj_xyz(obj_init_pos_);
    set_body_pos("peg", peg_pos);
    set_site_pos("pegTop", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos("RoundNut-8"));
    out.add_quat(body_quat("RoundNut"));
  }

  int main_object_geom() const override { return geom("WrenchHandle"); }

  // _reward_pos: (in_place, success).
  static std::pair<double, bool> reward_pos(const Vec3& wrench_center, const Vec3& target_pos) {
    Vec3 pos_error = target_pos - wrench_center;
    const double radius = norm2(pos_error);
    const bool aligned = radius < 0.02;
    const bool hooked = pos_error[2] > 0.0;
    const bool success = aligned && hooked;
    const double threshold = success ? 0.02 : 0.01;
    double target_height = 0.0;
    if (radius > threshold) target_height = 0.02 * std::log(radius - threshold) + 0.2;
    pos_error[2] = target_height - wrench_center[2];
    const Vec3 scaled{pos_error[0] * 1.0, pos_error[1] * 1.0, pos_error[2] * 3.0};
    const double a = 0.1, b = 0.9;
    const bool lifted = wrench_center[2] > 0.02 || radius < threshold;
    const double in_place =
        a * static_cast<double>(lifted) + b * tolerance(norm(scaled), 0.0, 0.02, 0.4, Sigmoid::kLongTail);
    return {in_place, success};
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 wrench_center = site_pos("RoundNut");
    const Vec3 wrench_threshed = tool::handle_threshed(obs, kWrenchHandleLength);
    // The ideal laid-down wrench.
    const double quat = tool::reward_quat(obs, {0.707, 0.0, 0.0, 0.707}, 0.4);
    const double grab = gripper_caging_reward(action, wrench_threshed, 0.015, 0.02, 0.01, 0.01, 1.0, false, true);
    const auto [in_place, success] = reward_pos(wrench_center, target_pos_);
    double reward = (2.0 * grab + 6.0 * in_place) * quat;
    if (success) reward = 10.0;
    return tool::evaluation(reward, success, quat, grab, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "assembly-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_assembly_peg.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {0.0, 0.6, 0.02, -0.1, 0.75, 0.1},
              .reset_high = {0.0, 0.6, 0.02, 0.1, 0.85, 0.1},
              .goal_low = {-0.1, 0.75, 0.1},
              .goal_high = {0.1, 0.85, 0.1},
              .hand_init_pos = {0.0, 0.6f, 0.2f}},
    .create = make_task<Assembly>(),
});

}  // namespace rlpool::metaworld
