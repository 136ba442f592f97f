// Jumanji's PacMan (jumanji 1.1.2, PacMan-v1) in C++: the player walks a
// 31 x 28 maze eating pellets and power-ups while four ghosts chase it.
// Follows jumanji/environments/routing/pac_man/:
// - constants.py DEFAULT_MAZE (l.21-53): the maze, 31 rows of 28 squares ('X'
//   a wall; 'G' a ghost's start, 'P' the player's, 'O' a power-up, 'T' a
//   ghost's initial target, 'S' a scatter target, ' ' an open square; every
//   square not a wall holds a pellet). rlpool does not ship it: the
//   registration's prepare hook (pac_man_data.py) takes constants.py from an
//   installed jumanji 1.1.2 or from its pinned wheel (checked by sha256),
//   writes DEFAULT_MAZE as a text file of 31 lines into rlpool's cache and
//   hands the env its path as the hidden option _maze_file. The file is read
//   and checked here (31 rows of 28 of those characters, with the default
//   maze's 318 open squares, 4 ghosts, power-ups and targets of each kind and
//   1 player); envs reading the same file share one copy.
// - generator.py generate_maze_from_ascii (l.23-66) and AsciiGenerator
//   (l.92-163): the squares row by row, each list as (column, row) pairs; the
//   State a reset makes (no draw: the key is only kept). ghost_starts
//   [1, 5, 10, 15], ghost_actions [1, 1, 1, 1], every ghost edible.
// - env.py PacMan.step and _update_state (l.248-358): the State's key is
//   split in five (the first split in _update_state is discarded; the key
//   that ghost_move returns is kept); the player moves (utils.player_step,
//   l.421-447: 0 up, 1 left, 2 down, 3 right, 4 no-op, wrapping around the
//   maze) unless a wall is there (check_wall_collisions, l.457-478); the
//   ghosts move (utils.ghost_move, l.25-158, check_ghost_wall_collisions,
//   l.161-318); collisions (utils.check_ghost_collisions, l.321-407);
//   power-ups (check_power_up, l.421-455: 50 and 30 frightened steps) and
//   pellets (check_rewards, l.360-391: 10); every ghost counter ticks down.
//   The time limit is a termination, as are death and the last pellet.
// - env.py _compute_action_mask (l.480-497) and _observation_from_state
//   (l.499-511), observation_spec (l.137-203).
// jumanji's own quirks are kept: the pink ghost's target (4 squares ahead of
// the player) and the scatter targets are read with row and column swapped;
// the ghost collision test also compares the ghost's square before its
// previous move (old_ghost_locations) with the player's new one;
// ghost_init_steps never goes up (so the initial targets steer only a State
// that sets it); frightened_state_time and the ghost counters keep counting
// down below 0; a ghost whose only open neighbour is the square it came from
// picks any of the four directions, walls included. A square looked up next
// to the maze's edge follows JAX's gather: index -1 is the last row/column,
// one past the end the last.
//
// - render: viewer.py create_grid_image (l.117-310) as flat colours: squares
//   of cell_size pixels, a wall dark blue (0, 0, 153), an open square black;
//   a pellet left a disc (255, 204, 153) of radius 1/8 square (at least one
//   pixel), a power-up left a disc of that colour of radius 0.35 squares
//   (eaten ones, which jumanji moves to the wall square (0, 0), are not
//   drawn); each ghost, in order, a disc of radius 0.45 squares in its colour
//   (red, pink (255, 179, 255), cyan, orange (255, 128, 0)), all blue
//   (0, 0, 255) while frightened_state_time > 0, with two eyes (discs of
//   radius 1/8 square, 0.2 squares left and right of its centre, 1/8 square
//   up) white, orange (255, 153, 51) when frightened; the player a yellow
//   disc of radius 0.45 squares, drawn last.
// The observation's player_locations are declared y (column) then x (row),
// EnvPool 1.2.7's order (jumanji's spec has x first).
//
// State bytes (after the env's key), all int32 unless said: pellets,
// frightened_state_time, pellet_locations (318 x (col, row)),
// power_up_locations (4 x (col, row)), player_locations (x = row, y = col),
// ghost_locations (4 x (col, row)), old_ghost_locations (4 x (col, row)),
// ghost_init_steps (4), ghost_actions (4), last_direction, dead (1 byte),
// ghost_starts (4), step_count, ghost_eaten (4 bytes), score, the State's key
// (two uint32). The State's other fields (grid, initial positions, initial
// and scatter targets) are the generator's constants in every State it makes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/jumanji/jumanji_env.h"
#include "envs/jumanji/jumanji_render.h"

namespace rlpool::jumanji {

namespace {

constexpr int kRows = 31;  // jumanji's x_size
constexpr int kCols = 28;  // jumanji's y_size
constexpr int kGhosts = 4;
constexpr int kActions = 5;
constexpr int kPellets = 318;  // the open squares of jumanji's DEFAULT_MAZE

// The viewer's colours.
constexpr Rgb kWallColour{0, 0, 153};
constexpr Rgb kOpenColour{0, 0, 0};
constexpr Rgb kPelletColour{255, 204, 153};
constexpr Rgb kPlayerColour{255, 255, 0};
constexpr Rgb kGhostColours[kGhosts] = {{255, 0, 0}, {255, 179, 255}, {0, 255, 255}, {255, 128, 0}};
constexpr Rgb kScaredColour{0, 0, 255};
constexpr Rgb kEyeColour{255, 255, 255};
constexpr Rgb kScaredEyeColour{255, 153, 51};
// The picture's square: 480 pixels over the maze's 31 rows.
constexpr int kCell = 480 / kRows;

// A square as jumanji's arrays hold it: (column, row).
struct Square {
  std::int32_t col = 0;
  std::int32_t row = 0;
  friend bool operator==(const Square&, const Square&) = default;
};

// What AsciiGenerator reads off the maze, in its order (row by row).
struct Layout {
  std::array<std::array<std::int32_t, kCols>, kRows> grid{};  // 1 open, 0 wall
  std::array<Square, kPellets> pellets{};
  std::array<Square, kGhosts> power_ups{};
  std::array<Square, kGhosts> ghost_spawns{};
  std::array<Square, kGhosts> init_targets{};
  std::array<Square, kGhosts> scatter_targets{};
  Square player{};
};

[[noreturn]] void bad_maze(const std::string& path, const std::string& why) {
  throw std::invalid_argument("PacMan's maze file " + path + " " + why +
                              " (expected jumanji 1.1.2's DEFAULT_MAZE as pac_man_data.py writes it: 31 lines of 28 "
                              "characters, each 'X', ' ', 'O', 'T', 'S', 'G' or 'P')");
}

// The rows of the maze file: kRows lines of kCols characters, each ending in '\n'.
std::vector<std::string> maze_rows(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) bad_maze(path, "could not be opened");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<std::string> rows;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    if (end == std::string::npos) bad_maze(path, "does not end its last line with a newline");
    rows.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (rows.size() != kRows) bad_maze(path, "has " + std::to_string(rows.size()) + " rows");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string& row = rows[r];
    if (row.size() != kCols) {
      bad_maze(path, "has " + std::to_string(row.size()) + " columns in row " + std::to_string(r));
    }
    const std::size_t bad = row.find_first_not_of("X OTSGP");
    if (bad != std::string::npos) {
      bad_maze(path, "holds the character code " + std::to_string(static_cast<unsigned char>(row[bad])) + " in row " +
                         std::to_string(r) + ", column " + std::to_string(bad));
    }
  }
  return rows;
}

// What AsciiGenerator reads off the maze file, in its order (row by row).
std::shared_ptr<const Layout> read_maze(const std::string& path) {
  const std::vector<std::string> rows = maze_rows(path);
  int open = 0, power_ups = 0, ghosts = 0, inits = 0, scatters = 0, players = 0;
  for (const std::string& row : rows) {
    for (const char ch : row) {
      open += ch != 'X' ? 1 : 0;
      power_ups += ch == 'O' ? 1 : 0;
      ghosts += ch == 'G' ? 1 : 0;
      inits += ch == 'T' ? 1 : 0;
      scatters += ch == 'S' ? 1 : 0;
      players += ch == 'P' ? 1 : 0;
    }
  }
  const auto expect = [&](int n, int want, const char* what) {
    if (n != want) bad_maze(path, "has " + std::to_string(n) + " " + what + " (" + std::to_string(want) + " expected)");
  };
  expect(open, kPellets, "open squares");
  expect(power_ups, kGhosts, "power-ups ('O')");
  expect(ghosts, kGhosts, "ghost starts ('G')");
  expect(inits, kGhosts, "initial targets ('T')");
  expect(scatters, kGhosts, "scatter targets ('S')");
  expect(players, 1, "player starts ('P')");

  auto layout = std::make_shared<Layout>();
  int pellets = 0;
  power_ups = ghosts = inits = scatters = 0;
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < kCols; ++c) {
      const char ch = rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      const Square at{c, r};
      if (ch == 'G') layout->ghost_spawns.at(static_cast<std::size_t>(ghosts++)) = at;
      if (ch == 'P') layout->player = at;
      if (ch == 'X') continue;
      layout->grid[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = 1;
      layout->pellets.at(static_cast<std::size_t>(pellets++)) = at;
      if (ch == 'O') layout->power_ups.at(static_cast<std::size_t>(power_ups++)) = at;
      if (ch == 'T') layout->init_targets.at(static_cast<std::size_t>(inits++)) = at;
      if (ch == 'S') layout->scatter_targets.at(static_cast<std::size_t>(scatters++)) = at;
    }
  }
  return layout;
}

// One copy of a maze file for every env reading it.
std::shared_ptr<const Layout> shared_maze(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const Layout>> loaded;
  const std::lock_guard lock(mutex);
  if (auto layout = loaded[path].lock()) return layout;
  auto layout = read_maze(path);
  loaded[path] = layout;
  return layout;
}

const std::string& maze_file(const Config& config) {
  const std::string& path = config.get_string("_maze_file");
  if (path.empty()) {
    throw std::invalid_argument("JumanjiPacMan needs the path of its maze file (_maze_file, which the registration "
                                "of PacMan-v1 sets)");
  }
  return path;
}

// grid[row][col] as JAX gathers it: -1 is the last index, past the end the last.
std::int32_t grid_at(const Layout& m, int row, int col) {
  const auto fix = [](int i, int n) { return std::clamp(i < 0 ? i + n : i, 0, n - 1); };
  return m.grid[static_cast<std::size_t>(fix(row, kRows))][static_cast<std::size_t>(fix(col, kCols))];
}

int floor_mod(int a, int n) { return ((a % n) + n) % n; }

// int32 arithmetic as XLA does it (wrapping).
std::int32_t minus_one(std::int32_t v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) - 1u); }

// jnp.linalg.norm of an integer 2-vector: float32, sqrt(a * a + b * b).
float norm(int a, int b) {
  const auto fa = static_cast<float>(a), fb = static_cast<float>(b);
  return std::sqrt(fa * fa + fb * fb);
}

class PacMan final : public JumanjiEnv {
 public:
  explicit PacMan(const Config& config)
      : maze_(shared_maze(maze_file(config))), time_limit_(static_cast<int>(config.get_int("time_limit"))) {}

 protected:
  void new_episode(Key key) override {
    const Layout& m = *maze_;
    state_key_ = key;
    pellets_ = kPellets;
    frightened_ = 0;
    pellet_locations_ = m.pellets;
    power_ups_ = m.power_ups;
    player_row_ = m.player.row;
    player_col_ = m.player.col;
    ghosts_ = m.ghost_spawns;
    old_ghosts_ = m.ghost_spawns;
    ghost_init_steps_ = {0, 0, 0, 0};
    ghost_actions_ = {1, 1, 1, 1};
    last_direction_ = 0;
    dead_ = false;
    ghost_starts_ = {1, 5, 10, 15};
    step_count_ = 0;
    ghost_eaten_ = {true, true, true, true};
    score_ = 0;
  }

  Outcome play(const Action& action, double* rewards) override {
    const Layout& m = *maze_;
    const auto a = static_cast<int>(action.discrete());
    std::array<Key, 1 + kGhosts> keys{};
    jax_random::split(state_key_, keys.data(), keys.size());

    // The player's move, refused by a wall.
    const auto [to_row, to_col] = player_step(a, 1);
    const bool open = m.grid[static_cast<std::size_t>(to_row)][static_cast<std::size_t>(to_col)] == 1;
    const Square next = open ? Square{to_col, to_row} : Square{player_col_, player_row_};
    last_direction_ = a;

    // The ghosts' moves, from the State before the player's.
    std::array<Square, kGhosts> paths{};
    std::array<std::int32_t, kGhosts> chosen{};
    for (int g = 0; g < kGhosts; ++g) ghost_move(g, keys[static_cast<std::size_t>(g) + 1], paths, chosen);

    // Collisions: a frightened ghost goes home (200 the first time), else the player dies.
    const bool frightened = frightened_ > 0;
    const Square before{player_col_, player_row_};
    bool dead = false;
    float ghost_reward = 0.0f;
    for (std::size_t g = 0; g < kGhosts; ++g) {
      const bool hit = paths[g] == next || paths[g] == before || old_ghosts_[g] == next;
      if (!hit) continue;
      if (frightened) {
        ghost_reward += ghost_eaten_[g] ? 200.0f : 0.0f;
        paths[g] = m.ghost_spawns[g];
        ghost_eaten_[g] = false;
      } else {
        dead = true;
      }
    }
    player_row_ = next.row;
    player_col_ = next.col;
    dead_ = dead;

    bool power_up = false;
    for (Square& p : power_ups_) {
      if (p == next) {
        power_up = true;
        p = Square{};
      }
    }
    bool pellet = false;
    for (Square& p : pellet_locations_) {
      if (p == next) {
        pellet = true;
        p = Square{};
      }
    }
    pellets_ -= pellet ? 1 : 0;

    for (auto& s : ghost_init_steps_) s = minus_one(s);
    old_ghosts_ = ghosts_;
    ghosts_ = paths;
    state_key_ = keys[0];
    frightened_ = power_up ? 30 : minus_one(frightened_);
    ghost_actions_ = chosen;
    for (auto& s : ghost_starts_) s = minus_one(s);
    const float reward = ((pellet ? 10.0f : 0.0f) + (power_up ? 50.0f : 0.0f)) + ghost_reward;
    score_ = static_cast<std::int32_t>(static_cast<float>(score_) + reward);
    ++step_count_;
    rewards[0] = reward;
    return {.terminated = step_count_ >= time_limit_ || dead_ || pellets_ == 0};
  }

  void observe(const Output& out) const override {
    const Layout& m = *maze_;
    auto* grid = out.obs_as<std::int32_t>(0);
    for (std::size_t r = 0; r < kRows; ++r) std::copy(m.grid[r].begin(), m.grid[r].end(), grid + r * kCols);
    *out.obs_as<std::int32_t>(1) = player_col_;  // player_locations.y
    *out.obs_as<std::int32_t>(2) = player_row_;  // player_locations.x
    write_squares(ghosts_.data(), kGhosts, out.obs_as<std::int32_t>(3));
    write_squares(power_ups_.data(), kGhosts, out.obs_as<std::int32_t>(4));
    *out.obs_as<std::int32_t>(5) = frightened_;
    write_squares(pellet_locations_.data(), kPellets, out.obs_as<std::int32_t>(6));
    bool* mask = out.obs_as<bool>(7);
    mask[0] = grid_at(m, player_row_ - 1, player_col_) != 0;
    mask[1] = grid_at(m, player_row_, player_col_ - 1) != 0;
    mask[2] = grid_at(m, player_row_ + 1, player_col_) != 0;
    mask[3] = grid_at(m, player_row_, player_col_ + 1) != 0;
    mask[4] = false;
    *out.obs_as<std::int32_t>(8) = score_;
  }

  std::string save() const override {
    std::string bytes;
    append(bytes, pellets_);
    append(bytes, frightened_);
    append_squares(bytes, pellet_locations_.data(), kPellets);
    append_squares(bytes, power_ups_.data(), kGhosts);
    append(bytes, player_row_);
    append(bytes, player_col_);
    append_squares(bytes, ghosts_.data(), kGhosts);
    append_squares(bytes, old_ghosts_.data(), kGhosts);
    for (std::int32_t v : ghost_init_steps_) append(bytes, v);
    for (std::int32_t v : ghost_actions_) append(bytes, v);
    append(bytes, last_direction_);
    append(bytes, static_cast<std::uint8_t>(dead_));
    for (std::int32_t v : ghost_starts_) append(bytes, v);
    append(bytes, step_count_);
    for (bool e : ghost_eaten_) append(bytes, static_cast<std::uint8_t>(e));
    append(bytes, score_);
    append(bytes, state_key_.hi);
    append(bytes, state_key_.lo);
    return bytes;
  }

  void load(std::string_view bytes) override {
    StateReader reader(bytes, "PacMan");
    const auto pellets = reader.read<std::int32_t>("pellets");
    const auto frightened = reader.read<std::int32_t>("frightened_state_time");
    std::array<Square, kPellets> pellet_locations{};
    read_squares(reader, pellet_locations.data(), kPellets, "pellet_locations");
    std::array<Square, kGhosts> power_ups{};
    read_squares(reader, power_ups.data(), kGhosts, "power_up_locations");
    const auto player_row = reader.read<std::int32_t>("player_locations.x");
    const auto player_col = reader.read<std::int32_t>("player_locations.y");
    std::array<Square, kGhosts> ghosts{};
    read_squares(reader, ghosts.data(), kGhosts, "ghost_locations");
    std::array<Square, kGhosts> old_ghosts{};
    read_squares(reader, old_ghosts.data(), kGhosts, "old_ghost_locations");
    std::array<std::int32_t, kGhosts> init_steps{};
    reader.read(init_steps.data(), sizeof(init_steps), "ghost_init_steps");
    std::array<std::int32_t, kGhosts> ghost_actions{};
    reader.read(ghost_actions.data(), sizeof(ghost_actions), "ghost_actions");
    const auto last_direction = reader.read<std::int32_t>("last_direction");
    const auto dead = reader.read<std::uint8_t>("dead");
    std::array<std::int32_t, kGhosts> starts{};
    reader.read(starts.data(), sizeof(starts), "ghost_starts");
    const auto step_count = reader.read<std::int32_t>("step_count");
    std::array<std::uint8_t, kGhosts> eaten{};
    reader.read(eaten.data(), eaten.size(), "ghost_eaten");
    const auto score = reader.read<std::int32_t>("score");
    const auto key_hi = reader.read<std::uint32_t>("key");
    const auto key_lo = reader.read<std::uint32_t>("key");
    reader.done();

    check_range(pellets, 0, kPellets, "pellets");
    check_squares(pellet_locations.data(), kPellets, "pellet_locations");
    check_squares(power_ups.data(), kGhosts, "power_up_locations");
    check_range(player_row, 0, kRows - 1, "player_locations.x");
    check_range(player_col, 0, kCols - 1, "player_locations.y");
    check_squares(ghosts.data(), kGhosts, "ghost_locations");
    check_squares(old_ghosts.data(), kGhosts, "old_ghost_locations");
    for (std::int32_t v : ghost_actions) check_range(v, 0, kActions - 1, "ghost_actions");
    check_range(last_direction, 0, kActions - 1, "last_direction");
    check_range(dead, 0, 1, "dead");
    check_range(step_count, 0, time_limit_, "step_count");
    for (std::uint8_t e : eaten) check_range(e, 0, 1, "ghost_eaten");
    // A score float32 still holds exactly after a step's reward (jumanji adds it in float32).
    check_range(score, 0, 1 << 30, "score");

    pellets_ = pellets;
    frightened_ = frightened;
    pellet_locations_ = pellet_locations;
    power_ups_ = power_ups;
    player_row_ = player_row;
    player_col_ = player_col;
    ghosts_ = ghosts;
    old_ghosts_ = old_ghosts;
    ghost_init_steps_ = init_steps;
    ghost_actions_ = ghost_actions;
    last_direction_ = last_direction;
    dead_ = dead != 0;
    ghost_starts_ = starts;
    step_count_ = step_count;
    for (std::size_t g = 0; g < kGhosts; ++g) ghost_eaten_[g] = eaten[g] != 0;
    score_ = score;
    state_key_ = Key{key_hi, key_lo};
  }

  void render(const Frame& frame) override { draw(frame); }

 private:
  void draw(const Frame& frame) const {
    const Layout& m = *maze_;
    const Canvas canvas(frame);
    const Board board(frame, kRows, kCols);
    const auto open = [&](int r, int c) {
      return m.grid[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] != 0;
    };
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kCols; ++c) board.paint(canvas, r, c, open(r, c) ? kOpenColour : kWallColour);
    }
    const double cell = board.cell;
    const auto disc = [&](Square at, double radius, Rgb colour) {
      canvas.disc(board.cx(at.col), board.cy(at.row), radius * cell, colour);
    };
    // An item eaten lies on the wall square (0, 0): only those on open squares are left.
    for (const Square& p : pellet_locations_) {
      if (open(p.row, p.col)) disc(p, std::max(1.0 / 8, 1.0 / cell), kPelletColour);
    }
    for (const Square& p : power_ups_) {
      if (open(p.row, p.col)) disc(p, 0.35, kPelletColour);
    }
    const bool frightened = frightened_ > 0;
    for (int g = 0; g < kGhosts; ++g) {
      const Square at = ghosts_[static_cast<std::size_t>(g)];
      disc(at, 0.45, frightened ? kScaredColour : kGhostColours[g]);
      for (const double side : {-0.2, 0.2}) {
        canvas.disc(board.cx(at.col) + side * cell, board.cy(at.row) - cell / 8, cell / 8,
                    frightened ? kScaredEyeColour : kEyeColour);
      }
    }
    disc(Square{player_col_, player_row_}, 0.45, kPlayerColour);
  }

  // utils.player_step from the State's player square: (row, col) after `steps`
  // squares in direction `a`, around the maze's edges.
  std::pair<int, int> player_step(int a, int steps) const {
    int row = player_row_, col = player_col_;
    switch (a) {
      case 0: row -= steps; break;
      case 1: col -= steps; break;
      case 2: row += steps; break;
      case 3: col += steps; break;
      default: break;
    }
    return {floor_mod(row, kRows), floor_mod(col, kCols)};
  }

  // The distance to ghost g's target from each square next to it (left, up,
  // right, down), as check_ghost_wall_collisions measures it.
  std::array<float, 4> target_distances(int g, const std::array<std::array<int, 2>, 4>& next) const {
    const Layout& m = *maze_;
    const auto gs = static_cast<std::size_t>(g);
    std::array<float, 4> dist{};
    // Each square's distance from the target (row, col).
    const auto towards = [&](int row, int col) {
      for (std::size_t k = 0; k < 4; ++k) dist[k] = norm(next[k][0] - row, next[k][1] - col);
    };
    // jumanji reads the scatter target's and the pink ghost's target's (row, col) swapped.
    const auto scatter = [&] { towards(m.scatter_targets[gs].col, m.scatter_targets[gs].row); };
    if (ghost_init_steps_[gs] > 0) {
      towards(m.init_targets[gs].row, m.init_targets[gs].col);
    } else if (frightened_ > 0) {
      scatter();
    } else if (g == 0) {
      towards(player_row_, player_col_);
    } else if (g == 1) {
      const auto [row, col] = player_step(last_direction_, 4);
      towards(col, row);
    } else if (g == 2) {
      const auto [row, col] = player_step(last_direction_, 4);
      for (std::size_t k = 0; k < 4; ++k) {
        // The red ghost's offset plus the pink ghost's.
        dist[k] = norm((next[k][0] - player_row_) + (next[k][0] - col),
                       (next[k][1] - player_col_) + (next[k][1] - row));
      }
    } else {
      const Square at = ghosts_[gs];
      if (norm(at.col - player_col_, at.row - player_row_) > 8.0f) {
        towards(player_row_, player_col_);
      } else {
        scatter();
      }
    }
    return dist;
  }

  // utils.ghost_move for ghost g: its next square and the action it chose.
  void ghost_move(int g, Key key, std::array<Square, kGhosts>& paths, std::array<std::int32_t, kGhosts>& chosen) const {
    const auto gs = static_cast<std::size_t>(g);
    const Square at = ghosts_[gs];
    const Square back = old_ghosts_[gs];
    const std::array<std::array<int, 2>, 4> next = {
        {{at.row, at.col - 1}, {at.row - 1, at.col}, {at.row, at.col + 1}, {at.row + 1, at.col}}};
    const std::array<float, 4> dist = target_distances(g, next);
    std::array<std::int32_t, 4> valids{};
    std::array<float, 4> cost{};
    for (std::size_t k = 0; k < 4; ++k) {
      valids[k] = grid_at(*maze_, next[k][0], next[k][1]);
      const bool not_back = next[k][0] != back.row || next[k][1] != back.col;
      const std::int32_t v = not_back ? valids[k] : 0;
      cost[k] = static_cast<float>(v) * dist[k] + (v != 1 ? std::numeric_limits<float>::infinity() : 0.0f);
    }
    const float lowest = *std::min_element(cost.begin(), cost.end());
    const bool in_tunnel = valids == std::array<std::int32_t, 4>{1, 0, 1, 0} ||
                           valids == std::array<std::int32_t, 4>{0, 1, 0, 1};
    std::int32_t action = 4;
    if (ghost_starts_[gs] < 0) {
      if (in_tunnel) {
        action = ghost_actions_[gs];
      } else {
        // softmax over the cheapest directions (logit 1, the others -1e9): 1/k each.
        std::array<float, 4> p{};
        const auto best = static_cast<float>(std::count(cost.begin(), cost.end(), lowest));
        for (std::size_t k = 0; k < 4; ++k) p[k] = cost[k] == lowest ? 1.0f / best : 0.0f;
        const Key draw = jax_random::split2(jax_random::split2(key).second).second;
        std::int32_t index = 0;
        jax_random::choice_p(draw, &index, 1, p.data(), p.size());
        action = cost[static_cast<std::size_t>(index)] == lowest ? index : 0;  // actions * logits
      }
    }
    chosen[gs] = action;
    if (ghost_starts_[gs] > 0) {
      paths[gs] = at;
      return;
    }
    int row = at.row, col = at.col;
    switch (std::clamp(action, 0, 4)) {
      case 0: col -= 1; break;
      case 1: row -= 1; break;
      case 2: col += 1; break;
      case 3: row += 1; break;
      default: break;
    }
    paths[gs] = Square{floor_mod(col, kCols), floor_mod(row, kRows)};
  }

  static void write_squares(const Square* squares, int n, std::int32_t* out) {
    for (int i = 0; i < n; ++i) {
      out[2 * i] = squares[i].col;
      out[2 * i + 1] = squares[i].row;
    }
  }

  static void append_squares(std::string& bytes, const Square* squares, int n) {
    for (int i = 0; i < n; ++i) {
      append(bytes, squares[i].col);
      append(bytes, squares[i].row);
    }
  }

  static void read_squares(StateReader& reader, Square* squares, int n, const char* field) {
    for (int i = 0; i < n; ++i) {
      squares[i].col = reader.read<std::int32_t>(field);
      squares[i].row = reader.read<std::int32_t>(field);
    }
  }

  static void check_squares(const Square* squares, int n, const char* field) {
    for (int i = 0; i < n; ++i) {
      check_range(squares[i].col, 0, kCols - 1, field);
      check_range(squares[i].row, 0, kRows - 1, field);
    }
  }

  std::shared_ptr<const Layout> maze_;
  int time_limit_;
  Key state_key_{};
  std::int32_t pellets_ = 0;
  std::int32_t frightened_ = 0;
  std::array<Square, kPellets> pellet_locations_{};
  std::array<Square, kGhosts> power_ups_{};
  std::int32_t player_row_ = 0;  // jumanji's player_locations.x
  std::int32_t player_col_ = 0;  // jumanji's player_locations.y
  std::array<Square, kGhosts> ghosts_{};
  std::array<Square, kGhosts> old_ghosts_{};
  std::array<std::int32_t, kGhosts> ghost_init_steps_{};
  std::array<std::int32_t, kGhosts> ghost_actions_{};
  std::int32_t last_direction_ = 0;
  bool dead_ = false;
  std::array<std::int32_t, kGhosts> ghost_starts_{};
  std::int32_t step_count_ = 0;
  std::array<bool, kGhosts> ghost_eaten_{};
  std::int32_t score_ = 0;
};

EnvSpec pac_man_spec(const Config& config) {
  config.get_int_in("time_limit", 1, std::numeric_limits<std::int32_t>::max() - 1);
  maze_file(config);
  const auto squares = [](const char* name, std::int64_t n) {
    return ArraySpec{.name = name, .dtype = DType::kInt32, .shape = {n, 2}};
  };
  const auto scalar = [](const char* name) { return ArraySpec{.name = name, .dtype = DType::kInt32}; };
  return EnvSpec{
      .obs = {ArraySpec{.name = "grid", .dtype = DType::kInt32, .shape = {kRows, kCols}, .low = {0.0}, .high = {1.0}},
              ArraySpec{.name = "player_locations.y", .dtype = DType::kInt32, .low = {0.0}, .high = {kCols - 1.0}},
              ArraySpec{.name = "player_locations.x", .dtype = DType::kInt32, .low = {0.0}, .high = {kRows - 1.0}},
              squares("ghost_locations", kGhosts), squares("power_up_locations", kGhosts),
              scalar("frightened_state_time"), squares("pellet_locations", kPellets),
              ArraySpec{.name = "action_mask", .dtype = DType::kBool, .shape = {kActions}, .low = {0.0},
                        .high = {1.0}},
              scalar("score")},
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .low = {0.0}, .high = {kActions - 1.0}},
      .render_width = kCols * kCell,
      .render_height = kRows * kCell,
      .render_fps = 5,
  };
}

std::unique_ptr<Env> make_pac_man(const Config& config) {
  pac_man_spec(config);  // checks the options
  return std::make_unique<PacMan>(config);
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "JumanjiPacMan",
    .options =
        {
            {"time_limit", std::int64_t{1000},
             "Steps after which the episode ends (PacMan's time_limit; jumanji counts it a termination)."},
            {"_maze_file", std::string(), "jumanji's DEFAULT_MAZE as a text file (set by the registration)."},
        },
    .spec = pac_man_spec,
    .create = make_pac_man,
});

}  // namespace rlpool::jumanji
