// window-open-v3 and window-close-v3: metaworld 3.1.1's envs/sawyer_window_open_v3.py
// (SawyerWindowOpenEnvV3) and sawyer_window_close_v3.py (SawyerWindowCloseEnvV3), their v2 rewards: slide
// the window open or closed by its handle. The two differ in the handle's site (handleOpenStart /
// handleCloseStart), the target (the window's position plus 0.2 in x / the window's position), where the
// window starts (window_slide at 0 / 0.2), the in-place margin's start (the window's position / the
// handle's start) and the reach's sigmoid (long tail / gaussian), and in their task vectors.
#include "envs/metaworld/sawyer_env.h"

namespace rlpool::metaworld {
namespace {

// What differs between the two tasks.
struct WindowTask {
  const char* handle_site;  // _get_pos_objects
  double target_dx;         // the target: the window's position plus this in x
  double slide;             // window_slide's qpos at reset, and the handle's start's offset in x
  bool margin_from_handle;  // the in-place margin from the handle's start rather than the window's position
  Sigmoid reach_sigmoid;
};

constexpr WindowTask kOpen{"handleOpenStart", 0.2, 0.0, false, Sigmoid::kLongTail};
constexpr WindowTask kClose{"handleCloseStart", 0.0, 0.2, true, Sigmoid::kGaussian};

class Window final : public SawyerEnv {
 public:
  Window(const Config& c, const TaskSetup& s, const WindowTask& task) : SawyerEnv(c, s), task_(task) {
    keep(window_handle_pos_init_);
  }

 protected:
  static constexpr double kTargetRadius = 0.05;

  void reset_model() override {
    reset_hand();
    const std::vector<double> v = rand_vec();
    obj_init_pos_ = {v[0], v[1], v[2]};
    target_pos_ = obj_init_pos_ + Vec3{task_.target_dx, 0.0, 0.0};
    set_body_pos("window", obj_init_pos_);
    // The handle's site as mjData holds it (not recomputed since the window moved).
    window_handle_pos_init_ = site_pos(task_.handle_site) + Vec3{task_.slide, 0.0, 0.0};
    *joint_qpos("window_slide") = task_.slide;
    set_site_pos("goal", target_pos_);
  }

  void objects(Objects& out) const override {
    out.add_pos(site_pos(task_.handle_site));
    out.add_quat(std::array<double, 4>{});
  }

  Evaluation evaluate_state(const double* /*obs*/, const double* /*action*/) override {
    const Vec3 obj = site_pos(task_.handle_site);
    const Vec3 tcp = tcp_center();
    const Vec3 target = target_pos_;
    // np.linalg.norm of a scalar: sqrt of its square.
    const double to_obj = obj[0] - target[0];
    const double target_to_obj = std::sqrt(to_obj * to_obj);
    const double to_obj_init = (task_.margin_from_handle ? window_handle_pos_init_[0] : obj_init_pos_[0]) - target[0];
    const double target_to_obj_init = std::sqrt(to_obj_init * to_obj_init);
    const double in_place = tolerance(target_to_obj, 0.0, kTargetRadius, std::abs(target_to_obj_init - kTargetRadius),
                                      Sigmoid::kLongTail);
    const double handle_radius = 0.02;
    const double tcp_to_obj = norm(obj - tcp);
    const double tcp_to_obj_init = norm(window_handle_pos_init_ - init_tcp_);
    const double reach = tolerance(tcp_to_obj, 0.0, handle_radius, std::abs(tcp_to_obj_init - handle_radius),
                                   task_.reach_sigmoid);
    const double object_grasped = reach;
    const double reward = 10 * hamacher_product(reach, in_place);

    return evaluation(reward, target_to_obj <= kTargetRadius, tcp_to_obj <= 0.05, 1.0, object_grasped, in_place,
                      target_to_obj);
  }

 private:
  const WindowTask task_;
  Vec3 window_handle_pos_init_{};
};

// The two share the model, the hand's bounds and initial position and the goal space; the task vectors differ.
TaskSetup window_setup(std::vector<double> reset_low, std::vector<double> reset_high) {
  return {.xml = "sawyer_xyz/sawyer_window_horizontal.xml",
          .hand_low = {-0.5, 0.40, 0.05},
          .hand_high = {0.5, 1.0, 0.5},
          .reset_low = std::move(reset_low),
          .reset_high = std::move(reset_high),
          .goal_low = {-0.5, 0.40, 0.05},
          .goal_high = {0.5, 1.0, 0.5},
          // init_config's hand_init_pos is float32.
          .hand_init_pos = {0.0, static_cast<double>(0.4f), static_cast<double>(0.2f)}};
}

}  // namespace

static const bool kOpenRegistered = register_task({
    .name = "window-open-v3",
    .setup = window_setup({-0.1, 0.7, 0.16}, {0.1, 0.9, 0.16}),
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Window>(c, s, kOpen);
    },
});
static const bool kCloseRegistered = register_task({
    .name = "window-close-v3",
    .setup = window_setup({0.0, 0.75, 0.2}, {0.0, 0.9, 0.2}),
    .create = [](const Config& c, const TaskSetup& s) -> std::unique_ptr<SawyerEnv> {
      return std::make_unique<Window>(c, s, kClose);
    },
});

}  // namespace rlpool::metaworld
