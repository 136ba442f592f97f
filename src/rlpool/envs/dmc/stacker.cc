// Stacker domain (tasks: stack_2, stack_4), as dm_control 1.0.50's
// suite/stacker.py with its default fully_observable=True.
#include <algorithm>
#include <cmath>
#include <limits>

#include "envs/dmc/manipulation.h"

namespace rlpool::dmc {
namespace {

using manipulation::kPi;

const std::vector<std::string> kTasks = {"stack_2", "stack_4"};

int n_boxes(const Config& c) { return task_name(c, kTasks) == "stack_2" ? 2 : 4; }

EnvSpec spec(const mjModel* m, const Config& c) {
  const std::int64_t n = n_boxes(c);
  return make_spec(m, {{"arm_pos", {manipulation::kArmJoints, 2}},
                       {"arm_vel", {manipulation::kArmJoints}},
                       {"touch", {m->nsensordata}},
                       {"hand_pos", {4}},
                       {"box_pos", {n, 4}},
                       {"box_vel", {3 * n}},
                       {"target_pos", {2}}});
}

class Stacker final : public DmcEnv {
 public:
  explicit Stacker(const Config& c)
      : DmcEnv(c, 10, kWritesModel),
        n_boxes_(n_boxes(c)),
        arm_(m_, [this](mjtObj type, const char* name) { return id(type, name); }),
        hand_(id(mjOBJ_BODY, "hand")),
        target_(id(mjOBJ_BODY, "target")),
        target_geom_(id(mjOBJ_GEOM, "target")),
        target_site_(id(mjOBJ_SITE, "target")),
        grasp_(id(mjOBJ_SITE, "grasp")) {
    for (int b = 0; b < n_boxes_; ++b) {
      const std::string name = "box" + std::to_string(b);
      Box box;
      box.body = id(mjOBJ_BODY, name.c_str());
      box.site = id(mjOBJ_SITE, name.c_str());
      const std::array<const char*, 3> dims = {"_x", "_y", "_z"};
      for (std::size_t i = 0; i < dims.size(); ++i) {
        const int j = id(mjOBJ_JOINT, (name + dims[i]).c_str());
        box.qpos[i] = m_->jnt_qposadr[j];
        box.dof[i] = m_->jnt_dofadr[j];
      }
      boxes_.push_back(box);
    }
    add_task_state(m_->body_pos + 3 * target_, 3);
  }

 private:
  struct Box {
    int body = 0;
    int site = 0;
    std::array<int, 3> qpos{};  // x, y, z joints
    std::array<int, 3> dof{};
  };

  double box_size() const { return m_->geom_size[3 * target_geom_]; }

  void initialize_episode(Rng& rng) override {
    // Find a collision-free random initial configuration.
    bool penetrating = true;
    while (penetrating) {
      arm_.randomize(m_, d_, rng);
      // Randomise target location: height 2 * randint(n_boxes) + 1 box sizes.
      const double target_height = 2.0 * static_cast<double>(rng.integer(static_cast<std::uint64_t>(n_boxes_))) + 1.0;
      m_->body_pos[3 * target_ + 2] = box_size() * target_height;
      m_->body_pos[3 * target_] = rng.uniform(-0.37, 0.37);
      // Randomise box locations (x, z, then the angle y).
      for (const Box& box : boxes_) {
        d_->qpos[box.qpos[0]] = rng.uniform(0.1, 0.3);
        d_->qpos[box.qpos[2]] = rng.uniform(0.0, 0.7);
        d_->qpos[box.qpos[1]] = rng.uniform(0.0, 2 * kPi);
      }
      // Check for collisions.
      after_reset();
      penetrating = d_->ncon > 0;
    }
  }

  double get_reward() override {
    double min_distance = std::numeric_limits<double>::infinity();
    for (const Box& box : boxes_) {
      min_distance = std::min(min_distance, manipulation::site_distance(d_, box.site, target_site_));
    }
    const double box_is_close = tolerance(min_distance, 0.0, 0.0, 2 * box_size());
    const double hand_is_far = tolerance(manipulation::site_distance(d_, grasp_, target_site_), 0.1, INFINITY,
                                         manipulation::kClose);
    return box_is_close * hand_is_far;
  }

  void get_observation(ObsWriter& w) override {
    arm_.write(m_, d_, w);
    w.next();
    for (int i = 0; i < m_->nsensordata; ++i) w.put(std::log1p(d_->sensordata[i]));
    manipulation::put_body_2d_pose(d_, hand_, w.next());
    w.next();
    for (const Box& box : boxes_) manipulation::put_body_2d_pose(d_, box.body, w);
    w.next();
    for (const Box& box : boxes_) {
      for (int dof : box.dof) w.put(d_->qvel[dof]);
    }
    manipulation::put_body_2d_pose(d_, target_, w.next(), false);
  }

  const int n_boxes_;
  const manipulation::Arm arm_;
  const int hand_;
  const int target_;
  const int target_geom_;
  const int target_site_;
  const int grasp_;
  std::vector<Box> boxes_;
};

}  // namespace

static const bool kRegistered = register_env_type({.name = "DmcStacker",
                                                   .options = base_options("stack_2"),
                                                   .spec = model_spec(spec),
                                                   .create = make_env<Stacker>()});

}  // namespace rlpool::dmc
