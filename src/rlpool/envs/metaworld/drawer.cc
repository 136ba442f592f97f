// drawer-open-v3 and drawer-close-v3: metaworld 3.1.1's envs/sawyer_drawer_open_v3.py
// (SawyerDrawerOpenEnvV3) and sawyer_drawer_close_v3.py (SawyerDrawerCloseEnvV3), their v2 rewards: pull
// the drawer open by its handle, or push the open drawer shut. The two share the model, the bounds and the
// placing of the nightstand. drawer-open's target is the closed drawer's handle minus its travel (0.2);
// its reward cages the handle (xy error weighted) and measures the opening, and its objects are the
// handle's centre and the drawer's orientation. drawer-close pulls the drawer out its travel (0.15) at
// reset and targets the closed drawer's handle; its reward is reach (with the gripper closed) times in
// place, and its objects are the handle's top and no orientation.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// What differs between the two tasks.
struct DrawerTask {
  bool close;       // drawer-close rather than drawer-open
  double max_dist;  // the drawer's travel (maxDist)
};

constexpr DrawerTask kOpen{false, 0.2};
constexpr DrawerTask kClose{true, 0.15};

class Drawer final : public SawyerEnv {
 public:
  Drawer(const Config& c, const TaskSetup& s, const DrawerTask& task) : SawyerEnv(c, s), task_(task) {}

 protected:
  void reset_model() override {
    reset_hand();
    // The nightstand's position.
    const std::vector<double> rand = rand_vec();
    obj_init_pos_ = {rand[0], rand[1], rand[2]};
    set_body_pos("drawer", obj_init_pos_);
    if (!task_.close) {
      // The target: the drawer's handle where the drawer is closed, minus an offset.
      target_pos_ = obj_init_pos_ + Vec3{0.0, -0.16 - task_.max_dist, 0.09};
    } else {
      // The target: the drawer's handle where the drawer is closed.
      target_pos_ = obj_init_pos_ + Vec3{0.0, -0.16, 0.09};
      // _set_obj_xyz: the drawer pulled out all the way (qpos[9]; qvel unchanged); then its starting position.
      d_->qpos[9] = -task_.max_dist;
      forward();
      obj_init_pos_ = handle_top();
    }
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    if (!task_.close) {
      out.add_pos(body_com("drawer_link") + Vec3{0.0, -0.16, 0.0});
      out.add_quat(body_quat("drawer_link"));
    } else {
      out.add_pos(handle_top());
      out.add_quat(std::array<double, 4>{});
    }
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    return task_.close ? close_reward(obs, action) : open_reward(obs);
  }

 private:
  // drawer-close's _get_pos_objects: the drawer's handle.
  Vec3 handle_top() const { return body_com("drawer_link") + Vec3{0.0, -0.16, 0.05}; }

  Evaluation open_reward(const double* obs) const {
    const Vec3 gripper = vec3(obs);
    const Vec3 handle = vec3(obs + 4);
    const double handle_error = norm(handle - target_pos_);
    const double reward_for_opening = tolerance(handle_error, 0.0, 0.02, task_.max_dist, Sigmoid::kLongTail);
    const Vec3 handle_pos_init = target_pos_ + Vec3{0.0, task_.max_dist, 0.0};
    // The xy error weighs more, so that the gripper can drop down and cage the handle.
    const Vec3 scale{3.0, 3.0, 1.0};
    const auto scaled = [&scale](const Vec3& v) { return Vec3{v[0] * scale[0], v[1] * scale[1], v[2] * scale[2]}; };
    const Vec3 gripper_error = scaled(handle - gripper);
    const Vec3 gripper_error_init = scaled(handle_pos_init - init_tcp_);
    const double reward_for_caging =
        tolerance(norm(gripper_error), 0.0, 0.01, norm(gripper_error_init), Sigmoid::kLongTail);
    double reward = reward_for_caging + reward_for_opening;
    reward *= 5.0;
    return evaluation(reward, handle_error <= 0.03, norm(handle - gripper) <= 0.03, obs[3] > 0, reward_for_caging,
                      reward_for_opening, handle_error);
  }

  Evaluation close_reward(const double* obs, const double* action) const {
    constexpr double kTargetRadius = 0.05;
    const Vec3 obj = vec3(obs + 4);
    const Vec3 tcp = tcp_center();
    const Vec3 target = target_pos_;
    const double target_to_obj = norm(obj - target);
    const double target_to_obj_init = norm(obj_init_pos_ - target);
    const double in_place = tolerance(target_to_obj, 0.0, kTargetRadius,
                                      std::abs(target_to_obj_init - kTargetRadius), Sigmoid::kLongTail);
    const double handle_reach_radius = 0.005;
    const double tcp_to_obj = norm(obj - tcp);
    const double tcp_to_obj_init = norm(obj_init_pos_ - init_tcp_);
    double reach = tolerance(tcp_to_obj, 0.0, handle_reach_radius, std::abs(tcp_to_obj_init - handle_reach_radius),
                             Sigmoid::kGaussian);
    const double gripper_closed = std::min(std::max(0.0, action[3]), 1.0);
    reach = hamacher_product(reach, gripper_closed);
    const double object_grasped = reach;
    double reward = hamacher_product(reach, in_place);
    if (target_to_obj <= kTargetRadius + 0.015) reward = 1.0;
    reward *= 10;
    return evaluation(reward, target_to_obj <= kTargetRadius + 0.015, tcp_to_obj <= 0.01, 1.0, object_grasped, in_place,
                      target_to_obj);
  }

  const DrawerTask task_;
};

const TaskSetup kDrawerSetup = {.xml = "sawyer_xyz/sawyer_drawer.xml",
                                .hand_low = {-0.5, 0.40, 0.05},
                                .hand_high = {0.5, 1.0, 0.5},
                                .reset_low = {-0.1, 0.9, 0.0},
                                .reset_high = {0.1, 0.9, 0.0},
                                .goal_low = {-0.5, 0.40, 0.05},
                                .goal_high = {0.5, 1.0, 0.5},
                                // float32 in metaworld's init_config.
                                .hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)}};

}  // namespace

static const bool kOpenRegistered = register_task({
    .name = "drawer-open-v3",
    .setup = kDrawerSetup,
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Drawer>(c, s, kOpen);
    },
});
static const bool kCloseRegistered = register_task({
    .name = "drawer-close-v3",
    .setup = kDrawerSetup,
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Drawer>(c, s, kClose);
    },
});

}  // namespace rlpool::metaworld
