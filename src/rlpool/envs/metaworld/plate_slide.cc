// plate-slide-v3, plate-slide-side-v3, plate-slide-back-v3 and plate-slide-back-side-v3: metaworld 3.1.1's
// envs/sawyer_plate_slide_v3.py (SawyerPlateSlideEnvV3), envs/sawyer_plate_slide_side_v3.py
// (SawyerPlateSlideSideEnvV3), envs/sawyer_plate_slide_back_v3.py (SawyerPlateSlideBackEnvV3) and
// envs/sawyer_plate_slide_back_side_v3.py (SawyerPlateSlideBackSideEnvV3), their v2 rewards: slide the plate
// (the "puck") into the cabinet's goal, forward or sideways, or back out of the cabinet to the goal. The four
// are the same code but for the model (the side ones' cabinet stands sideways), their spaces, where the puck's
// joint starts, how reset_model places the goal body (the model's position at the target, mjData's position at
// the target, or the model's position at the puck's start) and plate-slide's reward (reaching times placing,
// its margins the full distances; the others' margins less the target radius, and a bonus for pushing low).
#include <algorithm>

#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// How reset_model places the body "puck_goal".
enum class GoalBody {
  kModelAtTarget,  // self.model.body("puck_goal").pos = self._target_pos
  kDataAtTarget,   // self.data.body("puck_goal").xpos = self._target_pos (the next mj_forward recomputes it)
  kModelAtObject,  // self.model.body("puck_goal").pos = self.obj_init_pos
};

// What differs between the four tasks.
struct PlateTask {
  const char* name;
  const char* xml;
  Vec3 obj;                  // the puck's start: the task vector's first three (a fixed range)
  Vec3 goal_low, goal_high;  // the goal's range: the task vector's last three
  double puck_x, puck_y;     // _set_obj_xyz's puck joint position at reset
  GoalBody goal_body;
  bool product_reward;  // plate-slide's reward
};

constexpr PlateTask kForward{.name = "plate-slide-v3",
                             .xml = "sawyer_xyz/sawyer_plate_slide.xml",
                             .obj = {0.0, 0.6, 0.0},
                             .goal_low = {-0.1, 0.85, 0.0},
                             .goal_high = {0.1, 0.9, 0.0},
                             .puck_x = 0.0,
                             .puck_y = 0.0,
                             .goal_body = GoalBody::kModelAtTarget,
                             .product_reward = true};
constexpr PlateTask kSide{.name = "plate-slide-side-v3",
                          .xml = "sawyer_xyz/sawyer_plate_slide_sideway.xml",
                          .obj = {0.0, 0.6, 0.0},
                          .goal_low = {-0.3, 0.54, 0.0},
                          .goal_high = {-0.25, 0.66, 0.0},
                          .puck_x = 0.0,
                          .puck_y = 0.0,
                          .goal_body = GoalBody::kDataAtTarget,
                          .product_reward = false};
constexpr PlateTask kBack{.name = "plate-slide-back-v3",
                          .xml = "sawyer_xyz/sawyer_plate_slide.xml",
                          .obj = {0.0, 0.85, 0.0},
                          .goal_low = {-0.1, 0.6, 0.015},
                          .goal_high = {0.1, 0.6, 0.015},
                          .puck_x = 0.0,
                          .puck_y = 0.15,
                          .goal_body = GoalBody::kDataAtTarget,
                          .product_reward = false};
constexpr PlateTask kBackSide{.name = "plate-slide-back-side-v3",
                              .xml = "sawyer_xyz/sawyer_plate_slide_sideway.xml",
                              .obj = {-0.25, 0.6, 0.0},
                              .goal_low = {-0.05, 0.6, 0.015},
                              .goal_high = {0.15, 0.6, 0.015},
                              .puck_x = -0.15,
                              .puck_y = 0.0,
                              .goal_body = GoalBody::kModelAtObject,
                              .product_reward = false};

class PlateSlide final : public SawyerEnv {
 public:
  PlateSlide(const Config& c, const TaskSetup& s, const PlateTask& task) : SawyerEnv(c, s), task_(task) {}

 protected:
  static constexpr double kTargetRadius = 0.05;

  // The task's _set_obj_xyz: qpos[9:11] = pos (qvel kept), then set_state.
  void set_puck_xy(double x, double y) {
    d_->qpos[9] = x;
    d_->qpos[10] = y;
    set_state(d_->qpos, d_->qvel);
  }

  void reset_model() override {
    reset_hand();
    const std::vector<double> rand = rand_vec();
    obj_init_pos_ = {rand[0], rand[1], rand[2]};
    target_pos_ = {rand[3], rand[4], rand[5]};
    switch (task_.goal_body) {
      case GoalBody::kModelAtTarget:
        set_body_pos("puck_goal", target_pos_);
        break;
      case GoalBody::kDataAtTarget:
        std::copy(target_pos_.begin(), target_pos_.end(), d_->xpos + 3 * body("puck_goal"));
        break;
      case GoalBody::kModelAtObject:
        set_body_pos("puck_goal", obj_init_pos_);
        break;
    }
    set_puck_xy(task_.puck_x, task_.puck_y);
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(geom_pos("puck"));
    out.add_quat(geom_quat("puck"));
  }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    const Vec3 tcp = tcp_center();
    const Vec3 obj = vec3(obs + 4);
    const double obj_to_target = norm(obj - target_pos_);
    const double tcp_to_obj = norm(tcp - obj);
    // The tolerances' margins: plate-slide's the full distances, the others' less the target radius.
    const double cut = task_.product_reward ? 0.0 : kTargetRadius;
    const double in_place_margin = norm(obj_init_pos_ - target_pos_);
    const double in_place = tolerance(obj_to_target, 0.0, kTargetRadius, in_place_margin - cut, Sigmoid::kLongTail);
    const double obj_grasped_margin = norm(init_tcp_ - obj_init_pos_);
    const double object_grasped =
        tolerance(tcp_to_obj, 0.0, kTargetRadius, obj_grasped_margin - cut, Sigmoid::kLongTail);
    double reward;
    if (task_.product_reward) {
      reward = 8 * hamacher_product(object_grasped, in_place);
    } else {
      reward = 1.5 * object_grasped;
      if (tcp[2] <= 0.03 && tcp_to_obj < 0.07) reward = 2.0 + (7.0 * in_place);
    }
    if (obj_to_target < kTargetRadius) reward = 10.0;
    return target_evaluation(reward, obj_to_target, tcp_to_obj, false, object_grasped, in_place);
  }

 private:
  const PlateTask task_;
};

bool register_plate_slide(const PlateTask& task) {
  const Vec3 &o = task.obj, &gl = task.goal_low, &gh = task.goal_high;
  return register_task({
      .name = task.name,
      .setup = {.xml = task.xml,
                .hand_low = {-0.5, 0.40, 0.05},
                .hand_high = {0.5, 1.0, 0.5},
                .reset_low = {o[0], o[1], o[2], gl[0], gl[1], gl[2]},
                .reset_high = {o[0], o[1], o[2], gh[0], gh[1], gh[2]},
                .goal_low = gl,
                .goal_high = gh,
                // init_config's hand_init_pos is float32.
                .hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)}},
      .create = [task](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
        return std::make_unique<PlateSlide>(c, s, task);
      },
  });
}

}  // namespace

static const bool kForwardRegistered = register_plate_slide(kForward);
static const bool kSideRegistered = register_plate_slide(kSide);
static const bool kBackRegistered = register_plate_slide(kBack);
static const bool kBackSideRegistered = register_plate_slide(kBackSide);

}  // namespace rlpool::metaworld
