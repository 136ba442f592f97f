// Jumanji's RobotWarehouse (jumanji 1.1.2, RobotWarehouse-v0) in C++:
// num_agents robots drive a warehouse floor of shelf clusters, carry
// requested shelves to the two goal squares at the bottom, and bring them
// back. Follows jumanji/environments/routing/robot_warehouse/:
// - generator.py GeneratorBase._make_warehouse (l.170-205): the grid is
//   ((column_height + 1) * shelf_rows + 2) x (3 * shelf_columns + 1); the
//   highways (columns y % 3 == 0, rows x % (column_height + 1) == 0, the last
//   row, and the middle two columns of the bottom cluster row); a shelf on
//   every other square, ids in row-major order; the goals (y, x) =
//   (width // 2 - 1, height - 1) and (width // 2, height - 1).
// - generator.py RandomGenerator.__call__ (l.246-273) and utils_spawn.py
//   spawn_random_entities (l.82-129): key, k = split(key) three times: the
//   agents' squares choice(k, H * W, (A,), replace=False), their directions
//   choice(k, 4, (A,)), the request queue choice(k, shelves, (Q,),
//   replace=False); place_entities_on_grid (l.153-186): grid[1] holds agent
//   id + 1, grid[0] shelf id + 1.
// - env.py RobotWarehouse.step (l.226-315), _update_state (l.397-429),
//   _update_reward_and_request_queue (l.431-492): an action the State's
//   action_mask refuses is a no-op (utils.get_valid_actions); agents act in
//   order (utils_agent.py set_new_position_after_forward,
//   set_new_direction_after_turn and what they call, l.155-328; a no-op or
//   toggle of a carrying agent drops its shelf off a highway); a collision
//   (utils.is_collision: an agent's square showing another id) or step_count
//   >= time_limit ends the episode (a termination); each goal holding a
//   requested shelf gives 1 to everyone and swaps the shelf out of the
//   queue for choice(k, setdiff1d(shelves, queue)) with key, k = split(key).
// - utils.py make_agent_observation (l.135-289), with dynamic_update_slice's
//   clamping of a write past the end, and compute_action_mask (l.292-309).
// - info: the shelves' squares (row, column) and requested flags, EnvPool
//   1.2.7's shelf_positions and shelf_requested.
// - render: viewer.py RobotWarehouseViewer._draw_state (l.138-280) and
//   constants.py's colours as flat colours, row 0 at the top: squares of
//   cell_size pixels between black grid lines one pixel wide on a white
//   floor; the goals' squares grey (60, 60, 60); a shelf a square less a
//   1/15-square padding, dark slate blue (72, 61, 139), teal (0, 128, 128)
//   when requested; an agent a disc of radius 1/3 square, dark orange
//   (255, 140, 0), red when carrying, with a black line 2 pixels wide from
//   its centre one radius towards its direction.
//
// State bytes (after the env's key), jumanji's State order: grid (2 x H x W
// int32), agents (position.x, position.y, direction, is_carrying: A int32
// each), shelves (position.x, position.y: S int32 each; is_requested S uint8,
// jumanji's float32 0/1), request_queue (Q int32), step_count (int32),
// action_mask (A x 5 uint8), the State's key (two uint32).
#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kActions = 5;
constexpr int kForward = 1;
constexpr int kLeft = 2;
constexpr int kRight = 3;
constexpr int kToggleLoad = 4;

// constants.py's colours.
constexpr Rgb kGridColour{0, 0, 0};
constexpr Rgb kFloorColour{255, 255, 255};
constexpr Rgb kGoalColour{60, 60, 60};
constexpr Rgb kShelfColour{72, 61, 139};
constexpr Rgb kShelfRequestedColour{0, 128, 128};
constexpr Rgb kAgentColour{255, 140, 0};
constexpr Rgb kAgentLoadedColour{255, 0, 0};
constexpr Rgb kAgentDirectionColour{0, 0, 0};
constexpr int kDirections[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};  // (dx, dy) on the picture: up, right, down, left

// The picture's pitch: a square and one grid line, 480 pixels over the
// longer side, 4..40 pixels.
int cell_size(int h, int w) { return std::clamp(480 / std::max(h, w), 4, 40); }

struct Options {
  int shelf_rows = 2;
  int shelf_columns = 3;
  int column_height = 8;
  int num_agents = 4;
  int sensor_range = 1;
  int request_queue_size = 8;
  int time_limit = 500;
};

// The warehouse floor the options give: its size, highways, shelf squares and goals.
struct Layout {
  int h = 0;
  int w = 0;
  std::vector<std::uint8_t> highway;  // h * w
  std::vector<std::int32_t> shelf_x;  // the shelves' starting squares, in id order
  std::vector<std::int32_t> shelf_y;
  std::array<std::array<int, 2>, 2> goals{};  // (x, y)
};

Layout make_layout(const Options& o) {
  Layout l;
  l.h = (o.column_height + 1) * o.shelf_rows + 2;
  l.w = 3 * o.shelf_columns + 1;
  l.highway.assign(static_cast<std::size_t>(l.h * l.w), 0);
  for (int x = 0; x < l.h; ++x) {
    for (int y = 0; y < l.w; ++y) {
      const bool hw = y % 3 == 0 || x % (o.column_height + 1) == 0 || x == l.h - 1 ||
                      (x > l.h - (o.column_height + 3) && (y == l.w / 2 - 1 || y == l.w / 2));
      l.highway[static_cast<std::size_t>(x * l.w + y)] = hw ? 1 : 0;
      if (!hw) {
        l.shelf_x.push_back(x);
        l.shelf_y.push_back(y);
      }
    }
  }
  l.goals = {{{l.h - 1, l.w / 2 - 1}, {l.h - 1, l.w / 2}}};
  return l;
}

Options read_options(const Config& c) {
  Options o;
  o.shelf_rows = static_cast<int>(c.get_int_in("shelf_rows", 1, 32));
  o.shelf_columns = static_cast<int>(c.get_int_in("shelf_columns", 1, 31));
  if (o.shelf_columns % 2 != 1) {
    throw std::invalid_argument("RobotWarehouse's shelf_columns must be odd, got " + std::to_string(o.shelf_columns));
  }
  o.column_height = static_cast<int>(c.get_int_in("column_height", 1, 32));
  const Layout l = make_layout(o);
  if (l.shelf_x.size() < 2) {
    throw std::invalid_argument("RobotWarehouse's shelf_rows, shelf_columns and column_height give " +
                                std::to_string(l.shelf_x.size()) + " shelves, expected at least 2");
  }
  o.num_agents = static_cast<int>(c.get_int_in("num_agents", 1, std::min<std::int64_t>(kMaxAgents, l.h * l.w)));
  o.sensor_range = static_cast<int>(c.get_int_in("sensor_range", 1, 5));
  o.request_queue_size = static_cast<int>(
      c.get_int_in("request_queue_size", 1, static_cast<std::int64_t>(l.shelf_x.size()) - 1));
  o.time_limit = static_cast<int>(c.get_int_in("time_limit", 1, std::numeric_limits<std::int32_t>::max() - 1));
  return o;
}

int num_obs_features(int sensor_range) {
  const int sensors = (1 + 2 * sensor_range) * (1 + 2 * sensor_range);
  return 8 + (sensors - 1) * 5 + sensors * 2;
}

class RobotWarehouse final : public JumanjiEnv {
 public:
  explicit RobotWarehouse(const Options& o)
      : JumanjiEnv(o.num_agents),
        o_(o),
        l_(make_layout(o)),
        a_(static_cast<std::size_t>(o.num_agents)),
        s_(l_.shelf_x.size()),
        grid_(static_cast<std::size_t>(2 * l_.h * l_.w), 0),
        x_(a_),
        y_(a_),
        dir_(a_),
        carrying_(a_),
        shelf_x_(s_),
        shelf_y_(s_),
        requested_(s_),
        queue_(static_cast<std::size_t>(o.request_queue_size)),
        mask_(a_ * kActions),
        cells_(a_),
        not_in_queue_(s_ - queue_.size()),
        perm_(not_in_queue_.size()) {}

 protected:
  void new_episode(Key key) override {
    std::array<Key, 3> subs{};
    for (Key& sub : subs) {
      const auto [next, k] = jax_random::split2(key);
      key = next;
      sub = k;
    }
    state_key_ = key;
    jax_random::choice_no_replace(subs[0], cells_.data(), a_, static_cast<std::size_t>(l_.h * l_.w));
    jax_random::choice(subs[1], dir_.data(), a_, 4);
    jax_random::choice_no_replace(subs[2], queue_.data(), queue_.size(), s_);
    std::fill(grid_.begin(), grid_.end(), 0);
    for (std::size_t i = 0; i < a_; ++i) {
      x_[i] = cells_[i] / l_.w;
      y_[i] = cells_[i] % l_.w;
      carrying_[i] = 0;
      agent_cell(x_[i], y_[i]) = static_cast<std::int32_t>(i + 1);
    }
    std::fill(requested_.begin(), requested_.end(), 0);
    for (const std::int32_t q : queue_) requested_[static_cast<std::size_t>(q)] = 1;
    for (std::size_t s = 0; s < s_; ++s) {
      shelf_x_[s] = l_.shelf_x[s];
      shelf_y_[s] = l_.shelf_y[s];
      shelf_cell(shelf_x_[s], shelf_y_[s]) = static_cast<std::int32_t>(s + 1);
    }
    step_count_ = 0;
    compute_action_mask();
  }

  Outcome play(const Action& action, double* rewards) override {
    for (std::size_t i = 0; i < a_; ++i) {
      const auto requested = static_cast<std::size_t>(action.discrete(i));
      const int act = mask_[i * kActions + requested] != 0 ? static_cast<int>(requested) : 0;
      act_agent(i, act);
    }
    bool collision = false;
    for (std::size_t i = 0; i < a_; ++i) {
      collision = collision || agent_cell(x_[i], y_[i]) != static_cast<std::int32_t>(i + 1);
    }
    float reward = 0.0f;
    for (const auto& goal : l_.goals) {
      const std::int32_t shelf_id = shelf_cell(goal[0], goal[1]);
      const bool in_queue = std::find(queue_.begin(), queue_.end(), shelf_id - 1) != queue_.end();
      if (shelf_id == 0 || !in_queue) continue;
      const auto [next, request_key] = jax_random::split2(state_key_);
      state_key_ = next;
      // setdiff1d (sorted): the queue holds request_queue_size distinct shelves, the rest fill not_in_queue_.
      std::size_t k = 0;
      for (std::size_t s = 0; s < s_; ++s) {
        if (std::find(queue_.begin(), queue_.end(), static_cast<std::int32_t>(s)) == queue_.end()) {
          not_in_queue_.at(k++) = static_cast<std::int32_t>(s);
        }
      }
      jax_random::permutation_indices(request_key, perm_.data(), perm_.size());
      const std::int32_t new_id = not_in_queue_[static_cast<std::size_t>(perm_[0])];
      *std::find(queue_.begin(), queue_.end(), shelf_id - 1) = new_id;
      reward += 1.0f;
      requested_[static_cast<std::size_t>(shelf_id - 1)] = 0;
      requested_[static_cast<std::size_t>(new_id)] = 1;
    }
    for (std::size_t i = 0; i < a_; ++i) rewards[i] = static_cast<double>(reward);
    ++step_count_;
    compute_action_mask();
    return {.terminated = collision || step_count_ >= o_.time_limit};
  }

  void observe(const Output& out) const override {
    const int n = num_obs_features(o_.sensor_range);
    std::int32_t* views = out.obs_as<std::int32_t>(0);
    for (std::size_t i = 0; i < a_; ++i) agent_view(i, views + i * static_cast<std::size_t>(n), n);
    bool* mask = out.obs_as<bool>(1);
    for (std::size_t k = 0; k < mask_.size(); ++k) mask[k] = mask_[k] != 0;
    std::fill_n(out.obs_as<std::int32_t>(2), a_, step_count_);
    std::int32_t* shelves = out.info_as<std::int32_t>(0);
    bool* requested = out.info_as<bool>(1);
    for (std::size_t s = 0; s < s_; ++s) {
      shelves[2 * s] = shelf_x_[s];
      shelves[2 * s + 1] = shelf_y_[s];
      requested[s] = requested_[s] != 0;
    }
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, grid_);
    for (const auto* v : {&x_, &y_, &dir_, &carrying_}) append_values(bytes, *v);
    append_values(bytes, shelf_x_);
    append_values(bytes, shelf_y_);
    append_values(bytes, requested_);
    append_values(bytes, queue_);
    append(bytes, step_count_);
    append_values(bytes, mask_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader r(bytes, "RobotWarehouse");
    auto grid = read_values<std::int32_t>(r, grid_.size(), "grid");
    auto x = read_values<std::int32_t>(r, a_, "agents.position.x");
    auto y = read_values<std::int32_t>(r, a_, "agents.position.y");
    auto dir = read_values<std::int32_t>(r, a_, "agents.direction");
    auto carrying = read_values<std::int32_t>(r, a_, "agents.is_carrying");
    auto shelf_x = read_values<std::int32_t>(r, s_, "shelves.position.x");
    auto shelf_y = read_values<std::int32_t>(r, s_, "shelves.position.y");
    auto requested = read_values<std::uint8_t>(r, s_, "shelves.is_requested");
    auto queue = read_values<std::int32_t>(r, queue_.size(), "request_queue");
    const auto step_count = r.read<std::int32_t>("step_count");
    auto mask = read_values<std::uint8_t>(r, mask_.size(), "action_mask");
    const Key key = read_key(r);
    r.done();
    const auto cells = static_cast<std::size_t>(l_.h * l_.w);
    check_all(std::vector<std::int32_t>(grid.begin(), grid.begin() + static_cast<std::ptrdiff_t>(cells)), 0,
              static_cast<long long>(s_), "grid (shelves)");
    check_all(std::vector<std::int32_t>(grid.begin() + static_cast<std::ptrdiff_t>(cells), grid.end()), 0,
              static_cast<long long>(a_), "grid (agents)");
    check_all(x, 0, l_.h - 1, "agents.position.x");
    check_all(y, 0, l_.w - 1, "agents.position.y");
    check_all(dir, 0, 3, "agents.direction");
    check_all(carrying, 0, 1, "agents.is_carrying");
    check_all(shelf_x, 0, l_.h - 1, "shelves.position.x");
    check_all(shelf_y, 0, l_.w - 1, "shelves.position.y");
    check_all(requested, 0, 1, "shelves.is_requested");
    check_all(queue, 0, static_cast<long long>(s_) - 1, "request_queue");
    std::vector<std::int32_t> sorted = queue;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      throw std::invalid_argument("state's request_queue repeats shelf " +
                                  std::to_string(*std::adjacent_find(sorted.begin(), sorted.end())));
    }
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    check_all(mask, 0, 1, "action_mask");
    grid_ = std::move(grid);
    x_ = std::move(x);
    y_ = std::move(y);
    dir_ = std::move(dir);
    carrying_ = std::move(carrying);
    shelf_x_ = std::move(shelf_x);
    shelf_y_ = std::move(shelf_y);
    requested_ = std::move(requested);
    queue_ = std::move(queue);
    step_count_ = step_count;
    mask_ = std::move(mask);
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const int p = Board(frame, l_.h, l_.w).cell;
    const int pad = std::max(1, p / 15);
    // The square (x, y) inside its grid lines, less `inset` pixels a side.
    const auto square = [&](int x, int y, int inset, Rgb colour) {
      canvas.rect(y * p + 1 + inset, x * p + 1 + inset, (y + 1) * p - inset, (x + 1) * p - inset, colour);
    };
    canvas.fill(kGridColour);
    for (int x = 0; x < l_.h; ++x) {
      for (int y = 0; y < l_.w; ++y) square(x, y, 0, kFloorColour);
    }
    for (const auto& [x, y] : l_.goals) square(x, y, 0, kGoalColour);
    for (std::size_t s = 0; s < s_; ++s) {
      square(shelf_x_[s], shelf_y_[s], pad, requested_[s] != 0 ? kShelfRequestedColour : kShelfColour);
    }
    const double radius = (p - 1) / 3.0;
    for (std::size_t i = 0; i < a_; ++i) {
      const double cx = y_[i] * p + (p + 1) / 2.0;
      const double cy = x_[i] * p + (p + 1) / 2.0;
      canvas.disc(cx, cy, radius, carrying_[i] != 0 ? kAgentLoadedColour : kAgentColour);
      const auto& [dx, dy] = kDirections[dir_[i]];
      canvas.line(cx, cy, cx + dx * radius, cy + dy * radius, kAgentDirectionColour, 2);
    }
  }

  std::int32_t& shelf_cell(int x, int y) { return grid_[static_cast<std::size_t>(x * l_.w + y)]; }
  std::int32_t& agent_cell(int x, int y) { return grid_[static_cast<std::size_t>((l_.h + x) * l_.w + y)]; }
  std::int32_t shelf_at(int x, int y) const { return grid_[static_cast<std::size_t>(x * l_.w + y)]; }
  std::int32_t agent_at(int x, int y) const { return grid_[static_cast<std::size_t>((l_.h + x) * l_.w + y)]; }
  bool highway(int x, int y) const { return l_.highway[static_cast<std::size_t>(x * l_.w + y)] != 0; }

  // get_new_position_after_forward: one square on, clamped to the floor.
  std::array<std::int32_t, 2> forward(std::size_t i) const {
    std::int32_t x = x_[i], y = y_[i];
    switch (dir_[i]) {
      case 0: x = std::max(0, x - 1); break;
      case 1: y = std::min(l_.w - 1, y + 1); break;
      case 2: x = std::min(l_.h - 1, x + 1); break;
      default: y = std::max(0, y - 1); break;
    }
    return {x, y};
  }

  // A shelf id's index into the shelves, as jax indexes: id 0 (no shelf) is -1, the last one.
  std::size_t shelf_index(std::int32_t shelf_id) const {
    return shelf_id > 0 ? static_cast<std::size_t>(shelf_id - 1) : s_ - 1;
  }

  // env._update_state for agent i.
  void act_agent(std::size_t i, int act) {
    const std::int32_t id = static_cast<std::int32_t>(i + 1);
    if (act == kForward) {
      const std::int32_t cx = x_[i], cy = y_[i];
      const auto [nx, ny] = forward(i);
      x_[i] = nx;
      y_[i] = ny;
      agent_cell(cx, cy) = 0;
      agent_cell(nx, ny) = id;
      if (carrying_[i] != 0) {
        const std::int32_t shelf_id = shelf_at(cx, cy);
        const std::size_t s = shelf_index(shelf_id);
        shelf_x_[s] = nx;
        shelf_y_[s] = ny;
        shelf_cell(cx, cy) = 0;
        shelf_cell(nx, ny) = shelf_id;
      }
    } else if (act == kLeft || act == kRight) {
      dir_[i] = (dir_[i] + (act == kLeft ? 3 : 1)) % 4;
    } else if (act == kToggleLoad && carrying_[i] == 0) {
      if (shelf_at(x_[i], y_[i]) > 0) carrying_[i] = 1;
    } else if (!highway(x_[i], y_[i])) {
      carrying_[i] = 0;  // a no-op or toggle off a highway drops the shelf
    }
  }

  // utils.compute_action_mask: only a forward carrying a shelf onto another shelf is refused.
  void compute_action_mask() {
    for (std::size_t i = 0; i < a_; ++i) {
      const auto [tx, ty] = forward(i);
      const bool moves = tx != x_[i] || ty != y_[i];
      for (int act = 0; act < kActions; ++act) {
        const bool blocked = act == kForward && carrying_[i] != 0 && moves && shelf_at(tx, ty) != 0;
        mask_[i * kActions + static_cast<std::size_t>(act)] = blocked ? 0 : 1;
      }
    }
  }

  // utils.make_agent_observation for agent i into out[0..n).
  void agent_view(std::size_t i, std::int32_t* out, int n) const {
    std::fill_n(out, n, 0);
    int idx = 0;
    // jax.lax.dynamic_update_slice: a write that would run past the end is moved back to fit.
    const auto write = [&](std::initializer_list<std::int32_t> data) {
      const int len = static_cast<int>(data.size());
      const int start = std::clamp(idx, 0, n - len);
      std::copy(data.begin(), data.end(), out + start);
      idx += len;
    };
    const auto one_hot = [](std::int32_t d, int k) { return d == k ? 1 : 0; };
    write({x_[i], y_[i], carrying_[i]});
    write({one_hot(dir_[i], 0), one_hot(dir_[i], 1), one_hot(dir_[i], 2), one_hot(dir_[i], 3)});
    write({highway(x_[i], y_[i]) ? 1 : 0});
    const int r = o_.sensor_range;
    const auto cell = [&](int dx, int dy, bool agents) -> std::int32_t {
      const int x = x_[i] - r + dx, y = y_[i] - r + dy;
      if (x < 0 || x >= l_.h || y < 0 || y >= l_.w) return 0;
      return agents ? agent_at(x, y) : shelf_at(x, y);
    };
    const int side = 2 * r + 1;
    const std::int32_t self = static_cast<std::int32_t>(i + 1);
    for (int dx = 0; dx < side; ++dx) {
      for (int dy = 0; dy < side; ++dy) {
        const std::int32_t v = cell(dx, dy, true);
        if (v == self) continue;
        if (v == 0) {
          idx += 5;
          continue;
        }
        const std::int32_t d = dir_[static_cast<std::size_t>(v - 1)];
        write({1, one_hot(d, 0), one_hot(d, 1), one_hot(d, 2), one_hot(d, 3)});
      }
    }
    for (int dx = 0; dx < side; ++dx) {
      for (int dy = 0; dy < side; ++dy) {
        const std::int32_t v = cell(dx, dy, false);
        if (v == 0) {
          idx += 2;
          continue;
        }
        write({1, requested_[static_cast<std::size_t>(v - 1)] != 0 ? 1 : 0});
      }
    }
  }

  Options o_;
  Layout l_;
  std::size_t a_;
  std::size_t s_;
  std::vector<std::int32_t> grid_;  // [shelves, agents] x h x w: id + 1, 0 for none
  std::vector<std::int32_t> x_, y_, dir_, carrying_;
  std::vector<std::int32_t> shelf_x_, shelf_y_;
  std::vector<std::uint8_t> requested_;
  std::vector<std::int32_t> queue_;
  std::int32_t step_count_ = 0;
  std::vector<std::uint8_t> mask_;  // A x 5, the State's action_mask
  Key state_key_{};
  // Scratch, sized once: the agents' squares at a reset, the shelves out of the request queue and their
  // permutation (jax_random's permutation still allocates its own working arrays).
  std::vector<std::int32_t> cells_;
  std::vector<std::int32_t> not_in_queue_;
  std::vector<std::int32_t> perm_;
};

EnvSpec warehouse_spec(const Config& config) {
  const Options o = read_options(config);
  const Layout l = make_layout(o);
  const std::int64_t a = o.num_agents;
  const double lowest = std::numeric_limits<std::int32_t>::min();
  const double highest = std::numeric_limits<std::int32_t>::max();
  return EnvSpec{
      .obs = {ArraySpec{.name = "agents_view", .dtype = DType::kInt32, .shape = {a, num_obs_features(o.sensor_range)},
                        .low = {lowest}, .high = {highest}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {a, kActions}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .shape = {a}, .low = {0.0},
                        .high = {static_cast<double>(o.time_limit)}}},
      .obs_kind = ObsKind::kDict,
      .action = agents_action(a, kActions),
      // The State's shelves (row, column; requested), as EnvPool 1.2.7's info gives them.
      .info = {ArraySpec{.name = "shelf_positions", .dtype = DType::kInt32,
                         .shape = {static_cast<std::int64_t>(l.shelf_x.size()), 2}},
               ArraySpec{.name = "shelf_requested", .dtype = DType::kBool,
                         .shape = {static_cast<std::int64_t>(l.shelf_x.size())}}},
      .render_width = l.w * cell_size(l.h, l.w) + 1,
      .render_height = l.h * cell_size(l.h, l.w) + 1,
      .render_fps = 5,
      .num_agents = o.num_agents,
  };
}

std::unique_ptr<Env> make_warehouse(const Config& config) {
  return std::make_unique<RobotWarehouse>(read_options(config));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiRobotWarehouse",
    .options =
        {
            {"shelf_rows", std::int64_t{2}, "Rows of shelf clusters (the default generator's shelf_rows), 1..32."},
            {"shelf_columns", std::int64_t{3}, "Columns of shelf clusters, odd, 1..31 (the generator's)."},
            {"column_height", std::int64_t{8}, "Each cluster's height (the generator's column_height), 1..32."},
            {"num_agents", std::int64_t{4}, "Robots (the generator's num_agents)."},
            {"sensor_range", std::int64_t{1}, "How many squares around it a robot sees (the generator's), 1..5."},
            {"request_queue_size", std::int64_t{8}, "Shelves requested at any time (the generator's)."},
            {"time_limit", std::int64_t{500},
             "Steps after which the episode ends (the env's time_limit; jumanji counts it a termination)."},
        },
    .spec = warehouse_spec,
    .create = make_warehouse,
});

}  // namespace rlpool::jumanji
