// peg-insert-side-v3: metaworld 3.1.1's envs/sawyer_peg_insertion_side_v3.py
// (SawyerPegInsertionSideEnvV3), its v2 reward: pick up the peg, insert it sideways in the box's hole.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class PegInsertSide final : public SawyerEnv {
 public:
  PegInsertSide(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) { keep(peg_head_pos_init_); }

 protected:
  static constexpr double kTargetRadius = 0.07;

  void reset_model() override {
    reset_hand();
    std::vector<double> v = rand_vec();
    while (norm2(Vec3{v[0] - v[3], v[1] - v[4], 0.0}) < 0.1) v = rand_vec();
    const Vec3 pos_peg{v[0], v[1], v[2]}, pos_box{v[3], v[4], v[5]};
    obj_init_pos_ = pos_peg;
    peg_head_pos_init_ = site_pos("pegHead");
    set_obj_xyz(obj_init_pos_);
    set_body_pos("box", pos_box);
    target_pos_ = pos_box + Vec3{0.03, 0.0, 0.13};
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos("pegGrasp"));
    out.add_quat(site_quat("pegGrasp"));
  }

  static Vec3 scaled(const Vec3& a, const Vec3& s) { return {a[0] * s[0], a[1] * s[1], a[2] * s[2]}; }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 tcp = tcp_center();
    const Vec3 obj = vec3(obs + 4);
    const Vec3 obj_head = site_pos("pegHead");
    const double tcp_opened = obs[3];
    const Vec3 target = target_pos_;
    const double tcp_to_obj = norm(obj - tcp);
    const Vec3 scale{1.0, 2.0, 2.0};
    const double obj_to_target = norm(scaled(obj_head - target, scale));
    const double in_place_margin = norm(scaled(peg_head_pos_init_ - target, scale));
    double in_place = tolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin, Sigmoid::kLongTail);
    const Vec3 brc_col_box_1 = site_pos("bottom_right_corner_collision_box_1");
    const Vec3 tlc_col_box_1 = site_pos("top_left_corner_collision_box_1");
    const Vec3 brc_col_box_2 = site_pos("bottom_right_corner_collision_box_2");
    const Vec3 tlc_col_box_2 = site_pos("top_left_corner_collision_box_2");
    const double collision_box_bottom_1 = rect_prism_tolerance(obj_head, brc_col_box_1, tlc_col_box_1);
    const double collision_box_bottom_2 = rect_prism_tolerance(obj_head, brc_col_box_2, tlc_col_box_2);
    const double collision_boxes = hamacher_product(collision_box_bottom_2, collision_box_bottom_1);
    in_place = hamacher_product(in_place, collision_boxes);
    const double pad_success_margin = 0.03, object_reach_radius = 0.01, x_z_margin = 0.005, obj_radius = 0.0075;
    double object_grasped = gripper_caging_reward(action, obj, obj_radius, pad_success_margin, object_reach_radius,
                                                  x_z_margin, 1.0, true);
    const bool lifted = tcp_to_obj < 0.08 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_pos_[2];
    if (lifted) object_grasped = 1.0;
    double reward = hamacher_product(object_grasped, in_place);
    if (lifted) reward += 1.0 + 5 * in_place;
    if (obj_to_target <= 0.07) reward = 10.0;
    const bool grasp_success = tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_pos_[2];
    return target_evaluation(reward, obj_to_target, tcp_to_obj, grasp_success, object_grasped, in_place);
  }

 private:
  Vec3 peg_head_pos_init_{};
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "peg-insert-side-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_peg_insertion_side.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {0.0, 0.5, 0.02, -0.35, 0.4, -0.001},
              .reset_high = {0.2, 0.7, 0.02, -0.25, 0.7, 0.001},
              .goal_low = {-0.35 + 0.03, 0.4 + 0.0, -0.001 + 0.13},
              .goal_high = {-0.25 + 0.03, 0.7 + 0.0, 0.001 + 0.13},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = make_task<PegInsertSide>(),
});

}  // namespace rlpool::metaworld
