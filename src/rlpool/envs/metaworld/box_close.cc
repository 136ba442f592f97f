// box-close-v3: metaworld 3.1.1's envs/sawyer_box_close_v3.py
// (SawyerBoxCloseEnvV3), its v2 reward: grasp the lid, put it on the box.
#include "envs/metaworld/sawyer_env.h"
#include "envs/metaworld/tool_reward.h"

namespace rlpool::metaworld {
namespace {

class BoxClose final : public SawyerEnv {
 public:
  BoxClose(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {}

 protected:
  void reset_model() override {
    reset_hand();
    obj_init_pos_ = {0.0, 0.55f, 0.02f};
    const double box_height = body_com("boxbody")[2];
    std::vector<double> goal_pos = rand_vec();
    while (norm2(Vec3{goal_pos[0] - goal_pos[3], goal_pos[1] - goal_pos[4], 0.0}) < 0.25) goal_pos = rand_vec();
    obj_init_pos_ = {goal_pos[0], goal_pos[1], obj_init_pos_[2]};
    target_pos_ = {goal_pos[3], goal_pos[4], goal_pos[5]};
    set_body_pos("boxbody", {target_pos_[0], target_pos_[1], box_height});
    mj_steps(kFrameSkip);
    set_obj_xyz(obj_init_pos_);
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("top_link"));
    out.add_quat(body_quat("top_link"));
  }

  int main_object_geom() const override { return geom("BoxHandleGeom"); }

  // _reward_grab_effort, in float32 as numpy computes it on the action's float32.
  static double reward_grab_effort(const double* action) {
    const float a = std::min(std::max(static_cast<float>(action[3]), -1.0f), 1.0f);
    const float effort = (a + 1.0f) / 2.0f;
    return static_cast<double>(std::min(std::max(effort, 0.0f), 1.0f));
  }

  // _reward_pos: (ready_to_lift, lifted).
  static std::pair<double, double> reward_pos(const double* obs, const Vec3& target_pos) {
    const Vec3 hand = vec3(obs);
    const Vec3 lid = vec3(obs + 4) + Vec3{0.0, 0.0, 0.02};
    const double threshold = 0.02;
    const double radius = norm2(hand - lid);
    const double floor = radius <= threshold ? 0.0 : 0.04 * std::log(radius - threshold) + 0.4;
    const double above_floor =
        hand[2] >= floor ? 1.0 : tolerance(floor - hand[2], 0.0, 0.01, floor / 2.0, Sigmoid::kLongTail);
    const double in_place = tolerance(norm(hand - lid), 0.0, 0.02, 0.5, Sigmoid::kLongTail);
    const double ready_to_lift = hamacher_product(above_floor, in_place);
    const Vec3 pos_error = target_pos - lid;
    const Vec3 scaled{pos_error[0] * 1.0, pos_error[1] * 1.0, pos_error[2] * 3.0};
    const double a = 0.2, b = 0.8;
    const double lifted = a * static_cast<double>(lid[2] > 0.04) +
                          b * tolerance(norm(scaled), 0.0, 0.05, 0.25, Sigmoid::kLongTail);
    return {ready_to_lift, lifted};
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const double grab = reward_grab_effort(action);
    // The ideal upright lid.
    const double quat = tool::reward_quat(obs, {0.707, 0.0, 0.0, 0.707}, 0.2);
    const auto [ready_to_lift, lifted] = reward_pos(obs, target_pos_);
    double reward = 0.0 + 2.0 * hamacher_product(grab, ready_to_lift) + 8.0 * lifted;
    const bool success = norm(vec3(obs + 4) - target_pos_) < 0.08;
    if (success) reward = 10.0;
    reward *= quat;
    return tool::evaluation(reward, success, ready_to_lift, grab, lifted);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "box-close-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_box.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.05, 0.5, 0.02, -0.1, 0.7, 0.133},
              .reset_high = {0.05, 0.55, 0.02, 0.1, 0.8, 0.133},
              .goal_low = {-0.1, 0.7, 0.133},
              .goal_high = {0.1, 0.8, 0.133},
              .hand_init_pos = {0.0, 0.6f, 0.2f}},
    .create = make_task<BoxClose>(),
});

}  // namespace rlpool::metaworld
