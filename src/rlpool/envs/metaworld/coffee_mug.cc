// coffee-pull-v3 and coffee-push-v3: metaworld 3.1.1's envs/sawyer_coffee_pull_v3.py
// (SawyerCoffeePullEnvV3) and envs/sawyer_coffee_push_v3.py (SawyerCoffeePushEnvV3), their v2
// reward: move the mug on the table to the goal. The two are the same code but for their spaces (pull:
// the mug starts by the coffee machine and goes to a goal in front of it; push: the other way round) and
// where reset_model puts the machine: 0.22 behind the mug's start (pull) or behind the goal (push).
#include "envs/metaworld/sawyer_env.h"

#include <algorithm>

namespace rlpool::metaworld {
namespace {

// What differs between coffee-pull and coffee-push.
struct CoffeeTask {
  const char* name;
  Vec3 obj_low, obj_high;    // the mug's start
  Vec3 goal_low, goal_high;  // the goal's
  bool machine_at_goal;      // the machine stands behind the goal (push), else behind the mug's start (pull)
};

constexpr CoffeeTask kPull{.name = "coffee-pull-v3",
                           .obj_low = {-0.05, 0.7, -0.001}, .obj_high = {0.05, 0.75, +0.001},
                           .goal_low = {-0.1, 0.55, -0.001}, .goal_high = {0.1, 0.65, +0.001},
                           .machine_at_goal = false};
constexpr CoffeeTask kPush{.name = "coffee-push-v3",
                           .obj_low = {-0.1, 0.55, -0.001}, .obj_high = {0.1, 0.65, +0.001},
                           .goal_low = {-0.05, 0.7, -0.001}, .goal_high = {0.05, 0.75, +0.001},
                           .machine_at_goal = true};

class CoffeeMug final : public SawyerEnv {
 public:
  CoffeeMug(const Config& c, const TaskSetup& s, const CoffeeTask& task) : SawyerEnv(c, s), task_(task) {}

 protected:
  void reset_model() override {
    reset_hand();
    std::vector<double> v = rand_vec();
    Vec3 pos_mug_init{v[0], v[1], v[2]}, pos_mug_goal{v[3], v[4], v[5]};
    while (norm2(pos_mug_init - pos_mug_goal) < 0.15) {
      v = rand_vec();
      pos_mug_init = {v[0], v[1], v[2]};
      pos_mug_goal = {v[3], v[4], v[5]};
    }
    set_mug_xyz(pos_mug_init);
    obj_init_pos_ = pos_mug_init;
    const Vec3 pos_machine = (task_.machine_at_goal ? pos_mug_goal : pos_mug_init) + Vec3{0.0, 0.22, 0.0};
    set_body_pos("coffee_machine", pos_machine);
    target_pos_ = pos_mug_goal;
    set_site_pos("mug_goal", target_pos_);
  }

  int main_object_geom() const override { return geom("mug"); }

  void objects(Objects& out) const override {
    out.add_pos(body_com("obj"));
    out.add_quat(geom_quat("mug"));
  }

  Evaluation evaluate_state(const double* obs, const double* action) override {
    const Vec3 obj = vec3(obs + 4);
    const Vec3 target = target_pos_;
    // X and Y errors weighted twice.
    const auto scaled = [](const Vec3& d) { return Vec3{d[0] * 2.0, d[1] * 2.0, d[2] * 1.0}; };
    const double target_to_obj = norm(scaled(obj - target));
    const double target_to_obj_init = norm(scaled(obj_init_pos_ - target));
    const double in_place = tolerance(target_to_obj, 0.0, 0.05, target_to_obj_init, Sigmoid::kLongTail);
    const double tcp_opened = obs[3];
    const double tcp_to_obj = norm(obj - tcp_center());
    const double object_grasped = gripper_caging_reward(action, obj, 0.02, 0.05, 0.04, 0.05, 0.7, false, true);
    double reward = hamacher_product(object_grasped, in_place);
    if (tcp_to_obj < 0.04 && tcp_opened > 0) reward += 1.0 + 5.0 * in_place;
    if (target_to_obj < 0.05) reward = 10.0;
    const double obj_to_target = norm(obj - target);
    return target_evaluation(reward, obj_to_target, tcp_to_obj, touching_main_object() && tcp_opened > 0,
                             object_grasped, in_place);
  }

 private:
  // The task's _set_obj_xyz: qpos[0:3] (the mug's free joint comes first in this model), qvel[9:15] zeroed.
  void set_mug_xyz(const Vec3& pos) {
    std::copy(pos.begin(), pos.end(), d_->qpos);
    std::fill(d_->qvel + 9, d_->qvel + 15, 0.0);
    set_state(d_->qpos, d_->qvel);
  }

  const CoffeeTask& task_;
};

// The task's __init__: the random reset space is the mug's start then the goal.
bool register_coffee(const CoffeeTask& task) {
  const Vec3 &ol = task.obj_low, &oh = task.obj_high;
  return register_task({
      .name = task.name,
      .setup = {.xml = "sawyer_xyz/sawyer_coffee.xml",
                .hand_low = {-0.5, 0.40, 0.05},
                .hand_high = {0.5, 1.0, 0.5},
                .reset_low = {ol[0], ol[1], ol[2], task.goal_low[0], task.goal_low[1], task.goal_low[2]},
                .reset_high = {oh[0], oh[1], oh[2], task.goal_high[0], task.goal_high[1], task.goal_high[2]},
                .goal_low = task.goal_low,
                .goal_high = task.goal_high,
                .hand_init_pos = {0.0, 0.4, 0.2}},
      .create = [&task](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
        return std::make_unique<CoffeeMug>(c, s, task);
      },
  });
}

}  // namespace

static const bool kPullRegistered = register_coffee(kPull);
static const bool kPushRegistered = register_coffee(kPush);

}  // namespace rlpool::metaworld
