// sweep-v3 and sweep-into-v3: metaworld 3.1.1's envs/sawyer_sweep_v3.py (SawyerSweepEnvV3) and
// sawyer_sweep_into_goal_v3.py (SawyerSweepIntoGoalEnvV3), their v2 rewards: sweep the block off the
// table's edge (sweep) or into the hole in the table (sweep-into). Both override _gripper_caging_reward
// (pad_gripping_reward) and reward the same way. What differs:
// - sweep draws the block's x-y once and puts the goal, past the edge, level with it in y; sweep-into's
//   goal is the hole, fixed, and it redraws the block until 0.15 from it in x-y.
// - the block's initial height: sweep's init_config's; sweep-into's the body's (obj_init_pos =
//   get_body_com("obj"), a live view, read after the draw).
// - sweep-into scores the distance to the goal at the block's height; its caging margins differ.
// - sweep observes the block body's quaternion, sweep-into its geom's.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

constexpr double kObjRadius = 0.02;

struct Variant {
  bool into_hole;
  Vec3 goal;  // self.goal
  double grip_success_margin, x_z_success_margin;
};

constexpr Variant kSweep{false, {0.5, 0.65, 0.01}, kObjRadius + 0.01, 0.005};
constexpr Variant kSweepInto{true, {0.0, 0.84, 0.02}, kObjRadius + 0.005, 0.01};

class Sweep final : public SawyerEnv {
 public:
  Sweep(const Config& c, const TaskSetup& s, const Variant& v) : SawyerEnv(c, s), v_(v) {}

 protected:
  void reset_model() override {
    reset_hand();
    target_pos_ = v_.goal;
    if (!v_.into_hole) {
      const std::vector<double> obj_pos = rand_vec();
      obj_init_pos_ = {obj_pos[0], obj_pos[1], 0.02};
      target_pos_[1] = obj_pos[1];
    } else {
      std::vector<double> goal_pos = rand_vec();
      while (norm2(Vec3{goal_pos[0] - target_pos_[0], goal_pos[1] - target_pos_[1], 0.0}) < 0.15) {
        goal_pos = rand_vec();
      }
      obj_init_pos_ = {goal_pos[0], goal_pos[1], body_com("obj")[2]};
    }
    set_obj_xyz(obj_init_pos_);
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("obj"));
    if (v_.into_hole) {
      out.add_quat(geom_quat("objGeom"));
    } else {
      out.add_quat(body_quat("obj"));
    }
  }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    constexpr double kTargetRadius = 0.05;
    const Vec3 tcp = tcp_center();
    const Vec3 obj = vec3(obs + 4);
    const double tcp_opened = obs[3];
    const Vec3 target = v_.into_hole ? Vec3{target_pos_[0], target_pos_[1], obj[2]} : target_pos_;
    const double obj_to_target = norm(obj - target);
    const double tcp_to_obj = norm(obj - tcp);
    const double in_place_margin = norm(obj_init_pos_ - target);
    const double in_place = tolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin, Sigmoid::kLongTail);
    const double object_grasped =
        pad_gripping_reward(obj, kObjRadius, 0.05, v_.grip_success_margin, v_.x_z_success_margin);
    const double in_place_and_object_grasped = hamacher_product(object_grasped, in_place);
    double reward = (2 * object_grasped) + (6 * in_place_and_object_grasped);
    if (obj_to_target < kTargetRadius) reward = 10.0;

    return evaluation(reward, obj_to_target <= 0.05, tcp_to_obj <= 0.03, touching_main_object() && tcp_opened > 0,
                      object_grasped, in_place, obj_to_target);
  }

 private:
  const Variant v_;
};

}  // namespace

static const bool kRegisteredSweep = register_task({
    .name = "sweep-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_sweep_v3.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.6, 0.02},
              .reset_high = {0.1, 0.7, 0.02},
              .goal_low = {0.49, 0.6, 0.0},
              .goal_high = {0.51, 0.7, 0.02},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Sweep>(c, s, kSweep);
    },
});

static const bool kRegisteredSweepInto = register_task({
    .name = "sweep-into-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_table_with_hole.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.6, 0.02, -0.001, 0.8399, 0.0199},
              .reset_high = {0.1, 0.7, 0.02, 0.001, 0.8401, 0.0201},
              .goal_low = {-0.001, 0.8399, 0.0199},
              .goal_high = {0.001, 0.8401, 0.0201},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Sweep>(c, s, kSweepInto);
    },
});

}  // namespace rlpool::metaworld
