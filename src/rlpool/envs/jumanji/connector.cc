// Jumanji's Connector (jumanji 1.1.2, Connector-v3) in C++: num_agents
// agents on a grid_size x grid_size grid each walk from their start to their
// target, leaving a path no agent may cross. A multi-agent env: one action
// per agent, one reward per agent. Follows
// jumanji/environments/routing/connector/:
// - generator/random_walk_generator.py RandomWalkGenerator (l.46-323):
//   __call__ (key, board_key = split(key); the State's key is `key`),
//   generate_board (key, step_key = split(board_key)), _initialize_agents and
//   _initialize_starts_and_first_move (a scan over the agents: start_key,
//   first_move_key, next_key = split(key, 3); the start is choice(start_key,
//   n * n, p=free & not surrounded), the first move choice(first_move_key,
//   n * n, p=free & adjacent), unravelled), then random walks while a move is
//   legal and step_count < max_steps (_step, _step_agents, _select_action,
//   _calculate_action_probs: per agent choice over the four moves with p =
//   softmax(the moves' dot products with the displacement from the start /
//   temperature) * mask, normalised); the walk's ends are the targets, every
//   agent stands on its start again.
// - utils.py: get_action_masks (l.148-209), is_valid_position (l.105-127),
//   move_position (l.67-84), is_repeated_later (l.212-245),
//   get_surrounded_mask (l.248-271: every neighbour on the grid occupied),
//   get_adjacency_mask (l.274-310: written N, S, E, W into a zero mask with
//   JAX's scatter: a -1 index wraps to the last row/column, past the end is
//   dropped, the last write wins).
// - env.py Connector.reset (l.140-159), step (l.161-215), _step_agents
//   (l.217-257): the State's action_mask decides a move's legality, a
//   collision puts the agent with the lower id back; the grid's scatter-adds
//   (old squares become path, new ones position; reaching the own target turns
//   it into the position) are applied as JAX does; _get_extras (l.259-270);
//   observation_spec (l.309-345).
// - reward.py DenseRewardFn (l.46-74): per agent 1 on connecting, -0.03 each
//   step while not connected (float32).
// - The TimeStep: every agent connected or blocked ends the episode with a
//   termination; step_count >= time_limit otherwise with a truncation.
// - render: viewer.py ConnectorViewer (l.33-155) as flat colours, row 0 at
//   the top: a square cell_size pixels, edged black; agent i's colour is the
//   viewer's colormap(i / A) of matplotlib's "hsv" colormap resampled to
//   A + 1 colours (jumanji_colormap.h); an agent's position square in its
//   colour, its path squares in its colour at alpha 0.25 over white, its
//   target square white with the middle half (a square half as wide) in its
//   colour; an empty square white.
// XLA's float32 exp (a Cephes polynomial with fused multiply-adds, results
// below the normal range flushed to zero) is reproduced for the softmax.
// Observation entries have the agent axis first: action_mask is jumanji's
// per-agent rows; grid and step_count are repeated on every agent's row.
//
// State bytes (after the env's key), in the State's field order: grid
// (n * n int32), step_count (int32), agents.id (A int32), agents.start,
// agents.target, agents.position (A x (row, col) int32 each), the State's key
// (two uint32), action_mask (A x 5 uint8, 0/1).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_colormap.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kActions = 5;                                                 // no-op, up, right, down, left
constexpr int kMoves[kActions][2] = {{0, 0}, {-1, 0}, {0, 1}, {1, 0}, {0, -1}};  // move_position
constexpr std::int32_t kPath = 1;
constexpr std::int32_t kPosition = 2;
constexpr std::int32_t kTarget = 3;
constexpr std::int64_t kMaxSide = 128;
constexpr float kConnectedReward = 1.0f;
constexpr float kTimestepReward = -0.03f;

std::int32_t path_value(std::int32_t id) { return kPath + 3 * id; }
std::int32_t position_value(std::int32_t id) { return kPosition + 3 * id; }
std::int32_t target_value(std::int32_t id) { return kTarget + 3 * id; }
// utils.is_target: a positive value that is some agent's target.
bool is_target(std::int32_t v) { return v > 0 && v % 3 == 0; }

// XLA's float32 exp on the CPU: n = floor(x * log2(e) + 0.5) (fused), the
// remainder by ln 2 in two parts, Cephes' degree-5 polynomial (fused
// multiply-adds), times 2^n; a result below the normal range is 0.
float xla_exp(float in) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kC1 = 0.693359375f;
  constexpr float kC2 = -2.12194440e-4f;
  constexpr std::array<float, 6> kP = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                                       4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};
  float x = std::fmin(std::fmax(in, -87.8f), 88.8f);
  float n = std::floor(std::fma(x, kLog2e, 0.5f));
  n = std::fmin(std::fmax(n, -127.0f), 127.0f);
  x = std::fma(-kC1, n, x);
  x = std::fma(-kC2, n, x);
  float z = std::fma(x, kP[0], kP[1]);
  for (std::size_t i = 2; i < kP.size(); ++i) z = std::fma(z, x, kP[i]);
  z = std::fma(z, x * x, x);
  z = 1.0f + z;
  const auto pow2 = std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23);
  const float r = z * pow2;
  return std::fabs(r) < 0x1p-126f ? 0.0f : r;
}

// JAX's index rules: a gather (x[i]) counts a negative index from the end and
// clamps into the array; a scatter (x.at[i]) counts from the end and drops
// what still lies outside (-1 from gather_index/scatter_index: dropped).
int gather_index(int i, int size) { return std::clamp(i < 0 ? i + size : i, 0, size - 1); }
int scatter_index(int i, int size) {
  const int j = i < 0 ? i + size : i;
  return j >= 0 && j < size ? j : -1;
}

constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kBlack{0, 0, 0};

// The viewer's colour of agent `id` of `agents`: colormap(id / agents) of
// get_cmap("hsv", agents + 1), a table of agents + 1 colours at j / agents.
Rgb agent_colour(int id, int agents) { return hsv_at(agents + 1, id * (1.0 / agents)); }

// Over white at alpha 0.25.
Rgb faded(Rgb c) {
  const auto f = [](std::uint8_t v) { return static_cast<std::uint8_t>(std::lround(0.25 * v + 0.75 * 255.0)); };
  return {f(c.r), f(c.g), f(c.b)};
}

// The picture's square: 480 pixels over the side, 2..48 pixels.
int cell_size(std::int64_t n) { return static_cast<int>(std::clamp<std::int64_t>(480 / n, 2, 48)); }

struct Point {
  std::int32_t row = 0;
  std::int32_t col = 0;
  bool operator==(const Point&) const = default;
};

class Connector final : public JumanjiEnv {
 public:
  Connector(const Config& config, std::size_t connections_at, std::size_t ratio_at, std::size_t length_at)
      : JumanjiEnv(static_cast<int>(config.get_int("num_agents"))),
        n_(static_cast<int>(config.get_int("grid_size"))),
        a_(agents()),
        time_limit_(static_cast<int>(config.get_int("time_limit"))),
        max_steps_(max_steps(config)),
        connections_at_(connections_at),
        ratio_at_(ratio_at),
        length_at_(length_at),
        grid_(static_cast<std::size_t>(n_ * n_), 0),
        ids_(static_cast<std::size_t>(a_), 0),
        start_(static_cast<std::size_t>(a_)),
        target_(static_cast<std::size_t>(a_)),
        position_(static_cast<std::size_t>(a_)),
        mask_(static_cast<std::size_t>(a_ * kActions), 0),
        next_(static_cast<std::size_t>(a_)),
        was_connected_(static_cast<std::size_t>(a_)),
        collided_(static_cast<std::size_t>(a_)),
        old_values_(static_cast<std::size_t>(a_)),
        new_values_(static_cast<std::size_t>(a_)) {
    for (int i = 0; i < a_; ++i) colours_.push_back(agent_colour(i, a_));
  }

  // RandomWalkGenerator's max_steps: 0 is jumanji's None, int(grid_size * 1.5).
  static int max_steps(const Config& config) {
    const auto m = config.get_int("max_steps");
    return static_cast<int>(m > 0 ? m : config.get_int("grid_size") * 3 / 2);
  }

 protected:
  void new_episode(Key key) override {
    const auto [state_key, board_key] = jax_random::split2(key);
    state_key_ = state_key;
    const auto [init_key, step_key] = jax_random::split2(board_key);
    initialize_agents(init_key);
    update_masks();
    random_walks(step_key);
    // The walks' ends are the targets; every agent back on its start.
    std::fill(grid_.begin(), grid_.end(), 0);
    for (int i = 0; i < a_; ++i) {
      target_[static_cast<std::size_t>(i)] = position_[static_cast<std::size_t>(i)];
      position_[static_cast<std::size_t>(i)] = start_[static_cast<std::size_t>(i)];
    }
    for (int i = 0; i < a_; ++i) scatter_set(start_[static_cast<std::size_t>(i)], position_value(i));
    for (int i = 0; i < a_; ++i) scatter_set(target_[static_cast<std::size_t>(i)], target_value(i));
    step_count_ = 0;
    update_masks();
  }

  Outcome play(const Action& action, double* rewards) override {
    const auto count = static_cast<std::size_t>(a_);
    // The step's per-agent scratch lives in the env (sized once): no allocation per step.
    std::vector<Point>& next = next_;
    std::vector<std::uint8_t>& was_connected = was_connected_;
    for (std::size_t i = 0; i < count; ++i) {
      const auto act = static_cast<int>(action.discrete(i));
      was_connected[i] = connected(i);
      next[i] = position_[i];
      if (mask_[i * kActions + static_cast<std::size_t>(act)] != 0) {
        next[i].row += kMoves[act][0];
        next[i].col += kMoves[act][1];
      }
    }
    const std::vector<std::uint8_t>& collided = repeated_later(next, collided_);
    // Every value from the grid before the step, then the old squares' adds,
    // then the new squares' (two scatters, as jumanji's).
    std::vector<std::int32_t>& old_values = old_values_;
    std::vector<std::int32_t>& new_values = new_values_;
    std::fill(old_values.begin(), old_values.end(), 0);
    std::fill(new_values.begin(), new_values.end(), 0);
    for (std::size_t i = 0; i < count; ++i) {
      if (next[i] == position_[i] || collided[i]) continue;  // a no-op, or put back: no change
      old_values[i] = kPath - kPosition;
      new_values[i] = is_target(gather(next[i])) ? kPosition - kTarget : position_value(static_cast<std::int32_t>(i));
    }
    for (std::size_t i = 0; i < count; ++i) scatter_add(position_[i], old_values[i]);
    for (std::size_t i = 0; i < count; ++i) scatter_add(next[i], new_values[i]);
    for (std::size_t i = 0; i < count; ++i) {
      if (!collided[i]) position_[i] = next[i];
    }
    ++step_count_;
    update_masks();
    bool done = true;
    for (std::size_t i = 0; i < count; ++i) {
      const bool now = connected(i);
      const float connected_reward = kConnectedReward * ((!was_connected[i] && now) ? 1.0f : 0.0f);
      const float timestep_reward = kTimestepReward * (!was_connected[i] ? 1.0f : 0.0f);
      rewards[i] = static_cast<double>(connected_reward + timestep_reward);
      const auto* m = &mask_[i * kActions];
      const bool blocked = std::none_of(m + 1, m + kActions, [](std::uint8_t v) { return v != 0; });
      done = done && (now || blocked);
    }
    const bool timeout = step_count_ >= time_limit_;
    return {.terminated = done, .truncated = timeout && !done};
  }

  void observe(const Output& out) const override {
    auto* grid = out.obs_as<std::int32_t>(0);
    bool* mask = out.obs_as<bool>(1);
    auto* step_count = out.obs_as<std::int32_t>(2);
    for (int i = 0; i < a_; ++i) {
      std::copy(grid_.begin(), grid_.end(), grid + static_cast<std::size_t>(i) * grid_.size());
      step_count[i] = step_count_;
    }
    for (std::size_t j = 0; j < mask_.size(); ++j) mask[j] = mask_[j] != 0;
    std::int32_t connections = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(a_); ++i) connections += connected(i) ? 1 : 0;
    std::int32_t length = a_;  // the agents' heads
    for (const std::int32_t v : grid_) length += ((v - 1) % 3 + 3) % 3 == 0 ? 1 : 0;  // a path square
    *out.info_as<std::int32_t>(connections_at_) = connections;
    // jnp.mean: XLA divides by the constant count as a product with its reciprocal.
    *out.info_as<float>(ratio_at_) = static_cast<float>(connections) * (1.0f / static_cast<float>(a_));
    *out.info_as<std::int32_t>(length_at_) = length;
  }

  std::string save() const override {
    std::string bytes;
    append_values(bytes, grid_);
    append(bytes, step_count_);
    append_values(bytes, ids_);
    append_values(bytes, start_);
    append_values(bytes, target_);
    append_values(bytes, position_);
    append_key(bytes, state_key_);
    append_values(bytes, mask_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    const auto count = static_cast<std::size_t>(a_);
    StateReader reader(bytes, "Connector");
    auto grid = read_values<std::int32_t>(reader, grid_.size(), "grid");
    const auto step_count = reader.read<std::int32_t>("step_count");
    auto ids = read_values<std::int32_t>(reader, count, "agents.id");
    auto start = read_values<Point>(reader, count, "agents.start");
    auto target = read_values<Point>(reader, count, "agents.target");
    auto position = read_values<Point>(reader, count, "agents.position");
    const Key key = read_key(reader);
    auto mask = read_values<std::uint8_t>(reader, mask_.size(), "action_mask");
    reader.done();
    check_all(grid, 0, 3 * a_, "grid");
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    check_all(ids, 0, a_ - 1, "agents.id");
    const auto check_points = [](const std::vector<Point>& points, int low, int high, const char* field) {
      for (const Point& p : points) {
        check_range(p.row, low, high, field);
        check_range(p.col, low, high, field);
      }
    };
    check_points(start, 0, n_ - 1, "agents.start");
    check_points(target, 0, n_ - 1, "agents.target");
    // One move past the edge: where a move the State's action_mask allows
    // (a mask not computed from the grid) can take an agent.
    check_points(position, -1, n_, "agents.position");
    check_all(mask, 0, 1, "action_mask");
    grid_ = std::move(grid);
    step_count_ = step_count;
    ids_ = std::move(ids);
    start_ = std::move(start);
    target_ = std::move(target);
    position_ = std::move(position);
    state_key_ = key;
    mask_ = std::move(mask);
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const Board board(frame, n_, n_);
    const int gap = board.cell >= 8 ? 1 : 0;
    canvas.fill(kBlack);
    for (int r = 0; r < n_; ++r) {
      for (int c = 0; c < n_; ++c) {
        const std::int32_t v = at(r, c);
        if (v <= 0) {
          board.paint(canvas, r, c, kWhite, gap);
          continue;
        }
        const Rgb colour = colours_[static_cast<std::size_t>((v - 1) / 3)];
        if (is_target(v)) {
          board.paint(canvas, r, c, kWhite, gap);
          const int quarter = static_cast<int>(std::lround(board.cell / 4.0));
          canvas.rect(board.x0(c) + quarter, board.y0(r) + quarter, board.x0(c) + board.cell - quarter,
                      board.y0(r) + board.cell - quarter, colour);
        } else {
          board.paint(canvas, r, c, (v - kPath) % 3 == 0 ? faded(colour) : colour, gap);
        }
      }
    }
  }

  bool connected(std::size_t i) const { return position_[i] == target_[i]; }
  std::int32_t gather(Point p) const {
    return grid_[static_cast<std::size_t>(gather_index(p.row, n_) * n_ + gather_index(p.col, n_))];
  }
  void scatter_set(Point p, std::int32_t v) {
    const int row = scatter_index(p.row, n_);
    const int col = scatter_index(p.col, n_);
    if (row >= 0 && col >= 0) grid_[static_cast<std::size_t>(row * n_ + col)] = v;
  }
  void scatter_add(Point p, std::int32_t v) {
    const int row = scatter_index(p.row, n_);
    const int col = scatter_index(p.col, n_);
    if (row >= 0 && col >= 0) grid_[static_cast<std::size_t>(row * n_ + col)] += v;
  }

  // utils.is_repeated_later: the same square comes later in `points`; written into `out`, returned.
  static const std::vector<std::uint8_t>& repeated_later(const std::vector<Point>& points,
                                                         std::vector<std::uint8_t>& out) {
    out.assign(points.size(), 0);
    for (std::size_t i = 0; i < points.size(); ++i) {
      for (std::size_t j = i + 1; j < points.size(); ++j) {
        if (points[i] == points[j]) out[i] = 1;
      }
    }
    return out;
  }

  // utils.get_action_masks: no-op always; a move onto the grid, onto an empty
  // square or the agent's own target, while the agent is not connected.
  void update_masks() {
    for (std::size_t i = 0; i < static_cast<std::size_t>(a_); ++i) {
      auto* m = &mask_[i * kActions];
      m[0] = 1;
      const bool free = !connected(i);
      for (int act = 1; act < kActions; ++act) {
        const Point p{position_[i].row + kMoves[act][0], position_[i].col + kMoves[act][1]};
        const bool inside = p.row >= 0 && p.row < n_ && p.col >= 0 && p.col < n_;
        const std::int32_t v = gather(p);
        m[act] = inside && (v == 0 || v == target_value(ids_[i])) && free ? 1 : 0;
      }
    }
  }

  // _initialize_agents: each agent's start and first move, in agent order.
  void initialize_agents(Key key) {
    std::fill(grid_.begin(), grid_.end(), 0);
    const auto cells = static_cast<std::size_t>(n_ * n_);
    std::vector<float> p(cells);
    for (int i = 0; i < a_; ++i) {
      std::array<Key, 3> keys{};
      jax_random::split(key, keys.data(), keys.size());
      key = keys[2];
      for (int r = 0; r < n_; ++r) {
        for (int c = 0; c < n_; ++c) {
          p[static_cast<std::size_t>(r * n_ + c)] = at(r, c) == 0 && !surrounded(r, c) ? 1.0f : 0.0f;
        }
      }
      std::int32_t flat = 0;
      jax_random::choice_p(keys[0], &flat, 1, p.data(), cells);
      const Point start{flat / n_, flat % n_};
      grid_[static_cast<std::size_t>(flat)] = path_value(i);
      // get_adjacency_mask's writes, in its order, then & free.
      std::vector<std::uint8_t> adjacent(cells, 0);
      const std::array<Point, 4> neighbours = {Point{start.row - 1, start.col}, Point{start.row + 1, start.col},
                                               Point{start.row, start.col + 1}, Point{start.row, start.col - 1}};
      for (const Point& q : neighbours) {
        const bool valid = q.row >= 0 && q.row < n_ && q.col >= 0 && q.col < n_;
        const int row = scatter_index(q.row, n_);
        const int col = scatter_index(q.col, n_);
        if (row >= 0 && col >= 0) adjacent[static_cast<std::size_t>(row * n_ + col)] = valid ? 1 : 0;
      }
      for (std::size_t j = 0; j < cells; ++j) p[j] = adjacent[j] != 0 && grid_[j] == 0 ? 1.0f : 0.0f;
      jax_random::choice_p(keys[1], &flat, 1, p.data(), cells);
      const Point first{flat / n_, flat % n_};
      grid_[static_cast<std::size_t>(flat)] = position_value(i);
      ids_[static_cast<std::size_t>(i)] = i;
      start_[static_cast<std::size_t>(i)] = start;
      target_[static_cast<std::size_t>(i)] = Point{-1, -1};
      position_[static_cast<std::size_t>(i)] = first;
    }
  }

  std::int32_t at(int row, int col) const { return grid_[static_cast<std::size_t>(row * n_ + col)]; }

  // get_surrounded_mask: every neighbour on the grid is occupied.
  bool surrounded(int row, int col) const {
    for (int act = 1; act < kActions; ++act) {
      const int r = row + kMoves[act][0];
      const int c = col + kMoves[act][1];
      if (r >= 0 && r < n_ && c >= 0 && c < n_ && at(r, c) <= 0) return false;
    }
    return true;
  }

  // generate_board's while_loop over _step: all agents walk at once.
  void random_walks(Key key) {
    const auto count = static_cast<std::size_t>(a_);
    std::vector<Key> keys(count);
    std::vector<Point> next(count);
    for (int step = 1; step < max_steps_ && any_move(); ++step) {
      const auto [walk_key, next_key] = jax_random::split2(key);
      key = next_key;
      jax_random::split(walk_key, keys.data(), count);
      for (std::size_t i = 0; i < count; ++i) next[i] = walk_target(keys[i], i);
      const std::vector<std::uint8_t>& collided = repeated_later(next, collided_);
      for (std::size_t i = 0; i < count; ++i) {
        if (collided[i]) next[i] = position_[i];
      }
      for (std::size_t i = 0; i < count; ++i) {
        if (!(next[i] == position_[i])) scatter_add(position_[i], kPath - kPosition);
      }
      for (std::size_t i = 0; i < count; ++i) {
        if (!(next[i] == position_[i])) scatter_add(next[i], position_value(static_cast<std::int32_t>(i)));
      }
      position_ = next;
      update_masks();
    }
  }

  bool any_move() const {
    for (std::size_t i = 0; i < mask_.size(); ++i) {
      if (i % kActions != 0 && mask_[i] != 0) return true;
    }
    return false;
  }

  // _select_action and move_position: where agent i's walk goes next.
  Point walk_target(Key key, std::size_t i) const {
    const auto* m = &mask_[i * kActions];
    const bool can_move = std::any_of(m + 1, m + kActions, [](std::uint8_t v) { return v != 0; });
    if (!can_move) return position_[i];
    const std::int32_t d0 = position_[i].row - start_[i].row;
    const std::int32_t d1 = position_[i].col - start_[i].col;
    const std::array<float, 4> dots = {static_cast<float>(-d0), static_cast<float>(d1), static_cast<float>(d0),
                                       static_cast<float>(-d1)};
    const float top = *std::max_element(dots.begin(), dots.end());
    std::array<float, 4> e{};
    for (std::size_t k = 0; k < 4; ++k) e[k] = xla_exp(dots[k] - top);
    const float sum = ((e[0] + e[1]) + e[2]) + e[3];
    std::array<float, 4> p{};
    for (std::size_t k = 0; k < 4; ++k) p[k] = (e[k] / sum) * (m[k + 1] != 0 ? 1.0f : 0.0f);
    const float total = ((p[0] + p[1]) + p[2]) + p[3];
    for (float& v : p) v = v / total;
    std::int32_t k = 0;
    jax_random::choice_p(key, &k, 1, p.data(), p.size());
    return Point{position_[i].row + kMoves[k + 1][0], position_[i].col + kMoves[k + 1][1]};
  }

  int n_;
  int a_;
  int time_limit_;
  int max_steps_;
  std::size_t connections_at_;
  std::size_t ratio_at_;
  std::size_t length_at_;
  std::vector<std::int32_t> grid_;
  std::vector<std::int32_t> ids_;
  std::vector<Point> start_;
  std::vector<Point> target_;
  std::vector<Point> position_;
  std::vector<std::uint8_t> mask_;  // kActions per agent, 0/1
  // A step's scratch, one entry per agent (sized when the env is made).
  std::vector<Point> next_;
  std::vector<std::uint8_t> was_connected_;
  std::vector<std::uint8_t> collided_;
  std::vector<std::int32_t> old_values_;
  std::vector<std::int32_t> new_values_;
  std::int32_t step_count_ = 0;
  Key state_key_{};
  std::vector<Rgb> colours_;  // the picture's colour of each agent
};

EnvSpec connector_spec(const Config& config) {
  const auto n = config.get_int_in("grid_size", 2, kMaxSide);
  const auto agents = config.get_int_in("num_agents", 1, std::min<std::int64_t>(kMaxAgents, n * n / 2));
  const auto time_limit = config.get_int_in("time_limit", 1, std::numeric_limits<std::int32_t>::max() - 1);
  config.get_int_in("max_steps", 0, std::numeric_limits<std::int32_t>::max() - 1);
  EnvSpec spec{
      .obs = {ArraySpec{.name = "grid", .dtype = DType::kInt32, .shape = {agents, n, n}, .low = {0.0},
                        .high = {static_cast<double>(3 * agents + kPath)}},
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {agents, kActions}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .shape = {agents}, .low = {0.0},
                        .high = {static_cast<double>(time_limit)}}},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {agents}, .low = {0.0},
                          .high = {static_cast<double>(kActions - 1)}},
      .info = {ArraySpec{.name = "num_connections", .dtype = DType::kInt32},
               ArraySpec{.name = "ratio_connections", .dtype = DType::kFloat32},
               ArraySpec{.name = "total_path_length", .dtype = DType::kInt32}},
      .render_width = static_cast<int>(n) * cell_size(n),
      .render_height = static_cast<int>(n) * cell_size(n),
      .render_fps = 5,
  };
  spec.num_agents = static_cast<int>(agents);
  return spec;
}

std::unique_ptr<Env> make_connector(const Config& config) {
  const EnvSpec spec = connector_spec(config);  // checks the options
  return std::make_unique<Connector>(config, info_index(spec.info, "num_connections"),
                                     info_index(spec.info, "ratio_connections"),
                                     info_index(spec.info, "total_path_length"));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiConnector",
    .options =
        {
            {"grid_size", std::int64_t{10}, "The grid's side (the default generator's grid_size), 2..128."},
            {"num_agents", std::int64_t{10},
             "The number of agents (the default generator's num_agents), 1..grid_size^2 / 2 (at most 256)."},
            {"time_limit", std::int64_t{50},
             "Steps after which the episode is truncated (Connector's time_limit)."},
            {"max_steps", std::int64_t{0},
             "The generator's random walks' step limit (RandomWalkGenerator's max_steps); 0, jumanji's None, is "
             "int(grid_size * 1.5)."},
        },
    .spec = connector_spec,
    .create = make_connector,
});

}  // namespace rlpool::jumanji
