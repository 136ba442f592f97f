// handle-press-v3, handle-press-side-v3, handle-pull-v3 and handle-pull-side-v3: metaworld 3.1.1's
// envs/sawyer_handle_press_v3.py (SawyerHandlePressEnvV3), sawyer_handle_press_side_v3.py
// (SawyerHandlePressSideEnvV3), sawyer_handle_pull_v3.py (SawyerHandlePullEnvV3) and
// sawyer_handle_pull_side_v3.py (SawyerHandlePullSideEnvV3), their v2 rewards: press a handle down or pull
// it up. All four place the handle's box from the task vector and set the handle's joint (qpos[9]) at
// reset. The press tasks (handle start -0.001, goal site goalPress) share one reward and differ only in
// their model (the side one's box is turned sideways) and bounds. The pull tasks (handle start -0.1, goal
// site goalPull) share a reward shape that differs in the handle's site, the distance to the target (the
// height for handle-pull, the 3-D distance for handle-pull-side), the gripper's caging radii, the success
// radius and what obj_init_pos is (the box's position for handle-pull, the handle's for handle-pull-side).
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// What differs between the four tasks.
struct HandleTask {
  bool pull;                // pull the handle up (handle-pull*) rather than press it down
  bool side;                // handle-pull-side's reward and obj_init_pos (the press tasks' are alike)
  const char* handle_site;  // _get_pos_objects
  // The pull reward's _gripper_caging_reward (obj_radius, pad_success_thresh) and success radius (unused
  // by the press reward).
  double obj_radius, pad_success_thresh, success_radius;
};

constexpr HandleTask kPress{false, false, "handleStart", 0.0, 0.0, 0.0};
constexpr HandleTask kPull{true, false, "handleRight", 0.022, 0.05, 0.05};
constexpr HandleTask kPullSide{true, true, "handleCenter", 0.032, 0.06, 0.08};

class Handle final : public SawyerEnv {
 public:
  Handle(const Config& c, const TaskSetup& s, const HandleTask& task) : SawyerEnv(c, s), task_(task) {
    if (!task_.pull) keep(handle_init_pos_);
  }

 protected:
  static constexpr double kPressTargetRadius = 0.02;
  static constexpr double kPullTargetRadius = 0.05;  // SawyerXYZEnv's

  // The task's _set_obj_xyz: the handle's joint (qpos[9]) at `pos`, at rest.
  void set_handle(double pos) {
    d_->qpos[9] = pos;
    d_->qvel[9] = 0;
    set_state(d_->qpos, d_->qvel);
  }

  // handle-pull's obj_init_pos stays the task vector (the box's position), which its reward compares
  // heights with.
  void reset_model() override {
    reset_hand();
    const std::vector<double> v = rand_vec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    set_body_pos("box", obj_init_pos_);
    set_handle(task_.pull ? -0.1 : -0.001);
    target_pos_ = site_pos(task_.pull ? "goalPull" : "goalPress");
    // _get_pos_objects: the press tasks' _handle_init_pos, handle-pull-side's obj_init_pos.
    if (!task_.pull) handle_init_pos_ = site_pos(task_.handle_site);
    if (task_.side) obj_init_pos_ = site_pos(task_.handle_site);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos(task_.handle_site));
    out.add_quat(std::array<double, 4>{});
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    return task_.pull ? pull_reward(obs, action) : press_reward();
  }

 private:
  Evaluation press_reward() const {
    const Vec3 obj = site_pos(task_.handle_site);
    const Vec3 tcp = tcp_center();
    const Vec3 target = target_pos_;
    const double dz = obj[2] - target[2];
    const double target_to_obj = std::sqrt(dz * dz);
    const double dz_init = handle_init_pos_[2] - target[2];
    const double target_to_obj_init = std::sqrt(dz_init * dz_init);
    const double in_place = tolerance(target_to_obj, 0.0, kPressTargetRadius,
                                      std::abs(target_to_obj_init - kPressTargetRadius), Sigmoid::kLongTail);
    const double handle_radius = 0.02;
    const double tcp_to_obj = norm(obj - tcp);
    const double tcp_to_obj_init = norm(handle_init_pos_ - init_tcp_);
    const double reach = tolerance(tcp_to_obj, 0.0, handle_radius, std::abs(tcp_to_obj_init - handle_radius),
                                   Sigmoid::kLongTail);
    double reward = hamacher_product(reach, in_place);
    reward = target_to_obj <= kPressTargetRadius ? 1.0 : reward;
    reward *= 10;
    return evaluation(reward, target_to_obj <= kPressTargetRadius, tcp_to_obj <= 0.05, 1.0, reach, in_place,
                      target_to_obj);
  }

  Evaluation pull_reward(const double* obs, const double* action) const {
    const Vec3 obj = vec3(obs + 4);
    const Vec3 target = target_pos_;
    // handle-pull: the height to the target; handle-pull-side: the distance (its scale is all ones).
    const double target_to_obj = task_.side ? norm(obj - target) : std::abs(target[2] - obj[2]);
    const double target_to_obj_init =
        task_.side ? norm(obj_init_pos_ - target) : std::abs(target[2] - obj_init_pos_[2]);
    const double in_place =
        tolerance(target_to_obj, 0.0, kPullTargetRadius, target_to_obj_init, Sigmoid::kLongTail);
    const double object_grasped =
        gripper_caging_reward(action, obj, task_.obj_radius, task_.pad_success_thresh, 0.01, 0.01, 1.0, true);
    double reward = hamacher_product(object_grasped, in_place);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = norm(obj - tcp_center());
    // handle-pull compares the handle's y with the initial height here; handle-pull-side its height.
    const double lifted = task_.side ? obj[2] : obj[1];
    if (tcp_to_obj < 0.035 && tcp_opened > 0 && lifted - 0.01 > obj_init_pos_[2]) reward += 1.0 + 5.0 * in_place;
    if (target_to_obj < kPullTargetRadius) reward = 10.0;
    return evaluation(reward, target_to_obj <= task_.success_radius, tcp_to_obj <= 0.05,
                      tcp_opened > 0 && obj[2] - 0.03 > obj_init_pos_[2], object_grasped, in_place, target_to_obj);
  }

  const HandleTask task_;
  Vec3 handle_init_pos_{};
};

// The four share the hand's bounds and initial position; their models, task vectors and goals differ.
TaskSetup handle_setup(const char* xml, std::vector<double> reset_low, std::vector<double> reset_high,
                       const Vec3& goal_low, const Vec3& goal_high) {
  return {.xml = xml,
          .hand_low = {-0.5, 0.40, 0.05},
          .hand_high = {0.5, 1.0, 0.5},
          .reset_low = std::move(reset_low),
          .reset_high = std::move(reset_high),
          .goal_low = goal_low,
          .goal_high = goal_high,
          .hand_init_pos = {0.0, 0.6, 0.2}};
}

std::function<std::unique_ptr<SawyerEnv>(const Config&, const TaskSetup&)> make_handle(const HandleTask& task) {
  return [task](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
    return std::make_unique<Handle>(c, s, task);
  };
}

}  // namespace

// The press-side and pull-side tasks' goal space is the hand's.
static const bool kPressRegistered = register_task({
    .name = "handle-press-v3",
    .setup = handle_setup("sawyer_xyz/sawyer_handle_press.xml", {-0.1, 0.8, -0.001}, {0.1, 0.9, 0.001},
                          {-0.1, 0.55, 0.04}, {0.1, 0.70, 0.08}),
    .create = make_handle(kPress),
});
static const bool kPressSideRegistered = register_task({
    .name = "handle-press-side-v3",
    .setup = handle_setup("sawyer_xyz/sawyer_handle_press_sideways.xml", {-0.35, 0.65, -0.001},
                          {-0.25, 0.75, 0.001}, {-0.5, 0.40, 0.05}, {0.5, 1.0, 0.5}),
    .create = make_handle(kPress),
});
static const bool kPullRegistered = register_task({
    .name = "handle-pull-v3",
    .setup = handle_setup("sawyer_xyz/sawyer_handle_press.xml", {-0.1, 0.8, -0.001}, {0.1, 0.9, 0.001},
                          {-0.1, 0.55, 0.04}, {0.1, 0.70, 0.18}),
    .create = make_handle(kPull),
});
static const bool kPullSideRegistered = register_task({
    .name = "handle-pull-side-v3",
    .setup = handle_setup("sawyer_xyz/sawyer_handle_press_sideways.xml", {-0.35, 0.65, 0.0}, {-0.25, 0.75, 0.0},
                          {-0.5, 0.40, 0.05}, {0.5, 1.0, 0.5}),
    .create = make_handle(kPullSide),
});

}  // namespace rlpool::metaworld
