// faucet-open-v3 and faucet-close-v3: metaworld 3.1.1's envs/sawyer_faucet_open_v3.py
// (SawyerFaucetOpenEnvV3) and sawyer_faucet_close_v3.py (SawyerFaucetCloseEnvV3), their v2 rewards: turn
// the faucet's handle open or closed. The two differ in the side of the target (the handle's length to
// the right / left of the faucet), the goal and handle sites (goal_open, handleStartOpen / goal_close,
// handleStartClose), the offset of the handle the reward reads (open's is shifted, close's is not),
// faucet-close's mj_forward before placing the goal, and the task vector's x range.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// What differs between the two tasks.
struct FaucetTask {
  double side;              // the target's side of the faucet: +1 (open) / -1 (close)
  const char* goal_site;    // the goal marker
  const char* handle_site;  // _get_pos_objects: this site, 0.01 lower
  Vec3 obj_offset;          // added to the observed handle in the reward
  bool forward;             // mj_forward before placing the goal marker
};

constexpr FaucetTask kOpen{+1.0, "goal_open", "handleStartOpen", {-0.04, 0.0, 0.03}, false};
constexpr FaucetTask kClose{-1.0, "goal_close", "handleStartClose", {0.0, 0.0, 0.0}, true};

class Faucet final : public SawyerEnv {
 public:
  Faucet(const Config& c, const TaskSetup& s, const FaucetTask& task) : SawyerEnv(c, s), task_(task) {}

 protected:
  static constexpr double kHandleLength = 0.175;
  static constexpr double kTargetRadius = 0.07;

  void reset_model() override {
    reset_hand();
    // The faucet's position.
    const std::vector<double> rand = rand_vec();
    obj_init_pos_ = {rand[0], rand[1], rand[2]};
    set_body_pos("faucetBase", obj_init_pos_);
    target_pos_ = obj_init_pos_ + Vec3{task_.side * kHandleLength, 0.0, 0.125};
    if (task_.forward) forward();
    set_site_pos(task_.goal_site, target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos(task_.handle_site) + Vec3{0.0, 0.0, -0.01});
    out.add_quat(body_quat("faucetBase"));
  }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    const Vec3 obj = vec3(obs + 4) + task_.obj_offset;
    const Vec3 tcp = tcp_center();
    const Vec3 target = target_pos_;
    const double target_to_obj = norm(obj - target);
    const double target_to_obj_init = norm(obj_init_pos_ - target);
    const double in_place = tolerance(target_to_obj, 0.0, kTargetRadius,
                                      std::abs(target_to_obj_init - kTargetRadius), Sigmoid::kLongTail);
    const double faucet_reach_radius = 0.01;
    const double tcp_to_obj = norm(obj - tcp);
    const double tcp_to_obj_init = norm(obj_init_pos_ - init_tcp_);
    const double reach = tolerance(tcp_to_obj, 0.0, faucet_reach_radius,
                                   std::abs(tcp_to_obj_init - faucet_reach_radius), Sigmoid::kGaussian);
    const double object_grasped = reach;
    double reward = 2 * reach + 3 * in_place;
    reward *= 2;
    reward = target_to_obj <= kTargetRadius ? 10 : reward;
    return evaluation(reward, target_to_obj <= 0.07, tcp_to_obj <= 0.01, 1.0, object_grasped, in_place, target_to_obj);
  }

 private:
  const FaucetTask task_;
};

// The two share the model, the hand's bounds and initial position and the goal space; the task vectors'
// x ranges differ.
TaskSetup faucet_setup(double x_range) {
  return {.xml = "sawyer_xyz/sawyer_faucet.xml",
          .hand_low = {-0.5, 0.40, -0.15},
          .hand_high = {0.5, 1.0, 0.5},
          .reset_low = {-x_range, 0.8, 0.0},
          .reset_high = {x_range, 0.85, 0.0},
          .goal_low = {-0.5, 0.40, -0.15},
          .goal_high = {0.5, 1.0, 0.5},
          .hand_init_pos = {0.0, 0.4, 0.2}};
}

}  // namespace

static const bool kOpenRegistered = register_task({
    .name = "faucet-open-v3",
    .setup = faucet_setup(0.05),
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Faucet>(c, s, kOpen);
    },
});
static const bool kCloseRegistered = register_task({
    .name = "faucet-close-v3",
    .setup = faucet_setup(0.1),
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Faucet>(c, s, kClose);
    },
});

}  // namespace rlpool::metaworld
