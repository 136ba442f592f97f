// peg-unplug-side-v3: metaworld 3.1.1's envs/sawyer_peg_unplug_side_v3.py
// (SawyerPegUnplugSideEnvV3), its v2 reward: pull the plug sideways out of the box.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class PegUnplugSide final : public SawyerEnv {
 public:
  PegUnplugSide(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) {}

 protected:
  // The task's _set_obj_xyz: the plug's free joint at `pos`, upright, its linear velocity zero.
  void set_plug(const Vec3& pos) {
    std::copy(pos.begin(), pos.end(), d_->qpos + 9);
    const double quat[4] = {1.0, 0.0, 0.0, 0.0};
    std::copy(quat, quat + 4, d_->qpos + 12);
    std::fill(d_->qvel + 9, d_->qvel + 12, 0.0);
    set_state(d_->qpos, d_->qvel);
  }

  void reset_model() override {
    reset_hand();
    const std::vector<double> v = rand_vec();
    const Vec3 pos_box{v[0], v[1], v[2]};
    set_body_pos("box", pos_box);
    const Vec3 pos_plug = pos_box + Vec3{0.044, 0.0, 0.131};
    set_plug(pos_plug);
    obj_init_pos_ = site_pos("pegEnd");
    target_pos_ = pos_plug + Vec3{0.15, 0.0, 0.0};
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos("pegEnd"));
    out.add_quat(body_quat("plug1"));
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 tcp = tcp_center();
    const Vec3 obj = vec3(obs + 4);
    const double tcp_opened = obs[3];
    const Vec3 target = target_pos_;
    const double tcp_to_obj = norm(obj - tcp);
    const double obj_to_target = norm(obj - target);
    const double pad_success_margin = 0.05, object_reach_radius = 0.01, x_z_margin = 0.005, obj_radius = 0.025;
    const double object_grasped = gripper_caging_reward(action, obj, obj_radius, pad_success_margin,
                                                        object_reach_radius, x_z_margin, 0.8, true);
    const double in_place_margin = norm(obj_init_pos_ - target);
    const double in_place = tolerance(obj_to_target, 0.0, 0.05, in_place_margin, Sigmoid::kLongTail);
    const bool grasp_success = tcp_opened > 0.5 && obj[0] - obj_init_pos_[0] > 0.015;
    double reward = 2 * object_grasped;
    if (grasp_success && tcp_to_obj < 0.035) reward = 1 + 2 * object_grasped + 5 * in_place;
    if (obj_to_target <= 0.05) reward = 10.0;
    return target_evaluation(reward, obj_to_target, tcp_to_obj, grasp_success, object_grasped, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "peg-unplug-side-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_peg_unplug_side.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.25, 0.6, -0.001},
              .reset_high = {-0.15, 0.8, 0.001},
              .goal_low = {-0.25 + 0.194, 0.6 + 0.0, -0.001 + 0.131},
              .goal_high = {-0.15 + 0.194, 0.8 + 0.0, 0.001 + 0.131},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = make_task<PegUnplugSide>(),
});

}  // namespace rlpool::metaworld
