// MiniGrid-Dynamic-Obstacles-*: minigrid 3.2.0's DynamicObstaclesEnv (envs/dynamicobstacles.py).
// Three actions (left, right, forward); balls that move at random each step; -1 and the end on
// walking into anything but the goal.
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 4, 255)); }

class DynamicObstacles final : public MiniGridEnv {
 public:
  explicit DynamicObstacles(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), true), start_(config) {
    start_.check(width, height);
    const auto n = config.get_int_in("n_obstacles", 0, 1 << 16);
    // minigrid: n_obstacles if n_obstacles <= size / 2 + 1, else int(size / 2).
    n_obstacles_ = static_cast<double>(n) <= width / 2.0 + 1 ? static_cast<int>(n) : width / 2;
  }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    grid.set(w - 2, h - 2, Obj::goal());
    start_.place(*this);
    obstacles_.clear();
    for (int i = 0; i < n_obstacles_; ++i) obstacles_.push_back(place_obj(Obj::ball(), {0, 0}, {0, 0}, nullptr, 100));
    mission = "get to the green goal square";
  }

  StepResult step_env(int action) override {
    if (action >= 3) action = 0;
    const Obj front = front_cell();
    const bool not_clear = !front.is_none() && front.type != Type::kGoal;
    for (Pos& old : obstacles_) {
      const Obj ball = grid.get(old);
      try {
        const Pos p = place_obj(ball, {old.x - 1, old.y - 1}, {3, 3}, nullptr, 100);
        grid.set(old, Obj{});
        old = p;
      } catch (const RejectSampling&) {
      }
    }
    StepResult r = base_step(action);
    if (action == kForward && not_clear) {
      r.reward = -1.0;
      r.terminated = true;
    }
    return r;
  }

  std::vector<std::int32_t> vars() const override {
    std::vector<std::int32_t> v;
    for (Pos p : obstacles_) {
      v.push_back(p.x);
      v.push_back(p.y);
    }
    return v;
  }
  void set_vars(const std::vector<std::int32_t>& v) override {
    if (v.size() % 2 != 0) throw std::invalid_argument("minigrid state: DynamicObstacles' variables are x, y pairs");
    std::vector<Pos> obstacles;
    for (std::size_t i = 0; i < v.size(); i += 2) {
      if (!grid.in_bounds(v[i], v[i + 1])) {
        throw std::invalid_argument("minigrid state: an obstacle is outside the grid");
      }
      obstacles.push_back({v[i], v[i + 1]});
    }
    obstacles_ = std::move(obstacles);
  }

 private:
  StartPos start_;
  int n_obstacles_;
  std::vector<Pos> obstacles_;  // the balls, in minigrid's order (they move in it)
};

}  // namespace

static const bool kRegistered = register_minigrid({
    .name = "MiniGridDynamicObstacles",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"size", std::int64_t{8}, "side of the square grid, walls included"});
          o.push_back({"n_obstacles", std::int64_t{4}, "moving balls (at most size / 2 + 1, else size / 2)"});
          for (auto& s : StartPos::options()) o.push_back(s);
          return o;
        }(),
    .spec = [](const Config& config) { return minigrid_spec_actions(config, 3); },
    .create = make_env<DynamicObstacles>(),
});

}  // namespace rlpool::minigrid
