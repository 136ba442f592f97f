// door-open-v3 and door-close-v3: metaworld 3.1.1's envs/sawyer_door_v3.py (SawyerDoorEnvV3) and
// sawyer_door_close_v3.py (SawyerDoorCloseEnvV3), their v2 rewards: pull the door open by its handle, or
// push the open door shut. The two share the model, the placing of the door and goal at reset and their
// objects (the handle's geom). They differ in the goal's offset from the door, the door's starting angle
// (0 / -1.5708: open), the goal space, the hand's initial position and the reward: door-open's rewards
// being ready to pull and the grip (the action's last entry, in float32) and the door's angle;
// door-close's the hand's and the handle's distances to the goal.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// What differs between the two tasks.
struct DoorTask {
  bool close;        // door-close rather than door-open
  Vec3 goal_offset;  // the target: the door's position plus this
  double angle;      // the door joint's angle at reset
};

constexpr DoorTask kOpen{false, {-0.3, -0.45, 0.0}, 0.0};
// Keep the door open after resetting the initial positions.
constexpr DoorTask kClose{true, {0.2, -0.2, 0.0}, -1.5708};

class Door final : public SawyerEnv {
 public:
  Door(const Config& c, const TaskSetup& s, const DoorTask& task) : SawyerEnv(c, s), task_(task) {}

 protected:
  void reset_model() override {
    reset_hand();
    const std::vector<double> rand = rand_vec();
    obj_init_pos_ = {rand[0], rand[1], rand[2]};
    target_pos_ = obj_init_pos_ + task_.goal_offset;
    set_body_pos("door", obj_init_pos_);
    set_site_pos("goal", target_pos_);
    // _set_obj_xyz: the door joint's angle, its velocity zero.
    *joint_qpos("doorjoint") = task_.angle;
    *joint_qvel("doorjoint") = 0.0;
    forward();
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(geom_pos("handle"));
    out.add_quat(geom_quat("handle"));
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    return task_.close ? close_reward(obs) : open_reward(obs, action);
  }

 private:
  Evaluation open_reward(const double* obs, const double* action) {
    const double theta = *joint_qpos("doorjoint");
    // _reward_grab_effort, in float32 as numpy computes it on the action's float32.
    const float clipped = std::min(std::max(static_cast<float>(action[3]), -1.0f), 1.0f);
    const double reward_grab = static_cast<double>((clipped + 1.0f) / 2.0f);
    const auto [ready_to_open, opened] = reward_pos(obs, theta);
    double reward = 2.0 * hamacher_product(ready_to_open, reward_grab) + 8.0 * opened;
    if (std::abs(obs[4] - target_pos_[0]) <= 0.08) reward = 10.0;
    return evaluation(reward, std::abs(obs[4] - target_pos_[0]) <= 0.08, ready_to_open, reward_grab >= 0.5, reward_grab,
                      opened, 0.0);
  }

  // door-open's _reward_pos: (ready_to_open, opened).
  static std::pair<double, double> reward_pos(const double* obs, double theta) {
    const Vec3 hand = vec3(obs);
    const Vec3 door = vec3(obs + 4) + Vec3{-0.05, 0.0, 0.0};
    const double threshold = 0.12;
    const double radius = norm2(hand - door);
    const double floor = radius <= threshold ? 0.0 : 0.04 * std::log(radius - threshold) + 0.4;
    const double above_floor =
        hand[2] >= floor ? 1.0 : tolerance(floor - hand[2], 0.0, 0.01, floor / 2.0, Sigmoid::kLongTail);
    const double in_place =
        tolerance(norm(hand - door - Vec3{0.05, 0.03, -0.01}), 0.0, threshold / 2.0, 0.5, Sigmoid::kLongTail);
    const double ready_to_open = hamacher_product(above_floor, in_place);
    const double door_angle = -theta;
    const double a = 0.2, b = 0.8;
    const double opened =
        a * (theta < -M_PI / 90.0 ? 1.0 : 0.0) +
        b * tolerance(M_PI / 2.0 + M_PI / 6 - door_angle, 0.0, 0.5, M_PI / 3.0, Sigmoid::kLongTail);
    return {ready_to_open, opened};
  }

  Evaluation close_reward(const double* obs) const {
    const double target_radius = 0.05;
    const Vec3 tcp = tcp_center();
    const Vec3 obj = vec3(obs + 4);
    const Vec3& target = target_pos_;
    const double tcp_to_target = norm(tcp - target);
    const double obj_to_target = norm(obj - target);
    const double in_place_margin = norm(obj_init_pos_ - target);
    const double in_place = tolerance(obj_to_target, 0.0, target_radius, in_place_margin, Sigmoid::kGaussian);
    const double hand_margin = norm(hand_init_pos_ - obj) + 0.1;
    const double hand_in_place =
        tolerance(tcp_to_target, 0.0, 0.25 * target_radius, hand_margin, Sigmoid::kGaussian);
    double reward = 3 * hand_in_place + 6 * in_place;
    if (obj_to_target < target_radius) reward = 10;
    return evaluation(reward, obj_to_target <= 0.08, 0.0, 1.0, 1.0, hand_in_place, obj_to_target);
  }

  const DoorTask task_;
};

// The two share the model, the hand's bounds and the task vector; the goal spaces and the hand's initial
// positions differ.
TaskSetup door_setup(const Vec3& goal_low, const Vec3& goal_high, const Vec3& hand_init_pos) {
  return {.xml = "sawyer_xyz/sawyer_door_pull.xml",
          .hand_low = {-0.5, 0.40, 0.05},
          .hand_high = {0.5, 1.0, 0.5},
          .reset_low = {0.0, 0.85, 0.15},
          .reset_high = {0.1, 0.95, 0.15},
          .goal_low = goal_low,
          .goal_high = goal_high,
          .hand_init_pos = hand_init_pos};
}

}  // namespace

static const bool kOpenRegistered = register_task({
    .name = "door-open-v3",
    .setup = door_setup({-0.3, 0.4, 0.1499}, {-0.2, 0.5, 0.1501}, {0.0, 0.6, 0.2}),
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Door>(c, s, kOpen);
    },
});
static const bool kCloseRegistered = register_task({
    .name = "door-close-v3",
    // float32 in door-close's init_config.
    .setup = door_setup({0.2, 0.65, 0.1499}, {0.3, 0.75, 0.1501},
                        {-0.5, static_cast<double>(0.6f), static_cast<double>(0.2f)}),
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Door>(c, s, kClose);
    },
});

}  // namespace rlpool::metaworld
