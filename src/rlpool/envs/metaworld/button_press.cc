// The button-pressing tasks, their v2 rewards: metaworld 3.1.1's
//   button-press-v3               envs/sawyer_button_press_v3.py (SawyerButtonPressEnvV3)
//   button-press-wall-v3          envs/sawyer_button_press_wall_v3.py (SawyerButtonPressWallEnvV3)
//   button-press-topdown-v3       envs/sawyer_button_press_topdown_v3.py (SawyerButtonPressTopdownEnvV3)
//   button-press-topdown-wall-v3  envs/sawyer_button_press_topdown_wall_v3.py (SawyerButtonPressTopdownWallEnvV3)
//   coffee-button-v3              envs/sawyer_coffee_button_v3.py (SawyerCoffeeButtonEnvV3)
// The four button-press tasks are one code: a button in a box, pushed in along y (button-press, -wall)
// or down along z (the topdown two, whose reset_model runs mj_forward where the others zero the button's
// slide joint), with a wall in front of it in the -wall models. Besides their models and spaces they
// differ in their rewards' constants, in tcp_closed (1 - obs[3] in button-press-topdown, max(obs[3], 0)
// elsewhere) and in button-press-wall's reward, shaped otherwise. coffee-button presses the coffee
// machine's button along y with button-press's reward, but for button_pressed's margin (max_dist, not the
// initial distance); its reset places the machine and the mug. (Most of them set _target_pos to self.goal
// at reset before setting it from the "hole" site; nothing reads it in between, so that is left out.)
#include "envs/metaworld/sawyer_env.h"

#include <algorithm>

namespace rlpool::metaworld {
namespace {

// What differs between the four button-press tasks.
struct Button {
  const char* name;
  const char* xml;
  Vec3 reset_low, reset_high;                   // the box's position
  int axis;                                     // the button moves along y (1) or z (2)
  Vec3 obj_offset;                              // _get_pos_objects: the button body's com plus this
  bool zero_slide;                              // reset_model's _set_obj_xyz(0), else mj_forward
  // compute_reward: near_button's bound; then, but for button-press-wall's reward, tcp_closed as
  // 1 - obs[3] (else max(obs[3], 0)), reward = reach_weight * hamacher_product(tcp_closed, near_button),
  // plus press_weight * button_pressed within press_radius of the button.
  double near_bound;
  bool wall_reward = false;
  bool one_minus_open = false;
  double reach_weight = 0.0, press_weight = 0.0, press_radius = 0.0;
  double success;  // evaluate_state's success: obj_to_target within this
};

constexpr Button kButtons[] = {
    {.name = "button-press-v3", .xml = "sawyer_xyz/sawyer_button_press.xml",
     .reset_low = {-0.1, 0.85, 0.115}, .reset_high = {0.1, 0.9, 0.115},
     .axis = 1, .obj_offset = {0.0, -0.193, 0.0}, .zero_slide = true,
     .near_bound = 0.05, .reach_weight = 2, .press_weight = 8, .press_radius = 0.05,
     .success = 0.02},
    {.name = "button-press-wall-v3", .xml = "sawyer_xyz/sawyer_button_press_wall.xml",
     .reset_low = {-0.05, 0.85, 0.1149}, .reset_high = {0.05, 0.9, 0.1151},
     .axis = 1, .obj_offset = {0.0, -0.193, 0.0}, .zero_slide = true,
     .near_bound = 0.01, .wall_reward = true,
     .success = 0.03},
    {.name = "button-press-topdown-v3", .xml = "sawyer_xyz/sawyer_button_press_topdown.xml",
     .reset_low = {-0.1, 0.8, 0.115}, .reset_high = {0.1, 0.9, 0.115},
     .axis = 2, .obj_offset = {0.0, 0.0, 0.193}, .zero_slide = false,
     .near_bound = 0.01, .one_minus_open = true, .reach_weight = 5, .press_weight = 5, .press_radius = 0.03,
     .success = 0.024},
    {.name = "button-press-topdown-wall-v3", .xml = "sawyer_xyz/sawyer_button_press_topdown_wall.xml",
     .reset_low = {-0.1, 0.8, 0.115}, .reset_high = {0.1, 0.9, 0.115},
     .axis = 2, .obj_offset = {0.0, 0.0, 0.193}, .zero_slide = false,
     .near_bound = 0.01, .reach_weight = 5, .press_weight = 5, .press_radius = 0.03,
     .success = 0.024},
};
constexpr const Button& kButtonPress = kButtons[0];

class ButtonPress : public SawyerEnv {
 public:
  ButtonPress(const Config& c, const TaskSetup& s, const Button& button) : SawyerEnv(c, s), b_(button) {
    keep(press_margin_);
  }

 protected:
  void reset_model() override {
    reset_hand();
    const std::vector<double> goal_pos = rand_vec();
    obj_init_pos_ = {goal_pos[0], goal_pos[1], goal_pos[2]};
    set_body_pos("box", obj_init_pos_);
    if (b_.zero_slide) {
      set_button_xyz(0.0);
    } else {
      forward();
    }
    target_pos_ = site_pos("hole");
    press_margin_ = std::abs(target_pos_[b_.axis] - site_pos("buttonStart")[b_.axis]);
  }

  int main_object_geom() const override { return geom("btnGeom"); }

  void objects(Objects& out) const override {
    out.add_pos(body_com("button") + b_.obj_offset);
    out.add_quat(body_quat("button"));
  }

  Evaluation evaluate_state(const double* obs, const double* /*action*/) override {
    const int k = b_.axis;
    const Vec3 obj = vec3(obs + 4);
    const Vec3 tcp = tcp_center();
    const double tcp_to_obj = norm(obj - tcp);
    const double tcp_to_obj_init = norm(obj - init_tcp_);
    const double obj_to_target = std::abs(target_pos_[k] - obj[k]);
    const double near_button = tolerance(tcp_to_obj, 0.0, b_.near_bound, tcp_to_obj_init, Sigmoid::kLongTail);
    const double button_pressed = tolerance(obj_to_target, 0.0, 0.005, press_margin_, Sigmoid::kLongTail);
    double reward = 0.0;
    if (b_.wall_reward) {
      if (tcp_to_obj > 0.07) {
        const double tcp_status = (1 - obs[3]) / 2.0;
        reward = 2 * hamacher_product(tcp_status, near_button);
      } else {
        reward = 2;
        reward += 2 * (1 + obs[3]);
        reward += 4 * (button_pressed * button_pressed);
      }
    } else {
      const double tcp_closed = b_.one_minus_open ? 1 - obs[3] : std::max(obs[3], 0.0);
      reward = b_.reach_weight * hamacher_product(tcp_closed, near_button);
      if (tcp_to_obj <= b_.press_radius) reward += b_.press_weight * button_pressed;
    }
    return evaluation(reward, obj_to_target <= b_.success, tcp_to_obj <= 0.05, obs[3] > 0, near_button, button_pressed,
                      obj_to_target);
  }

  const Button& b_;
  // button_pressed's margin: _obj_to_target_init (coffee-button: max_dist).
  double press_margin_ = 0.0;

 private:
  // The task's _set_obj_xyz: the button's slide joint (qpos[9], qvel[9]) only.
  void set_button_xyz(double pos) {
    d_->qpos[9] = pos;
    d_->qvel[9] = 0.0;
    set_state(d_->qpos, d_->qvel);
  }
};

// coffee-button: the button on the coffee machine, whose position the task vector draws.
constexpr double kMaxDist = 0.03;

class CoffeeButton final : public ButtonPress {
 public:
  CoffeeButton(const Config& c, const TaskSetup& s) : ButtonPress(c, s, kButtonPress) {}

 protected:
  void reset_model() override {
    reset_hand();
    const std::vector<double> v = rand_vec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    set_body_pos("coffee_machine", obj_init_pos_);
    const Vec3 pos_mug = obj_init_pos_ + Vec3{0.0, -0.22, 0.0};
    // The task's _set_obj_xyz: qpos[0:3] (the mug's free joint comes first in this model), qvel[9:15] zeroed.
    std::copy(pos_mug.begin(), pos_mug.end(), d_->qpos);
    std::fill(d_->qvel + 9, d_->qvel + 15, 0.0);
    set_state(d_->qpos, d_->qvel);
    const Vec3 pos_button = obj_init_pos_ + Vec3{0.0, -0.22, 0.3};
    target_pos_ = pos_button + Vec3{0.0, kMaxDist, 0.0};
    press_margin_ = kMaxDist;
  }

  // _get_id_main_object is None: no contact is with it.
  int main_object_geom() const override { return -1; }

  void objects(Objects& out) const override {
    out.add_pos(site_pos("buttonStart"));
    out.add_quat(std::array<double, 4>{1.0, 0.0, 0.0, 0.0});
  }
};

bool register_buttons() {
  for (const Button& b : kButtons) {
    register_task({
        .name = b.name,
        .setup = {.xml = b.xml,
                  .hand_low = {-0.5, 0.40, 0.05},
                  .hand_high = {0.5, 1.0, 0.5},
                  .reset_low = {b.reset_low.begin(), b.reset_low.end()},
                  .reset_high = {b.reset_high.begin(), b.reset_high.end()},
                  .goal_low = {-0.5, 0.40, 0.05},
                  .goal_high = {0.5, 1.0, 0.5},
                  // init_config's hand_init_pos is float32.
                  .hand_init_pos = {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)}},
        .create = [&b](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
          return std::make_unique<ButtonPress>(c, s, b);
        },
    });
  }
  return register_task({
      .name = "coffee-button-v3",
      .setup = {.xml = "sawyer_xyz/sawyer_coffee.xml",
                .hand_low = {-0.5, 0.4, 0.05},
                .hand_high = {0.5, 1.0, 0.5},
                .reset_low = {-0.1, 0.8, -0.001},
                .reset_high = {0.1, 0.9, +0.001},
                // obj_low / obj_high + (-+0.001, -0.22 + max_dist, 0.299 / 0.301).
                .goal_low = {-0.1 + -0.001, 0.8 + (-0.22 + kMaxDist), -0.001 + 0.299},
                .goal_high = {0.1 + 0.001, 0.9 + (-0.22 + kMaxDist), 0.001 + 0.301},
                .hand_init_pos = {0.0, 0.4, 0.2}},
      .create = make_task<CoffeeButton>(),
  });
}

}  // namespace

static const bool kRegistered = register_buttons();

}  // namespace rlpool::metaworld
