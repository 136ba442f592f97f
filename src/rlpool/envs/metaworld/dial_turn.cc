// dial-turn-v3: metaworld 3.1.1's envs/sawyer_dial_turn_v3.py
// (SawyerDialTurnEnvV3), its v2 reward: turn the dial by pushing its rim.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

constexpr double kTargetRadius = 0.07;

// hamacher_product where an operand is a numpy float32 (the gripper's action):
// numpy casts the Python float to float32 and computes in float32.
float hamacher_product_f32(float a, float b) {
  const float ab = a * b;
  const float denominator = a + b - ab;
  return denominator > 0 ? ab / denominator : 0.0f;
}

class DialTurn final : public SawyerEnv {
 public:
  DialTurn(const Config& c, const TaskSetup& s) : SawyerEnv(c, s) { keep(dial_push_position_); }

 protected:
  void reset_model() override {
    reset_hand();
    target_pos_ = {0.0, 0.73, 0.08};
    const std::vector<double> goal_pos = rand_vec();
    obj_init_pos_ = {goal_pos[0], goal_pos[1], goal_pos[2]};
    target_pos_ = Vec3{goal_pos[0], goal_pos[1], goal_pos[2]} + Vec3{0.0, 0.03, 0.03};
    set_body_pos("dial", obj_init_pos_);
    // The dial's xpos as the last simulation left it (no mj_forward since the body moved).
    dial_push_position_ = dial_pos() + Vec3{0.05, 0.02, 0.09};
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(dial_pos());
    out.add_quat(body_quat("dial"));
  }

  Evaluation evaluate_state(const double* /*obs*/, const double* action) override {
    const Vec3 obj = dial_pos();
    const Vec3 dial_push_position = dial_pos() + Vec3{0.05, 0.02, 0.09};
    const Vec3 tcp = tcp_center();
    const Vec3 target = target_pos_;
    const double target_to_obj = norm(obj - target);
    const double target_to_obj_init = norm(dial_push_position_ - target);
    const double in_place = tolerance(target_to_obj, 0.0, kTargetRadius, std::abs(target_to_obj_init - kTargetRadius),
                                      Sigmoid::kLongTail);
    const double dial_reach_radius = 0.005;
    const double tcp_to_obj = norm(dial_push_position - tcp);
    const double tcp_to_obj_init = norm(dial_push_position_ - init_tcp_);
    double reach = tolerance(tcp_to_obj, 0.0, dial_reach_radius, std::abs(tcp_to_obj_init - dial_reach_radius),
                             Sigmoid::kGaussian);
    // gripper_closed = min(max(0, action[-1]), 1): the int 0 or 1, or the float32 action between, which
    // turns both hamacher products (and the reward) into float32 arithmetic.
    const float grip = static_cast<float>(action[3]);
    double reward = 0.0;
    if (!(grip > 0.0f)) {
      reach = hamacher_product(reach, 0.0);
      reward = 10 * hamacher_product(reach, in_place);
    } else if (1.0f < grip) {
      reach = hamacher_product(reach, 1.0);
      reward = 10 * hamacher_product(reach, in_place);
    } else {
      const float reach_f32 = hamacher_product_f32(static_cast<float>(reach), grip);
      reach = static_cast<double>(reach_f32);
      reward = static_cast<double>(10.0f * hamacher_product_f32(reach_f32, static_cast<float>(in_place)));
    }
    return evaluation(reward, target_to_obj <= kTargetRadius, tcp_to_obj <= 0.01, 1.0, reach, in_place, target_to_obj);
  }

 private:
  // _get_pos_objects: the point of the dial's rim its angle points at.
  Vec3 dial_pos() const {
    const Vec3 dial_center = body_com("dial");
    const double angle = d_->qpos[m_->jnt_qposadr[joint("knob_Joint_1")]];
    Vec3 offset{std::sin(angle), -std::cos(angle), 0.0};
    const double dial_radius = 0.05;
    offset = offset * dial_radius;
    return dial_center + offset;
  }

  Vec3 dial_push_position_{};
};

}  // namespace

static const bool kRegistered = register_task({
    .name = "dial-turn-v3",
    .setup = {.xml = "sawyer_xyz/sawyer_dial.xml",
              .hand_low = {-0.5, 0.40, 0.05},
              .hand_high = {0.5, 1.0, 0.5},
              .reset_low = {-0.1, 0.7, 0.0},
              .reset_high = {0.1, 0.8, 0.0},
              .goal_low = {-0.1, 0.73, 0.0299},
              .goal_high = {0.1, 0.83, 0.0301},
              // init_config's hand_init_pos is float32.
              .hand_init_pos = {0.0, static_cast<double>(0.6f), static_cast<double>(0.2f)}},
    .create = make_task<DialTurn>(),
});

}  // namespace rlpool::metaworld
