// lever-pull-v3: metaworld 3.1.1's envs/sawyer_lever_pull_v3.py
// (SawyerLeverPullEnvV3), its v2 reward: lift the lever to point straight up.
#include <numbers>

#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

class LeverPull final : public SawyerEnv {
 public:
  LeverPull(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) { keep(lever_pos_init_); }

 protected:
  static constexpr double kLeverRadius = 0.2;
  static constexpr double kPi = std::numbers::pi;

  void reset_model() override {
    reset_hand();
    const std::vector<double> v = rand_vec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    set_body_pos("lever", obj_init_pos_);
    lever_pos_init_ = obj_init_pos_ + Vec3{0.12, -kLeverRadius, 0.25};
    target_pos_ = obj_init_pos_ + Vec3{0.12, 0.0, 0.25 + kLeverRadius};
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos("leverStart"));
    out.add_quat(geom_quat("objGeom"));
  }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    const Vec3 gripper = vec3(obs);
    const Vec3 lever = vec3(obs + 4);
    const Vec3 scale{4.0, 1.0, 4.0};
    const Vec3 offset{0.0, 0.055, 0.07};
    Vec3 shoulder_to_lever, shoulder_to_lever_init;
    for (int k = 0; k < 3; ++k) {
      shoulder_to_lever[k] = (gripper[k] + offset[k] - lever[k]) * scale[k];
      shoulder_to_lever_init[k] = (init_tcp_[k] + offset[k] - lever_pos_init_[k]) * scale[k];
    }
    const double ready_to_lift =
        tolerance(norm(shoulder_to_lever), 0.0, 0.02, norm(shoulder_to_lever_init), Sigmoid::kLongTail);
    const double lever_angle = -*joint_qpos("LeverAxis");
    const double lever_angle_desired = kPi / 2.0;
    const double lever_error = std::abs(lever_angle - lever_angle_desired);
    const double lever_engagement =
        tolerance(lever_error, 0.0, kPi / 48.0, (kPi / 2.0) - (kPi / 12.0), Sigmoid::kLongTail);
    const Vec3 target = target_pos_;
    const double obj_to_target = norm(lever - target);
    const double in_place_margin = norm(lever_pos_init_ - target);
    const double in_place = tolerance(obj_to_target, 0.0, 0.04, in_place_margin, Sigmoid::kLongTail);
    const double reward = 10.0 * hamacher_product(ready_to_lift, in_place);
    const double shoulder = norm(shoulder_to_lever);
    return evaluation(reward, lever_error <= kPi / 24, shoulder < 0.03, ready_to_lift > 0.9, ready_to_lift,
                      lever_engagement, shoulder);
  }

 private:
  Vec3 lever_pos_init_{};
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "lever-pull-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_lever_pull.xml",
              .hand_low = {-0.5, 0.40, -0.15},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.7, 0.0},
              .reset_high = {0.1, 0.8, 0.0},
              .goal_low = {-0.5, 0.40, -0.15},
              .goal_high = {0.5, 1.0, 0.5},
              // init_config's hand_init_pos is float32.
              .hand_init_pos = {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)}},
    .create = make_task<LeverPull>(),
});

}  // namespace rlpool::metaworld
