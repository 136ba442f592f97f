// door-lock-v3 and door-unlock-v3: metaworld 3.1.1's envs/sawyer_door_lock_v3.py (SawyerDoorLockEnvV3)
// and sawyer_door_unlock_v3.py (SawyerDoorUnlockEnvV3), their v2 rewards: turn the door's lock down, or
// push it open. The two share the model, the bounds (but the goal space) and the reward's shape: an
// approach term (2x) and the lock's distance to the target (8x). They differ in how the lock starts
// (door-lock: frame_skip steps of the free simulation; door-unlock: its joint (qpos[9]) at 1.5708), the
// target's offset from the lock, the lock's site, and the approach: door-lock's is the left pad's
// distance to the lock (scaled) combined with the gripper's opening, measured on the lock's height;
// door-unlock's the gripper's shoulder's distance to the lock (scaled), measured on the lock's x.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// What differs between the two tasks.
struct LockTask {
  bool unlock;              // door-unlock rather than door-lock
  Vec3 goal_offset;         // the target: the lock's starting position plus this
  const char* lock_site;    // _get_pos_objects
};

constexpr LockTask kLock{false, {0.0, -0.04, -0.1}, "lockStartLock"};
constexpr LockTask kUnlock{true, {0.1, -0.04, 0.0}, "lockStartUnlock"};

class DoorLock final : public SawyerEnv {
 public:
  DoorLock(const Config& c, const TaskSetup& s, const LockTask& task) : SawyerEnv(c, s), task_(task) {}

 protected:
  void reset_model() override {
    reset_hand();
    const std::vector<double> door_pos = rand_vec();
    set_body_pos("door", {door_pos[0], door_pos[1], door_pos[2]});
    if (!task_.unlock) {
      mj_steps(kFrameSkip);
    } else {
      // _set_obj_xyz: qpos[9] (the lock's joint), qvel[9] zero.
      d_->qpos[9] = 1.5708;
      d_->qvel[9] = 0.0;
      forward();
    }
    // metaworld's obj_init_pos is a view of data.body("lock_link").xpos: door-unlock's reward reads the
    // lock's current position (door-lock's reads none); the target is computed from its value now.
    obj_init_pos_ = body_com("lock_link");
    target_pos_ = obj_init_pos_ + task_.goal_offset;
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos(task_.lock_site));
    out.add_quat(body_quat("door_link"));
  }

  // _get_id_main_object: None (no geom).
  int main_object_geom() const override { return -1; }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    const double lock_length = 0.1;
    const Vec3 lock = vec3(obs + 4);
    const Vec3 scale{0.25, 1.0, 0.5};
    const auto scaled = [&scale](const Vec3& v) { return Vec3{v[0] * scale[0], v[1] * scale[1], v[2] * scale[2]}; };
    double near_dist, near, approach, obj_to_target;
    if (!task_.unlock) {
      const Vec3 tcp = body_com("leftpad");
      near_dist = norm(scaled(lock - tcp));
      // metaworld's init_left_pad is a view of data.body("leftpad").xpos: the pad's current position.
      const double tcp_to_obj_init = norm(scaled(lock - body_com("leftpad")));
      near = tolerance(near_dist, 0.0, 0.01, tcp_to_obj_init, Sigmoid::kLongTail);
      approach = hamacher_product(std::max(obs[3], 0.0), near);
      obj_to_target = std::abs(target_pos_[2] - lock[2]);
    } else {
      const Vec3 gripper = vec3(obs);
      // An offset to track the gripper's shoulder rather than its fingers.
      const Vec3 offset{0.0, 0.055, 0.07};
      const Vec3 shoulder_to_lock_init = scaled(init_tcp_ + offset - body_com("lock_link"));
      near_dist = norm(scaled(gripper + offset - lock));
      near = tolerance(near_dist, 0.0, 0.02, norm(shoulder_to_lock_init), Sigmoid::kLongTail);
      approach = near;
      obj_to_target = std::abs(target_pos_[0] - lock[0]);
    }
    const double pressed = tolerance(obj_to_target, 0.0, 0.005, lock_length, Sigmoid::kLongTail);
    const double reward = 2 * approach + 8 * pressed;
    return evaluation(reward, obj_to_target <= 0.02, near_dist <= 0.05, obs[3] > 0, near, pressed, obj_to_target);
  }

 private:
  const LockTask task_;
};

// The two share the model, the hand's bounds and initial position and the task vector; the goal spaces
// differ.
TaskSetup lock_setup(const Vec3& goal_low, const Vec3& goal_high) {
  return {.xml = "sawyer_xyz/sawyer_door_lock.xml",
          .hand_low = {-0.5, 0.40, -0.15},
          .hand_high = {0.5, 1.0, 0.5},
          .reset_low = {-0.1, 0.8, 0.15},
          .reset_high = {0.1, 0.85, 0.15},
          .goal_low = goal_low,
          .goal_high = goal_high,
          // float32 in metaworld's init_config.
          .hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)}};
}

}  // namespace

static const bool kLockRegistered = register_task({
    .name = "door-lock-v3",
    .setup = lock_setup({-0.5, 0.40, -0.15}, {0.5, 1.0, 0.5}),  // the hand's bounds
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<DoorLock>(c, s, kLock);
    },
});
static const bool kUnlockRegistered = register_task({
    .name = "door-unlock-v3",
    .setup = lock_setup({0.0, 0.64, 0.2100}, {0.2, 0.7, 0.2111}),
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<DoorLock>(c, s, kUnlock);
    },
});

}  // namespace rlpool::metaworld
