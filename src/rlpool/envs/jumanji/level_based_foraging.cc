// Jumanji's LevelBasedForaging (jumanji 1.1.2, LevelBasedForaging-v0) in
// C++: num_agents agents with levels walk a grid_size x grid_size grid and
// load food items together; a food is eaten when the levels of the agents
// loading next to it add up to its level. Follows
// jumanji/environments/routing/lbf/:
// - generator.py RandomGenerator.__call__ (l.142-184): key_food, key_agents,
//   key_food_level, key_agent_level, key = split(key, 5); sample_food
//   (l.79-122): one key per food (split(key_food, num_food)), each food a
//   choice(k, grid_size**2, p=mask) off the grid's edge, masking its square
//   and the four flat neighbours (+-1, +-grid_size); the agents' mask is
//   `mask.at[food_positions].set(False)` on the 2-d grid, which (an (F, 2)
//   index array) clears the whole ROWS numbered by every food's row and
//   column, kept as jumanji does it; sample_agents (l.124-140): choice(
//   key_agents, grid_size**2, (num_agents,), replace=False, p=mask); levels
//   randint(1, max_agent_level + 1); the food's level the sum of the three
//   lowest agent levels (force_coop), else randint(key_food_level, 1, that + 1).
// - utils.py update_agent_positions, simulate_agent_movement and
//   fix_collisions (l.54-156): each agent moves unless it would leave the
//   grid or land on another agent's (old) square or an uneaten food; agents
//   landing on the same square all stay; loading is action == LOAD. eat_food
//   (l.159-191): per food, the levels of loading agents adjacent to it (it
//   uneaten), eaten when their sum >= its level. compute_action_mask
//   (l.194-234).
// - env.py LevelBasedForaging.step (l.174-225), get_reward (l.233-275) in
//   float32 (times the reciprocal of the loaders' levels * the total food
//   level, as XLA divides a vector by a broadcast scalar; NaN -> 0,
//   +-inf -> +-FLT_MAX, summed over the foods), _get_extra_info (l.227-231):
//   percent_eaten; terminated when every food is eaten, else truncated at
//   step_count >= time_limit.
// - observer.py VectorObserver (l.93-296) and GridObserver (l.299-428).
// - render: viewer.py LevelBasedForagingViewer._draw_state (l.129-243) as
//   flat colours, row 0 at the top: squares of cell_size pixels between
//   white grid lines one pixel wide on black; an uneaten food a red disc
//   (209, 56, 52: apple.png's red) of radius 0.3 squares, an agent a white
//   disc (agent.png's colour) of the same size, each with its level badge
//   0.28 squares (rounded to pixels) right and down of its centre: a black
//   disc of radius 1/5 square edged white, the level in white digits
//   (rlpool's block font, blocks of 1/20 square; left out below 16-pixel
//   squares).
//
// State bytes (after the env's key), jumanji's State order: agents (id A
// int32, position A x 2 int32, level A int32, loading A uint8), food_items
// (id F int32, position F x 2 int32, level F int32, eaten F uint8),
// step_count (int32), the State's key (two uint32). The ids are jumanji's
// arange (load checks that).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
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

constexpr int kActions = 6;
constexpr int kLoad = 5;
constexpr int kMoves[kActions][2] = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}, {0, 0}};  // noop up down left right load
constexpr std::int64_t kMaxGrid = 64;
constexpr std::int64_t kMaxItems = 64;
constexpr std::int64_t kMaxLevel = 1'000'000;

// The viewer's colours: constants.py's black background and white lines, the icons' colours.
constexpr Rgb kBackground{0, 0, 0};
constexpr Rgb kLine{255, 255, 255};
constexpr Rgb kFood{209, 56, 52};
constexpr Rgb kAgent{255, 255, 255};
constexpr Rgb kBadge{0, 0, 0};
constexpr Rgb kBadgeText{255, 255, 255};

// The picture's pitch: a square and one grid line, 480 pixels over the side, 4..40 pixels.
int cell_size(int grid_size) { return std::clamp(480 / grid_size, 4, 40); }

// int32 arithmetic that wraps as XLA's does.
std::int32_t wrap32(std::int64_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v)); }

struct Options {
  int grid_size = 8;
  int fov = 8;
  int num_agents = 2;
  int num_food = 2;
  int max_agent_level = 2;
  bool force_coop = true;
  int time_limit = 100;
  bool grid_observation = false;
  bool normalize_reward = true;
  float penalty = 0.0f;
};

Options read_options(const Config& c) {
  Options o;
  o.grid_size = static_cast<int>(c.get_int_in("grid_size", 5, kMaxGrid));
  o.fov = static_cast<int>(c.get_int_in("fov", 1, o.grid_size));
  o.num_agents = static_cast<int>(c.get_int_in("num_agents", 1, kMaxItems));
  o.num_food = static_cast<int>(c.get_int_in("num_food", 1, kMaxItems));
  o.max_agent_level = static_cast<int>(c.get_int_in("max_agent_level", 2, 1000));
  o.force_coop = c.get_bool("force_coop");
  o.time_limit = static_cast<int>(c.get_int_in("time_limit", 1, std::numeric_limits<std::int32_t>::max() - 1));
  o.grid_observation = c.get_bool("grid_observation");
  o.normalize_reward = c.get_bool("normalize_reward");
  o.penalty = static_cast<float>(c.get_double_in("penalty", -1e30, 1e30));
  // The generator's assertion: room for every food off the edge, none adjacent.
  if ((o.grid_size - 2) * (o.grid_size - 2) - o.num_agents <= o.num_food * 5) {
    throw std::invalid_argument("LevelBasedForaging needs (grid_size - 2)**2 - num_agents > 5 * num_food, got grid_size " +
                                std::to_string(o.grid_size) + ", num_agents " + std::to_string(o.num_agents) +
                                ", num_food " + std::to_string(o.num_food));
  }
  return o;
}

// An agent or a food item of jumanji's State (flag: loading / eaten).
struct Entity {
  std::int32_t id = 0;
  std::int32_t row = 0;
  std::int32_t col = 0;
  std::int32_t level = 0;
  bool flag = false;
};

bool adjacent(const Entity& a, const Entity& b) { return std::abs(a.row - b.row) + std::abs(a.col - b.col) == 1; }

EnvSpec lbf_spec(const Config& config);

class LevelBasedForaging final : public JumanjiEnv {
 public:
  explicit LevelBasedForaging(const Config& config, const Options& o)
      : JumanjiEnv(o.num_agents),
        o_(o),
        percent_info_(info_index(lbf_spec(config).info, "percent_eaten")),
        agents_(static_cast<std::size_t>(o.num_agents)),
        food_(static_cast<std::size_t>(o.num_food)),
        moved_(agents_.size()),
        next_(agents_.size()),
        sums_(agents_.size()),
        adj_(agents_.size()),
        agent_grid_(o.grid_observation ? grid_plane(o) : 0),
        food_grid_(agent_grid_.size()) {}

 protected:
  void new_episode(Key key) override {
    const int g = o_.grid_size;
    const std::size_t cells = static_cast<std::size_t>(g * g);
    std::array<Key, 5> keys{};
    jax_random::split(key, keys.data(), keys.size());
    state_key_ = keys[4];
    // sample_food: off the edge, no two adjacent.
    std::vector<float> mask(cells, 1.0f);
    for (int r = 0; r < g; ++r) {
      for (int c = 0; c < g; ++c) {
        if (r == 0 || r == g - 1 || c == 0 || c == g - 1) mask[static_cast<std::size_t>(r * g + c)] = 0.0f;
      }
    }
    std::vector<Key> food_keys(food_.size());
    jax_random::split(keys[0], food_keys.data(), food_keys.size());
    for (std::size_t f = 0; f < food_.size(); ++f) {
      std::int32_t pos = 0;
      jax_random::choice_p(food_keys[f], &pos, 1, mask.data(), cells);
      for (const std::int32_t p : {pos, pos + 1, pos - 1, pos + g, pos - g}) {
        // jax's scatter: a negative index counts from the end; one past it is dropped.
        const std::int32_t at = p < 0 ? p + static_cast<std::int32_t>(cells) : p;
        if (at >= 0 && at < static_cast<std::int32_t>(cells)) mask[static_cast<std::size_t>(at)] = 0.0f;
      }
      food_[f] = Entity{static_cast<std::int32_t>(f), pos / g, pos % g, 0, false};
    }
    // The agents' mask: mask.at[food_positions] on the (g, g) grid clears rows.
    std::fill(mask.begin(), mask.end(), 1.0f);
    for (const Entity& f : food_) {
      for (const std::int32_t row : {f.row, f.col}) {
        std::fill_n(mask.begin() + static_cast<std::ptrdiff_t>(row * g), g, 0.0f);
      }
    }
    std::vector<std::int32_t> squares(agents_.size());
    jax_random::choice_p_no_replace(keys[1], squares.data(), squares.size(), mask.data(), cells);
    std::vector<std::int32_t> levels(agents_.size());
    jax_random::randint(keys[3], levels.data(), levels.size(), 1, o_.max_agent_level + 1);
    for (std::size_t a = 0; a < agents_.size(); ++a) {
      agents_[a] = Entity{static_cast<std::int32_t>(a), squares[a] / g, squares[a] % g, levels[a], false};
    }
    std::vector<std::int32_t> sorted = levels;
    std::sort(sorted.begin(), sorted.end());
    std::int32_t max_food_level = 0;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, sorted.size()); ++i) max_food_level += sorted[i];
    std::vector<std::int32_t> food_levels(food_.size(), max_food_level);
    if (!o_.force_coop) {
      jax_random::randint(keys[2], food_levels.data(), food_levels.size(), 1, std::int64_t{max_food_level} + 1);
    }
    for (std::size_t f = 0; f < food_.size(); ++f) food_[f].level = food_levels[f];
    step_count_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const std::size_t n = agents_.size();
    // simulate_agent_movement, against the agents' old squares.
    std::vector<Entity>& moved = moved_;
    moved = agents_;
    for (std::size_t i = 0; i < n; ++i) {
      const auto a = static_cast<std::size_t>(action.discrete(i));
      const std::int32_t row = agents_[i].row + kMoves[a][0];
      const std::int32_t col = agents_[i].col + kMoves[a][1];
      const bool out = row < 0 || row >= o_.grid_size || col < 0 || col >= o_.grid_size;
      if (!out && !occupied(row, col, agents_[i].id)) {
        moved[i].row = row;
        moved[i].col = col;
      }
    }
    // fix_collisions: agents on one square all go back.
    std::vector<Entity>& next = next_;
    next = agents_;
    for (std::size_t i = 0; i < n; ++i) {
      bool duplicate = false;
      for (std::size_t j = 0; j < n; ++j) {
        duplicate = duplicate || (j != i && moved[j].row == moved[i].row && moved[j].col == moved[i].col);
      }
      if (!duplicate) {
        next[i].row = moved[i].row;
        next[i].col = moved[i].col;
      }
      next[i].flag = action.discrete(i) == kLoad;
    }
    agents_.swap(next);
    // eat_food, per food, then get_reward.
    std::int32_t total_food_level = 0;
    for (const Entity& f : food_) total_food_level = wrap32(std::int64_t{total_food_level} + f.level);
    std::vector<float>& sums = sums_;
    std::vector<std::int32_t>& adj = adj_;
    std::fill(sums.begin(), sums.end(), 0.0f);
    for (Entity& f : food_) {
      std::int32_t sum_levels = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const Entity& a = agents_[i];
        adj[i] = adjacent(a, f) && a.flag && !f.flag ? a.level : 0;
        sum_levels = wrap32(std::int64_t{sum_levels} + adj[i]);
      }
      const bool eaten_now = sum_levels >= f.level;
      f.flag = f.flag || eaten_now;
      const float penalty = sum_levels != 0 && sum_levels < f.level ? o_.penalty : 0.0f;
      // reward / normalizer, a vector over a broadcast scalar: XLA multiplies by its reciprocal.
      const float reciprocal = 1.0f / static_cast<float>(wrap32(std::int64_t{sum_levels} * total_food_level));
      for (std::size_t i = 0; i < n; ++i) {
        float r = static_cast<float>(wrap32(std::int64_t{adj[i]} * (eaten_now ? 1 : 0) * f.level)) - penalty;
        if (o_.normalize_reward) {
          r = r * reciprocal;
          if (std::isnan(r)) {
            r = 0.0f;
          } else if (std::isinf(r)) {
            r = r > 0 ? std::numeric_limits<float>::max() : std::numeric_limits<float>::lowest();
          }
        }
        sums[i] += r;
      }
    }
    for (std::size_t i = 0; i < n; ++i) rewards[i] = static_cast<double>(sums[i]);
    ++step_count_;
    const bool all_eaten = std::all_of(food_.begin(), food_.end(), [](const Entity& f) { return f.flag; });
    return {.terminated = all_eaten, .truncated = step_count_ >= o_.time_limit};
  }

  void observe(const Output& out) const override {
    const std::size_t n = agents_.size();
    if (o_.grid_observation) {
      grid_views(out.obs_as<std::int32_t>(0));
    } else {
      vector_views(out.obs_as<std::int32_t>(0));
    }
    bool* mask = out.obs_as<bool>(1);
    for (std::size_t i = 0; i < n; ++i) action_mask(agents_[i], mask + i * kActions);
    std::int32_t* steps = out.obs_as<std::int32_t>(2);
    std::fill_n(steps, n, step_count_);
    std::int64_t eaten = 0;
    for (const Entity& f : food_) eaten += f.flag ? 1 : 0;
    // (n_eaten / num_food) * 100 in float32 as XLA folds it: n_eaten * ((1 / num_food) * 100).
    const float factor = (1.0f / static_cast<float>(food_.size())) * 100.0f;
    *out.info_as<float>(percent_info_) = static_cast<float>(eaten) * factor;
  }

  std::string save() const override {
    std::string bytes;
    for (const auto* items : {&agents_, &food_}) {
      for (const Entity& e : *items) append(bytes, e.id);
      for (const Entity& e : *items) {
        append(bytes, e.row);
        append(bytes, e.col);
      }
      for (const Entity& e : *items) append(bytes, e.level);
      for (const Entity& e : *items) append(bytes, static_cast<std::uint8_t>(e.flag));
    }
    append(bytes, step_count_);
    append_key(bytes, state_key_);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "LevelBasedForaging");
    std::vector<Entity> agents = read_entities(reader, agents_.size(), "agents");
    std::vector<Entity> food = read_entities(reader, food_.size(), "food_items");
    const auto step_count = reader.read<std::int32_t>("step_count");
    const Key key = read_key(reader);
    reader.done();
    check_range(step_count, 0, std::numeric_limits<std::int32_t>::max() - 1, "step_count");
    agents_ = std::move(agents);
    food_ = std::move(food);
    step_count_ = step_count;
    state_key_ = key;
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  // The grid observer's padded planes: (grid_size + 2 fov)^2 squares.
  static std::size_t grid_plane(const Options& o) {
    const auto side = static_cast<std::size_t>(o.grid_size + 2 * o.fov);
    return side * side;
  }

  void draw(const Frame& frame) const {
    const Canvas canvas(frame);
    const int g = o_.grid_size;
    const int p = Board(frame, g, g).cell;
    canvas.fill(kLine);
    for (int r = 0; r < g; ++r) {
      for (int c = 0; c < g; ++c) canvas.rect(c * p + 1, r * p + 1, (c + 1) * p, (r + 1) * p, kBackground);
    }
    const double offset = std::round(0.28 * p);
    const double badge = p / 5.0;
    const int scale = p >= 16 ? p / 20 : 0;
    const auto entity = [&](const Entity& e, Rgb colour) {
      const double cx = e.col * p + (p + 1) / 2.0;
      const double cy = e.row * p + (p + 1) / 2.0;
      canvas.disc(cx, cy, 0.3 * p, colour);
      canvas.disc(cx + offset, cy + offset, badge, kBadgeText);
      canvas.disc(cx + offset, cy + offset, badge - 1.0, kBadge);
      if (scale > 0) canvas.number(cx + offset, cy + offset, e.level, scale, kBadgeText);
    };
    for (const Entity& f : food_) {
      if (!f.flag) entity(f, kFood);
    }
    for (const Entity& a : agents_) entity(a, kAgent);
  }

  std::vector<Entity> read_entities(StateReader& reader, std::size_t count, const std::string& what) const {
    const std::string id = what + ".id", position = what + ".position", level = what + ".level";
    const std::string flag = what + (what == "agents" ? ".loading" : ".eaten");
    const auto ids = read_values<std::int32_t>(reader, count, id.c_str());
    const auto positions = read_values<std::int32_t>(reader, 2 * count, position.c_str());
    const auto levels = read_values<std::int32_t>(reader, count, level.c_str());
    const auto flags = read_values<std::uint8_t>(reader, count, flag.c_str());
    std::vector<Entity> out(count);
    for (std::size_t i = 0; i < count; ++i) {
      check_range(ids[i], static_cast<long long>(i), static_cast<long long>(i), id.c_str());
      check_range(positions[2 * i], 0, o_.grid_size - 1, position.c_str());
      check_range(positions[2 * i + 1], 0, o_.grid_size - 1, position.c_str());
      check_range(levels[i], 0, kMaxLevel, level.c_str());
      check_range(flags[i], 0, 1, flag.c_str());
      out[i] = Entity{ids[i], positions[2 * i], positions[2 * i + 1], levels[i], flags[i] != 0};
    }
    return out;
  }

  // Another agent (by id) or an uneaten food on (row, col).
  bool occupied(std::int32_t row, std::int32_t col, std::int32_t self) const {
    for (const Entity& a : agents_) {
      if (a.id != self && a.row == row && a.col == col) return true;
    }
    for (const Entity& f : food_) {
      if (!f.flag && f.row == row && f.col == col) return true;
    }
    return false;
  }

  // utils.compute_action_mask.
  void action_mask(const Entity& agent, bool* mask) const {
    for (int a = 0; a < kActions; ++a) {
      const std::int32_t row = agent.row + kMoves[a][0];
      const std::int32_t col = agent.col + kMoves[a][1];
      const bool out = row < 0 || row >= o_.grid_size || col < 0 || col >= o_.grid_size;
      mask[a] = !(out || occupied(row, col, agent.id));
    }
    const bool food_adjacent = std::any_of(food_.begin(), food_.end(),
                                           [&](const Entity& f) { return adjacent(f, agent) && !f.flag; });
    if (!food_adjacent) mask[kLoad] = false;
  }

  // VectorObserver.make_agents_view for every agent: (x, y, level) of the
  // foods, the agent itself, then the other agents; (-1, -1, 0) out of view.
  void vector_views(std::int32_t* out) const {
    const std::size_t n = agents_.size();
    const std::size_t width = 3 * (food_.size() + n);
    for (std::size_t i = 0; i < n; ++i) {
      const Entity& me = agents_[i];
      std::int32_t* row = out + i * width;
      const std::int32_t min_x = std::min(o_.fov, me.row);
      const std::int32_t min_y = std::min(o_.fov, me.col);
      const auto in_view = [&](const Entity& e) {
        return std::abs(me.row - e.row) <= o_.fov && std::abs(me.col - e.col) <= o_.fov;
      };
      const auto write = [&](std::int32_t* at, bool visible, const Entity& e) {
        at[0] = visible ? e.row - me.row + min_x : -1;
        at[1] = visible ? e.col - me.col + min_y : -1;
        at[2] = visible ? e.level : 0;
      };
      std::int32_t* at = row;
      for (const Entity& f : food_) {
        write(at, in_view(f) && !f.flag, f);
        at += 3;
      }
      write(at, true, me);
      at += 3;
      for (std::size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        write(at, in_view(agents_[j]), agents_[j]);
        at += 3;
      }
    }
  }

  // GridObserver.make_agents_view: per agent, the (2 fov + 1)^2 windows of
  // the agents' levels, the uneaten foods' levels and the free squares.
  void grid_views(std::int32_t* out) const {
    const int fov = o_.fov;
    const int side = o_.grid_size + 2 * fov;
    const int view = 2 * fov + 1;
    std::vector<std::int32_t>& agent_grid = agent_grid_;
    std::vector<std::int32_t>& food_grid = food_grid_;
    std::fill(agent_grid.begin(), agent_grid.end(), 0);
    std::fill(food_grid.begin(), food_grid.end(), 0);
    const auto at = [&](int r, int c) { return static_cast<std::size_t>(r * side + c); };
    for (const Entity& a : agents_) agent_grid[at(a.row + fov, a.col + fov)] += a.level;
    for (const Entity& f : food_) food_grid[at(f.row + fov, f.col + fov)] += f.flag ? 0 : f.level;
    const std::size_t plane = static_cast<std::size_t>(view * view);
    for (std::size_t i = 0; i < agents_.size(); ++i) {
      std::int32_t* dst = out + i * 3 * plane;
      for (int r = 0; r < view; ++r) {
        for (int c = 0; c < view; ++c) {
          const int gr = agents_[i].row + r;
          const int gc = agents_[i].col + c;
          const std::size_t k = static_cast<std::size_t>(r * view + c);
          const bool inside = gr >= fov && gr < side - fov && gc >= fov && gc < side - fov;
          dst[k] = agent_grid[at(gr, gc)];
          dst[plane + k] = food_grid[at(gr, gc)];
          dst[2 * plane + k] = inside && agent_grid[at(gr, gc)] + food_grid[at(gr, gc)] == 0 ? 1 : 0;
        }
      }
    }
  }

  Options o_;
  std::size_t percent_info_;
  std::vector<Entity> agents_;  // flag: loading
  std::vector<Entity> food_;    // flag: eaten
  std::int32_t step_count_ = 0;
  Key state_key_{};
  // Scratch, sized once: a step's moved and settled agents, the rewards' sums
  // and loaders' levels; the grid observer's planes (observe is const, so
  // these two are mutable: they hold nothing between calls).
  std::vector<Entity> moved_;
  std::vector<Entity> next_;
  std::vector<float> sums_;
  std::vector<std::int32_t> adj_;
  mutable std::vector<std::int32_t> agent_grid_;
  mutable std::vector<std::int32_t> food_grid_;
};

EnvSpec lbf_spec(const Config& config) {
  const Options o = read_options(config);
  const std::int64_t a = o.num_agents;
  const double max_level = std::max({o.num_agents * o.max_agent_level, o.max_agent_level, o.grid_size});
  ArraySpec view{.name = "agents_view", .dtype = DType::kInt32};
  if (o.grid_observation) {
    const std::int64_t side = 2 * std::int64_t{o.fov} + 1;
    view.shape = {a, 3, side, side};
    view.low = {0.0};
  } else {
    view.shape = {a, 3 * (a + o.num_food)};
    view.low = {-1.0};
  }
  view.high = {max_level};
  return EnvSpec{
      .obs = {view,
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {a, kActions}, .low = {0.0},
                        .high = {1.0}},
              ArraySpec{.name = "step_count", .dtype = DType::kInt32, .shape = {a}, .low = {0.0},
                        .high = {static_cast<double>(o.time_limit)}}},
      .obs_kind = ObsKind::kDict,
      .action = agents_action(a, kActions),
      .info = {ArraySpec{.name = "percent_eaten", .dtype = DType::kFloat32}},
      .render_width = o.grid_size * cell_size(o.grid_size) + 1,
      .render_height = o.grid_size * cell_size(o.grid_size) + 1,
      .render_fps = 5,
      .num_agents = o.num_agents,
  };
}

std::unique_ptr<Env> make_lbf(const Config& config) {
  return std::make_unique<LevelBasedForaging>(config, read_options(config));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiLevelBasedForaging",
    .options =
        {
            {"grid_size", std::int64_t{8}, "The grid's side (the default generator's grid_size), 5..64."},
            {"fov", std::int64_t{8}, "How far an agent sees (the generator's fov), 1..grid_size."},
            {"num_agents", std::int64_t{2}, "Agents (the generator's num_agents), 1..64."},
            {"num_food", std::int64_t{2}, "Food items (the generator's num_food), 1..64."},
            {"max_agent_level", std::int64_t{2}, "Agents' levels are 1..max_agent_level (2..1000)."},
            {"force_coop", true,
             "Every food's level is the sum of the three lowest agent levels (the default generator's "
             "force_coop); else random up to it."},
            {"time_limit", std::int64_t{100}, "Steps after which the episode is truncated (the env's time_limit)."},
            {"grid_observation", false,
             "agents_view as jumanji's GridObserver ((A, 3, 2 fov + 1, 2 fov + 1)) instead of its "
             "VectorObserver ((A, 3 (A + num_food)))."},
            {"normalize_reward", true, "Divide rewards so that all the food is worth 1 in total (the env's)."},
            {"penalty", 0.0, "Taken from the agents when loaders' levels fall short of a food's (the env's)."},
        },
    .spec = lbf_spec,
    .create = make_lbf,
});

}  // namespace rlpool::jumanji
