// bin-picking-v3: metaworld 3.1.1's envs/sawyer_bin_picking_v3.py
// (SawyerBinPickingEnvV3), its v2 reward: pick the cube, drop it into the other bin.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class BinPicking final : public SawyerEnv {
 public:
  BinPicking(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) { keep(target_to_obj_init_); }

 protected:
  void reset_model() override {
    reset_hand();
    target_pos_ = {0.12, 0.7, 0.02};
    obj_init_pos_ = {-0.12, 0.7, 0.02};
    const double obj_height = body_com("obj")[2];
    const std::vector<double> v = rand_vec();
    obj_init_pos_ = {v[0], v[1], obj_height};
    set_obj_xyz(obj_init_pos_);
    // metaworld's _target_pos is a view of data.body("bin_goal").xpos (pos_goal and evaluate_state read it live).
    target_pos_ = body_com("bin_goal");
    target_to_obj_init_ = kNone;
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("obj"));
    out.add_quat(body_quat("obj"));
  }

  Vec3 pos_goal() const override { return body_com("bin_goal"); }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 hand = vec3(obs), obj = vec3(obs + 4);
    const Vec3 target = body_com("bin_goal");
    const double target_to_obj = norm(obj - target);
    // _target_to_obj_init is set by the first step's evaluation (not by rlpool's evaluation at reset).
    double margin = target_to_obj_init_;
    if (margin < 0) {
      margin = target_to_obj;
      if (curr_path_length_ > 0) target_to_obj_init_ = target_to_obj;
    }
    const double in_place = tolerance(target_to_obj, 0.0, 0.05, margin, Sigmoid::kLongTail);

    const double threshold = 0.03;
    const double radii[2] = {norm2(hand - obj_init_pos_), norm2(hand - target)};
    double floors[2];
    for (int i = 0; i < 2; ++i) floors[i] = radii[i] > threshold ? 0.02 * std::log(radii[i] - threshold) + 0.2 : 0.0;
    const double floor = std::min(floors[0], floors[1]);
    const double above_floor =
        hand[2] >= floor ? 1.0 : tolerance(std::max(floor - hand[2], 0.0), 0.0, 0.01, 0.05, Sigmoid::kLongTail);

    const double object_grasped = gripper_caging_reward(action, obj, 0.015, 0.05, 0.01, 0.01, 0.7, true);
    double reward = hamacher_product(object_grasped, in_place);

    const bool near_object = norm(obj - hand) < 0.04;
    const bool pinched_without_obj = obs[3] < 0.43;
    const bool lifted = obj[2] - 0.02 > obj_init_pos_[2];
    const bool grasp_success = near_object && lifted && !pinched_without_obj;
    if (grasp_success) reward += 1.0 + 5.0 * hamacher_product(above_floor, in_place);
    if (target_to_obj < 0.05) reward = 10.0;

    return evaluation(reward, target_to_obj <= 0.05, near_object, grasp_success, object_grasped, in_place,
                      target_to_obj);
  }

 private:
  // metaworld's None: not measured yet (a distance is never negative; a saved state holds finite numbers).
  static constexpr double kNone = -1.0;
  double target_to_obj_init_ = kNone;
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "bin-picking-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_bin_picking.xml",
              .hand_low = {-0.5, 0.40, 0.07},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.21, 0.65, 0.02, 0.1199, 0.699, -0.001},
              .reset_high = {-0.03, 0.75, 0.02, 0.1201, 0.701, +0.001},
              .goal_low = {0.1199, 0.699, -0.001},
              .goal_high = {0.1201, 0.701, +0.001},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = make_task<BinPicking>(),
});

}  // namespace rlpool::metaworld
