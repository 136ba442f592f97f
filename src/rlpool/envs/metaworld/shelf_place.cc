// shelf-place-v3: metaworld 3.1.1's envs/sawyer_shelf_place_v3.py
// (SawyerShelfPlaceEnvV3), its v2 reward: pick the block, place it on the shelf.
#include <algorithm>

#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class ShelfPlace final : public SawyerEnv {
 public:
  ShelfPlace(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) { obj_init_pos_ = {0.0, 0.6, 0.02}; }

 protected:
  void reset_model() override {
    reset_hand();
    // adjust_initObjPos: the initial position shifted by the body-geom offset, at the body's height.
    const Vec3 obj_body = body_com("obj"), obj_geom = geom_pos("objGeom");
    const double diff[2] = {obj_body[0] - obj_geom[0], obj_body[1] - obj_geom[1]};
    obj_init_pos_ = {0.0 + diff[0], 0.6 + diff[1], body_com("obj")[2]};

    std::vector<double> goal_pos = rand_vec();
    while (norm2(Vec3{goal_pos[0] - goal_pos[3], goal_pos[1] - goal_pos[4], 0.0}) < 0.1) goal_pos = rand_vec();
    const Vec3 base_shelf_pos{goal_pos[3] - 0.0, goal_pos[4] - 0.0, goal_pos[5] - 0.3};
    obj_init_pos_ = {goal_pos[0] - 0.0, goal_pos[1] - 0.0, obj_init_pos_[2]};

    set_body_pos("shelf", base_shelf_pos);
    forward();
    target_pos_ = model_site_pos("goal") + model_body_pos("shelf");

    set_obj_xyz(obj_init_pos_);
    // _set_pos_site: the goal site's position in mjData.
    std::copy(target_pos_.begin(), target_pos_.end(), d_->site_xpos + 3 * site("goal"));
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("obj"));
    out.add_quat(geom_quat("objGeom"));
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    constexpr double kTargetRadius = 0.05;
    const Vec3 tcp = tcp_center();
    const Vec3 obj = vec3(obs + 4);
    const double tcp_opened = obs[3];
    const Vec3 target = target_pos_;

    const double obj_to_target = norm(obj - target);
    const double tcp_to_obj = norm(obj - tcp);
    const double in_place_margin = norm(obj_init_pos_ - target);
    double in_place = tolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin, Sigmoid::kLongTail);

    const double object_grasped = gripper_caging_reward(action, obj, 0.02, 0.05, 0.01, 0.01, 1.0, false);
    double reward = hamacher_product(object_grasped, in_place);

    if (0.0 < obj[2] && obj[2] < 0.24 && (target[0] - 0.15 < obj[0] && obj[0] < target[0] + 0.15) &&
        ((target[1] - 3 * kTargetRadius) < obj[1] && obj[1] < target[1])) {
      const double z_scaling = (0.24 - obj[2]) / 0.24;
      const double y_scaling = (obj[1] - (target[1] - 3 * kTargetRadius)) / (3 * kTargetRadius);
      const double bound_loss = hamacher_product(y_scaling, z_scaling);
      in_place = std::clamp(in_place - bound_loss, 0.0, 1.0);
    }
    if ((0.0 < obj[2] && obj[2] < 0.24) && (target[0] - 0.15 < obj[0] && obj[0] < target[0] + 0.15) &&
        (obj[1] > target[1])) {
      in_place = 0.0;
    }
    if (tcp_to_obj < 0.025 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_pos_[2]) reward += 1.0 + 5.0 * in_place;
    if (obj_to_target < kTargetRadius) reward = 10.0;

    const bool grasp_success = touching_main_object() && tcp_opened > 0 && obj[2] - 0.02 > obj_init_pos_[2];
    return target_evaluation(reward, obj_to_target, tcp_to_obj, grasp_success, object_grasped, in_place);
  }
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "shelf-place-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_shelf_placing.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.5, 0.019, -0.1, 0.8, 0.299},
              .reset_high = {0.1, 0.6, 0.021, 0.1, 0.9, 0.301},
              .goal_low = {-0.1, 0.8, 0.299},
              .goal_high = {0.1, 0.9, 0.301},
              // init_config's hand_init_pos is float32.
              .hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)}},
    .create = make_task<ShelfPlace>(),
});

}  // namespace rlpool::metaworld
