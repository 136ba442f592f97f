// reach-v3, push-v3, pick-place-v3 and their wall variants: metaworld 3.1.1's envs/sawyer_reach_v3.py
// (SawyerReachEnvV3), sawyer_push_v3.py (SawyerPushEnvV3), sawyer_pick_place_v3.py (SawyerPickPlaceEnvV3),
// sawyer_reach_wall_v3.py (SawyerReachWallEnvV3), sawyer_push_wall_v3.py (SawyerPushWallEnvV3) and
// sawyer_pick_place_wall_v3.py (SawyerPickPlaceWallEnvV3), their v2 rewards: move the gripper's centre to
// the goal (reach), push the puck along the table to it (push) or grasp the puck and carry it there
// (pick-place); the wall variants put a wall between puck and goal.
//
// All six share a reset: the puck (entries 0-2 of the task vector) and the goal (3-5), redrawn until 0.15
// apart in x-y. What differs:
// - push and push-wall keep the puck and the goal at the puck's initial height (fix_extreme_obj_pos's:
//   the body's; adjust_initObjPos's: the geom's); the others put them at the drawn heights.
// - push-wall sets the goal marker before the puck (the others after), and pick-place reads init_tcp again
//   after the draw (the value _reset_hand left: nothing moved in between).
// - push-wall and pick-place-wall observe the puck's geom, the others its body.
// - reach-wall's reward is reach's; its info has zeros where reach's has the distance to the goal.
// - push-wall and pick-place-wall reward the puck's way to a midpoint by the wall first, to the goal once
//   past y = 0.75.
// - pick-place overrides _gripper_caging_reward (pad_caging_reward); pick-place-wall keeps the base's.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

enum class Task { kReach, kPush, kPickPlace };

struct Variant {
  Task task;
  bool wall;
  bool geom_position;     // _get_pos_objects is the puck geom's xpos (not the body's), as the height kept
  double success_radius;  // success: the puck (reach: the gripper's centre) this near the goal
};

constexpr Variant kReach{Task::kReach, false, false, 0.05};
constexpr Variant kReachWall{Task::kReach, true, false, 0.05};
constexpr Variant kPush{Task::kPush, false, false, 0.05};
constexpr Variant kPushWall{Task::kPush, true, true, 0.07};
constexpr Variant kPickPlace{Task::kPickPlace, false, false, 0.07};
constexpr Variant kPickPlaceWall{Task::kPickPlace, true, true, 0.07};

class ReachPushPickPlace final : public SawyerEnv {
 public:
  ReachPushPickPlace(const Config& c, const TaskSetup& s, const Variant& v) : SawyerEnv(c, s), v_(v) {}

 protected:
  static constexpr double kTargetRadius = 0.05;

  void reset_model() override {
    reset_hand();
    const bool keep_height = v_.task == Task::kPush;
    double height = 0.0;
    if (keep_height) height = v_.geom_position ? geom_pos("objGeom")[2] : body_com("obj")[2];
    // Redrawn until the puck and the goal are 0.15 apart in x-y.
    std::vector<double> goal_pos = rand_vec();
    while (norm2(Vec3{goal_pos[0] - goal_pos[3], goal_pos[1] - goal_pos[4], 0.0}) < 0.15) goal_pos = rand_vec();
    target_pos_ = {goal_pos[3], goal_pos[4], keep_height ? height : goal_pos[5]};
    obj_init_pos_ = {goal_pos[0], goal_pos[1], keep_height ? height : goal_pos[2]};
    const bool goal_first = v_.task == Task::kPush && v_.wall;
    if (goal_first) set_site_pos("goal", target_pos_);
    set_obj_xyz(obj_init_pos_);
    if (!goal_first) set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(v_.geom_position ? geom_pos("objGeom") : body_com("obj"));
    out.add_quat(geom_quat("objGeom"));
  }

  // in_place_part1 of the wall variants: the puck near `midpoint`, distances weighted by `scale`.
  double midpoint_in_place(const Vec3& obj, const Vec3& midpoint, const Vec3& scale) const {
    const auto scaled = [&](const Vec3& d) { return Vec3{d[0] * scale[0], d[1] * scale[1], d[2] * scale[2]}; };
    return tolerance(norm(scaled(obj - midpoint)), 0.0, kTargetRadius, norm(scaled(obj_init_pos_ - midpoint)),
                     Sigmoid::kLongTail);
  }

  Evaluation reach_evaluation() const {
    const double tcp_to_target = norm(tcp_center() - target_pos_);
    const double in_place_margin = norm(hand_init_pos_ - target_pos_);
    const double in_place = tolerance(tcp_to_target, 0.0, kTargetRadius, in_place_margin, Sigmoid::kLongTail);
    return evaluation(10 * in_place, tcp_to_target <= v_.success_radius, v_.wall ? 0.0 : tcp_to_target,
                      v_.wall ? 0.0 : 1.0, v_.wall ? 0.0 : tcp_to_target, in_place, tcp_to_target);
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    if (v_.task == Task::kReach) return reach_evaluation();
    const Vec3 obj = vec3(obs + 4);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = norm(obj - tcp_center());
    const double obj_to_target = norm(obj - target_pos_);
    // in_place (the wall variants' in_place_part2): the puck near the goal.
    const double in_place =
        tolerance(obj_to_target, 0.0, kTargetRadius, norm(obj_init_pos_ - target_pos_), Sigmoid::kLongTail);
    double object_grasped = 0.0, reward = 0.0;
    if (v_.task == Task::kPush) {
      object_grasped = gripper_caging_reward(action, obj, /*obj_radius=*/0.015, /*pad_success_thresh=*/0.05,
                                             /*object_reach_radius=*/0.01, /*xz_thresh=*/0.005,
                                             /*desired_gripper_effort=*/1.0, /*high_density=*/true);
      reward = 2 * object_grasped;
      if (tcp_to_obj < 0.02 && tcp_opened > 0) {
        if (!v_.wall) {
          reward += 1.0 + reward + 5.0 * in_place;
        } else {
          const double in_place_part1 = midpoint_in_place(obj, {-0.05, 0.77, obj[2]}, {3.0, 1.0, 1.0});
          reward = 2.0 * object_grasped + 1.0 + 4.0 * in_place_part1;
          if (obj[1] > 0.75) reward = 2 * object_grasped + 1.0 + 4.0 + 3.0 * in_place;
        }
      }
    } else if (!v_.wall) {
      object_grasped = pad_caging_reward(action, obj, /*obj_radius=*/0.015, /*pad_success_margin=*/0.05,
                                         /*x_z_success_margin=*/0.005);
      reward = hamacher_product(object_grasped, in_place);
      if (tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.01 > obj_init_pos_[2]) reward += 1.0 + 5.0 * in_place;
    } else {
      object_grasped = gripper_caging_reward(action, obj, 0.015, 0.05, 0.01, 0.005);
      const double in_place_part1 = midpoint_in_place(obj, {target_pos_[0], 0.77, 0.25}, {1.0, 1.0, 3.0});
      const double in_place_and_object_grasped = hamacher_product(object_grasped, in_place_part1);
      reward = in_place_and_object_grasped;
      if (tcp_to_obj < 0.02 && tcp_opened > 0 && obj[2] - 0.015 > obj_init_pos_[2]) {
        reward = in_place_and_object_grasped + 1.0 + 4.0 * in_place_part1;
        if (obj[1] > 0.75) reward = in_place_and_object_grasped + 1.0 + 4.0 + 3.0 * in_place;
      }
    }
    if (obj_to_target < kTargetRadius) reward = 10.0;
    return evaluation(reward, obj_to_target <= v_.success_radius, tcp_to_obj <= 0.03,
                      touching_main_object() && tcp_opened > 0 && obj[2] - 0.02 > obj_init_pos_[2], object_grasped,
                      in_place, obj_to_target);
  }

 private:
  const Variant v_;
};

// metaworld's obj_low, obj_high (the puck's part of the task vector) and goal_low, goal_high (its goal's).
struct Bounds {
  Vec3 obj_low, obj_high, goal_low, goal_high;
};

constexpr Bounds kOpenBounds{{-0.1, 0.6, 0.02}, {0.1, 0.7, 0.02}, {-0.1, 0.8, 0.05}, {0.1, 0.9, 0.3}};
constexpr Bounds kWallBounds{{-0.05, 0.6, 0.015}, {0.05, 0.65, 0.015}, {-0.05, 0.85, 0.05}, {0.05, 0.9, 0.3}};
constexpr Bounds kPushBounds{{-0.1, 0.6, 0.02}, {0.1, 0.7, 0.02}, {-0.1, 0.8, 0.01}, {0.1, 0.9, 0.02}};
constexpr Bounds kPushWallBounds{{-0.05, 0.6, 0.015}, {0.05, 0.65, 0.015}, {-0.05, 0.85, 0.01}, {0.05, 0.9, 0.02}};

bool register_variant(const char* name, const char* xml, const Bounds& b, const Variant& v) {
  const Vec3 &ol = b.obj_low, &oh = b.obj_high, &gl = b.goal_low, &gh = b.goal_high;
  return register_task({
      .name = name,
      .setup = {.xml = xml,
                .hand_low = {-0.5, 0.40, 0.05},
                .hand_high = {0.5, 1.0, 0.5},
                .reset_low = {ol[0], ol[1], ol[2], gl[0], gl[1], gl[2]},
                .reset_high = {oh[0], oh[1], oh[2], gh[0], gh[1], gh[2]},
                .goal_low = gl,
                .goal_high = gh,
                .hand_init_pos = {0.0, 0.6, 0.2}},
      .create = [v](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
        return std::make_unique<ReachPushPickPlace>(c, s, v);
      },
  });
}

}  // namespace

static const bool kRegisteredReach =
    register_variant("reach-v3", "sawyer_xyz/sawyer_reach_v3.xml", kOpenBounds, kReach);
static const bool kRegisteredReachWall =
    register_variant("reach-wall-v3", "sawyer_xyz/sawyer_reach_wall_v3.xml", kWallBounds, kReachWall);
static const bool kRegisteredPush = register_variant("push-v3", "sawyer_xyz/sawyer_push_v3.xml", kPushBounds, kPush);
static const bool kRegisteredPushWall =
    register_variant("push-wall-v3", "sawyer_xyz/sawyer_push_wall_v3.xml", kPushWallBounds, kPushWall);
static const bool kRegisteredPickPlace =
    register_variant("pick-place-v3", "sawyer_xyz/sawyer_pick_place_v3.xml", kOpenBounds, kPickPlace);
static const bool kRegisteredPickPlaceWall =
    register_variant("pick-place-wall-v3", "sawyer_xyz/sawyer_pick_place_wall_v3.xml", kWallBounds, kPickPlaceWall);

}  // namespace rlpool::metaworld
