// PointMaze (-v3), as gymnasium_robotics 1.4.2's envs/maze/point_maze.py
// (PointMazeEnv) on maze_v4.py (MazeEnv, Maze) and point.py (PointEnv): a
// force-driven ball rolls through a maze of wall boxes towards a goal.
//
// The model is the one gymnasium-robotics generates for the maze (built by
// rlpool.envs.robotics.maze, hidden option _xml_file); the layout comes as
// _maze_layout ("1 1 1/1 r 1/...", rows of cells 1, 0, r, g, c).
#include <cmath>
#include <sstream>

#include "envs/robotics/robot_env.h"

namespace rlpool::robotics {
namespace {

constexpr double kScale = 1.0;          // maze_size_scaling, fixed by PointMazeEnv
constexpr double kNoise = 0.25;         // position_noise_range
constexpr double kGoalDistance = 0.45;  // a goal is reached within this distance
constexpr int kMaxGoalDraws = 1'000'000;

using Point = std::array<double, 2>;

double distance(const double* a, const Point& b) { return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1])); }

// Maze.make_maze's location lists, in its order (row-major; combined cells
// last in both lists; empty cells where a kind is missing).
struct Maze {
  std::vector<Point> goals, resets;

  explicit Maze(const std::string& layout) {
    std::vector<std::vector<std::string>> grid;
    std::stringstream rows(layout);
    std::string row;
    while (std::getline(rows, row, '/')) {
      std::stringstream cells(row);
      std::vector<std::string> r;
      std::string cell;
      while (cells >> cell) r.push_back(cell);
      grid.push_back(std::move(r));
    }
    if (grid.empty() || grid[0].empty()) throw std::invalid_argument("maze_map has no cells");
    const double x_center = static_cast<double>(grid[0].size()) / 2 * kScale;
    const double y_center = static_cast<double>(grid.size()) / 2 * kScale;
    std::vector<Point> combined, empty;
    for (std::size_t i = 0; i < grid.size(); ++i) {
      if (grid[i].size() != grid[0].size()) throw std::invalid_argument("maze_map rows must have the same length");
      for (std::size_t j = 0; j < grid[i].size(); ++j) {
        const Point xy{(static_cast<double>(j) + 0.5) * kScale - x_center,
                       y_center - (static_cast<double>(i) + 0.5) * kScale};
        const std::string& c = grid[i][j];
        if (c == "r") {
          resets.push_back(xy);
        } else if (c == "g") {
          goals.push_back(xy);
        } else if (c == "c") {
          combined.push_back(xy);
        } else if (c == "0") {
          empty.push_back(xy);
        } else if (c != "1") {
          throw std::invalid_argument("maze_map has a cell '" + c + "' (cells: 1, 0, r, g, c)");
        }
      }
    }
    if (goals.empty() && resets.empty() && combined.empty()) {
      combined = empty;
    } else if (resets.empty() && combined.empty()) {
      resets = empty;
    } else if (goals.empty() && combined.empty()) {
      goals = empty;
    }
    goals.insert(goals.end(), combined.begin(), combined.end());
    resets.insert(resets.end(), combined.begin(), combined.end());
    if (goals.empty() || resets.empty()) {
      throw std::invalid_argument("maze_map needs cells for the goal and for the ball to start in (0, g, r or c)");
    }
    // The ball starts in another cell than the goal's (MazeEnv draws again
    // while it is within half a cell): a goal cell with no other start cell
    // would draw for ever.
    for (const Point& g : goals) {
      bool other = false;
      for (const Point& r : resets) other = other || distance(g.data(), r) > 0.5 * kScale;
      if (!other) {
        throw std::invalid_argument("maze_map has a goal cell at (" + std::to_string(g[0]) + ", " +
                                    std::to_string(g[1]) + ") and no start cell other than it");
      }
    }
  }
};

struct Params {
  bool sparse, continuing_task, reset_target;
  explicit Params(const Config& c)
      : sparse(sparse_reward(c)),
        continuing_task(c.get_bool("continuing_task")),
        reset_target(c.get_bool("reset_target")) {}
};

EnvSpec spec(const Config& c) {
  Params p(c);
  Maze maze(c.get_string("_maze_layout"));
  const auto model = mujoco::load_model(c.get_string("_xml_file"));
  mujoco::require(model->nq == 2 && model->nv == 2 && model->nu == 2, "the PointMaze model has 2 joints and 2 motors");
  EnvSpec s = goal_spec(2, 4, 2, 50.0);  // PointMazeEnv's render_fps: 50
  s.info = {ArraySpec{.name = "success", .dtype = DType::kBool, .shape = {}},
            ArraySpec{.name = "_distance", .dtype = DType::kFloat64, .shape = {}}};
  s.render_cameras = model->ncam;
  return s;
}

CameraConfig maze_camera(const Config& c) {
  CameraConfig camera;
  // PointMazeEnv: 12.5 for mazes of more than 8 rows, else 8.8.
  const std::string& layout = c.get_string("_maze_layout");
  const auto rows = std::count(layout.begin(), layout.end(), '/') + 1;
  camera.distance = rows > 8 ? 12.5 : 8.8;
  return camera;
}

class PointMaze final : public RobotEnv {
 public:
  explicit PointMaze(const Config& c)
      : RobotEnv(c, mujoco::load_model(c.get_string("_xml_file")), c.get_string("_xml_file"), "PointMaze", 2,
                 maze_camera(c)),
        p_(c),
        maze_(c.get_string("_maze_layout")),
        target_(site_id(m_, "target", xml_file_)),
        init_qpos_(d_->qpos, d_->qpos + m_->nq) {}

  void reset(Rng& rng, const Output& out) override {
    begin_episode(rng);
    // MazeEnv.reset: a goal cell plus noise, then a start cell at least half a
    // cell from that goal, plus noise.
    sample_goal();
    Point start{goal_[0], goal_[1]};
    while (distance(goal_.data(), start) <= 0.5 * kScale) start = maze_.resets[rng_.integer(maze_.resets.size())];
    add_noise(start);
    // PointEnv.reset: mj_resetData, then set_state(init_qpos with the start, zeros).
    api().resetData(m_, d_);
    std::copy(init_qpos_.begin(), init_qpos_.end(), d_->qpos);
    d_->qpos[0] = start[0];
    d_->qpos[1] = start[1];
    std::fill(d_->qvel, d_->qvel + m_->nv, 0.0);
    api().forward(m_, d_);
    write_obs(out);
    const double d = distance(d_->qpos, {goal_[0], goal_[1]});
    *out.info_as<bool>(0) = d <= kGoalDistance;
    out.put_info(1, d);
  }

  void step(const Action& action, Rng& /*rng*/, const Output& out) override {
    // PointEnv.step: the action clipped (float32); the velocity clipped to
    // [-5, 5] (set_state, so mj_forward); one MuJoCo step.
    for (int i = 0; i < m_->nv; ++i) d_->qvel[i] = mujoco::clip(d_->qvel[i], -5.0, 5.0);
    api().forward(m_, d_);
    for (int i = 0; i < 2; ++i) d_->ctrl[i] = static_cast<double>(f32(mujoco::clip(action.continuous()[i], -1.0, 1.0)));
    api().step(m_, d_);
    api().rnePostConstraint(m_, d_);
    write_obs(out);
    const double d = distance(d_->qpos, {goal_[0], goal_[1]});
    const bool reached = d <= kGoalDistance;
    *out.reward = p_.sparse ? (reached ? 1.0 : 0.0) : std::exp(-d);
    *out.terminated = !p_.continuing_task && reached;
    *out.info_as<bool>(0) = reached;
    out.put_info(1, d);
    // update_goal: a reached goal moves elsewhere (seen from the next step on).
    if (p_.continuing_task && p_.reset_target && reached && maze_.goals.size() > 1) {
      int draws = 0;
      while (distance(d_->qpos, {goal_[0], goal_[1]}) <= kGoalDistance) {
        if (++draws > kMaxGoalDraws) throw std::runtime_error("PointMaze: found no goal away from the ball");
        sample_goal();
      }
    }
  }

 protected:
  std::vector<std::pair<int, std::array<double, 3>>> marker_sites() const override {
    return {{target_, {goal_[0], goal_[1], m_->site_pos[3 * target_ + 2]}}};
  }

 private:
  // generate_target_goal, then add_xy_position_noise.
  void sample_goal() {
    const Point& cell = maze_.goals[rng_.integer(maze_.goals.size())];
    Point goal = cell;
    add_noise(goal);
    goal_[0] = goal[0];
    goal_[1] = goal[1];
  }

  void add_noise(Point& xy) {
    const double noise_x = rng_.uniform(-kNoise, kNoise) * kScale;
    const double noise_y = rng_.uniform(-kNoise, kNoise) * kScale;
    xy[0] += noise_x;
    xy[1] += noise_y;
  }

  void write_obs(const Output& out) const {
    std::copy(d_->qpos, d_->qpos + 2, out.obs_as<double>(0));
    std::copy(goal_.begin(), goal_.end(), out.obs_as<double>(1));
    ObsWriter w(out.obs_as<double>(2));
    w.put(d_->qpos, 2);
    w.put(d_->qvel, 2);
  }

  const Params p_;
  const Maze maze_;
  const int target_;
  const std::vector<double> init_qpos_;
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "PointMaze",
    .options = with_pixels({
            {"_xml_file", std::string(), "the maze's model (built by rlpool.envs.robotics.maze)"},
            {"_maze_layout", std::string(), "the maze's cells (set by rlpool.envs.robotics.maze)"},
            {"maze_map", std::string("U_MAZE"),
             "the maze: a list of rows of cells (1 wall, 0 empty, 'r' start, 'g' goal, 'c' either), or the name "
             "of one of gymnasium-robotics' maps"},
            {"reward_type", std::string("sparse"),
             "'sparse' (1 within 0.45 m of the goal, else 0) or 'dense' (exp(-distance to the goal))"},
            {"continuing_task", true, "the episode goes on after the goal is reached (else it terminates)"},
            {"reset_target", false, "with continuing_task: a reached goal moves to another goal cell"},
        }),
    .spec = spec,
    .create = make_env<PointMaze>(),
});

}  // namespace rlpool::robotics
