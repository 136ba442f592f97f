// stick-push-v3 and stick-pull-v3: metaworld 3.1.1's envs/sawyer_stick_push_v3.py (SawyerStickPushEnvV3) and
// envs/sawyer_stick_pull_v3.py (SawyerStickPullEnvV3), their v2 rewards: grasp the stick and with it push the
// thermos to the goal, or hook the thermos's handle with it and pull the thermos to the goal. The two share
// the model, the objects and reset_model but for where the thermos's joint starts (0 / 0.09 in y), the
// target's height (the insertion site's / the stick's) and the container's observed position (the insertion
// site 0.09 further in y / the insertion site); their spaces and rewards differ.
#include <algorithm>

#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// What differs between the two tasks' resets and objects; `pull` picks the reward.
struct StickTask {
  bool pull;
  double thermos_y;           // the thermos's joint at reset (_set_obj_xyz(obj_init_qpos))
  bool target_at_insertion;   // the target's height: the insertion site's, else the stick's start's
  double container_offset_y;  // _get_pos_objects: the container is the insertion site plus this in y
};

constexpr StickTask kPush{.pull = false, .thermos_y = 0.0, .target_at_insertion = true, .container_offset_y = 0.09};
constexpr StickTask kPull{.pull = true, .thermos_y = 0.09, .target_at_insertion = false, .container_offset_y = 0.0};

class Stick final : public SawyerEnv {
 public:
  Stick(const Config& c, const TaskSetup& s, const StickTask& task) : SawyerEnv(c, s), task_(task) {
    keep(stick_init_pos_);
  }

 protected:
  void reset_model() override {
    reset_hand();
    // init_config's stick_init_pos keeps its height.
    const double stick_height = 0.02;
    std::vector<double> goal_pos = rand_vec();
    while (norm2(Vec3{goal_pos[0] - goal_pos[3], goal_pos[1] - goal_pos[4], 0.0}) < 0.1) goal_pos = rand_vec();
    stick_init_pos_ = {goal_pos[0], goal_pos[1], stick_height};
    target_pos_ = {goal_pos[3], goal_pos[4], task_.target_at_insertion ? site_pos("insertion")[2] : stick_height};
    // _set_stick_xyz is the base's _set_obj_xyz.
    set_obj_xyz(stick_init_pos_);
    set_thermos_qpos(0.0, task_.thermos_y);
    obj_init_pos_ = body_com("object");
    set_site_pos("goal", target_pos_);
  }

  // The task's _set_obj_xyz: qpos[16:18] = pos, qvel[16:18] = 0 (qvel has 17 entries: only qvel[16] is zeroed).
  void set_thermos_qpos(double x, double y) {
    d_->qpos[16] = x;
    d_->qpos[17] = y;
    for (int i = 16; i < 18 && i < m_->nv; ++i) d_->qvel[i] = 0.0;
    forward();
  }

  void objects(Objects& out) const override {
    out.add_pos(body_com("stick"));
    out.add_quat(body_xmat_quat("stick"));
    out.add_pos(site_pos("insertion") + Vec3{0.0, task_.container_offset_y, 0.0});
    out.add_quat(std::array<double, 4>{});
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    return task_.pull ? pull_reward(obs, action) : push_reward(obs, action);
  }

  // stick-push's own _gripper_caging_reward: the base's measured from stick_init_pos instead of obj_init_pos
  // (obj_init_pos_ holds the stick's start while the base's runs).
  double stick_caging_reward(const double* action, const Vec3& stick) {
    const Vec3 obj_init_pos = obj_init_pos_;
    obj_init_pos_ = stick_init_pos_;
    const double caging = gripper_caging_reward(action, stick, 0.04, 0.05, 0.01, 0.01, 1.0, true);
    obj_init_pos_ = obj_init_pos;
    return caging;
  }

  Evaluation push_reward(const double* obs, const double* action) {
    constexpr double kTargetRadius = 0.12;
    const Vec3 tcp = tcp_center();
    const Vec3 stick = vec3(obs + 4) + Vec3{0.015, 0.0, 0.0};
    const Vec3 container = vec3(obs + 11);
    const double tcp_opened = obs[3];
    const Vec3 target = target_pos_;

    const double tcp_to_stick = norm(stick - tcp);
    const double stick_to_target = norm(stick - target);
    const double stick_in_place_margin = norm(stick_init_pos_ - target) - kTargetRadius;
    const double stick_in_place =
        tolerance(stick_to_target, 0.0, kTargetRadius, stick_in_place_margin, Sigmoid::kLongTail);
    const double container_to_target = norm(container - target);
    const double container_in_place_margin = norm(obj_init_pos_ - target) - kTargetRadius;
    const double container_in_place =
        tolerance(container_to_target, 0.0, kTargetRadius, container_in_place_margin, Sigmoid::kLongTail);
    double object_grasped = stick_caging_reward(action, stick);
    double reward = object_grasped;
    if (tcp_to_stick < 0.02 && tcp_opened > 0 && stick[2] - 0.01 > stick_init_pos_[2]) {
      object_grasped = 1;
      reward = 2.0 + 5.0 * stick_in_place + 3.0 * container_in_place;
      if (container_to_target <= kTargetRadius) reward = 10.0;
    }

    const double stick_z = obs[6];
    const bool success = norm(container - target_pos_) <= 0.12;
    const bool grasp_success = touching_main_object() && tcp_opened > 0 && stick_z - 0.01 > stick_init_pos_[2];
    return evaluation(reward, grasp_success && success, tcp_to_stick <= 0.03, grasp_success, object_grasped,
                      stick_in_place, container_to_target);
  }

  static bool stick_is_inserted(const Vec3& handle, const Vec3& end_of_stick) {
    return end_of_stick[0] >= handle[0] && std::abs(end_of_stick[1] - handle[1]) <= 0.040 &&
           std::abs(end_of_stick[2] - handle[2]) <= 0.060;
  }

  static double scaled_norm(const Vec3& v) { return norm(Vec3{v[0] * 1.0, v[1] * 1.0, v[2] * 2.0}); }

  Evaluation pull_reward(const double* obs, const double* action) {
    constexpr double kTargetRadius = 0.05;
    const Vec3 tcp = tcp_center();
    const Vec3 stick = vec3(obs + 4);
    const Vec3 end_of_stick = site_pos("stick_end");
    const Vec3 container = vec3(obs + 11) + Vec3{0.05, 0.0, 0.0};
    const Vec3 container_init_pos = obj_init_pos_ + Vec3{0.05, 0.0, 0.0};
    const Vec3 handle = vec3(obs + 11);
    const double tcp_opened = obs[3];
    const Vec3 target = target_pos_;
    const double tcp_to_stick = norm(stick - tcp);
    const double handle_to_target = norm(handle - target);

    const double stick_to_container = scaled_norm(stick - container);
    const double stick_in_place_margin = scaled_norm(stick_init_pos_ - container_init_pos);
    const double stick_in_place =
        tolerance(stick_to_container, 0.0, kTargetRadius, stick_in_place_margin, Sigmoid::kLongTail);
    const double stick_to_target = norm(stick - target);
    const double stick_in_place_margin_2 = norm(stick_init_pos_ - target);
    const double stick_in_place_2 =
        tolerance(stick_to_target, 0.0, kTargetRadius, stick_in_place_margin_2, Sigmoid::kLongTail);
    const double container_to_target = norm(container - target);
    const double container_in_place_margin = norm(obj_init_pos_ - target);
    const double container_in_place =
        tolerance(container_to_target, 0.0, kTargetRadius, container_in_place_margin, Sigmoid::kLongTail);

    double object_grasped = gripper_caging_reward(action, stick, 0.014, 0.05, 0.01, 0.01, 1.0, true);
    const bool grasped = tcp_to_stick < 0.02 && tcp_opened > 0 && stick[2] - 0.01 > stick_init_pos_[2];
    object_grasped = grasped ? 1.0 : object_grasped;
    const double in_place_and_object_grasped = hamacher_product(object_grasped, stick_in_place);
    double reward = in_place_and_object_grasped;
    if (grasped) {
      reward = 1.0 + in_place_and_object_grasped + 5.0 * stick_in_place;
      if (stick_is_inserted(handle, end_of_stick)) {
        reward = 1.0 + in_place_and_object_grasped + 5.0 + 2.0 * stick_in_place_2 + 1.0 * container_in_place;
        if (handle_to_target <= 0.12) reward = 10.0;
      }
    }

    const bool success = norm(handle - target_pos_) <= 0.12 && stick_is_inserted(handle, end_of_stick);
    const bool grasp_success = touching_main_object() && tcp_opened > 0 && stick[2] - 0.02 > obj_init_pos_[2];
    return evaluation(reward, success, tcp_to_stick <= 0.03, grasp_success, object_grasped, stick_in_place,
                      handle_to_target);
  }

 private:
  const StickTask task_;
  Vec3 stick_init_pos_{};
};

}  // namespace

static const bool kPushRegistered = register_task({
    .name = "stick-push-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_stick_obj.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.08, 0.58, 0.000, 0.399, 0.55, 0.1319},
              .reset_high = {-0.03, 0.62, 0.001, 0.401, 0.6, 0.1321},
              .goal_low = {0.399, 0.55, 0.1319},
              .goal_high = {0.401, 0.6, 0.1321},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Stick>(c, s, kPush);
    },
});
static const bool kPullRegistered = register_task({
    .name = "stick-pull-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_stick_obj.xml",
              .hand_low = {-0.5, 0.35, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.55, 0.000, 0.35, 0.45, 0.0199},
              .reset_high = {0.0, 0.65, 0.001, 0.45, 0.55, 0.0201},
              .goal_low = {0.35, 0.45, 0.0199},
              .goal_high = {0.45, 0.55, 0.0201},
              .hand_init_pos = {0.0, 0.6, 0.2}},
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Stick>(c, s, kPull);
    },
});

}  // namespace rlpool::metaworld
