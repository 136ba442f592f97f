// MARLGrid: EnvPool 1.2.7's envpool.marlgrid (its C++ port of kandouss/marlgrid,
// MIT) as a simultaneous multi-agent rlpool env, written for rlpool from
// EnvPool's documented options and observed behaviour (no EnvPool code reused).
// It stands on the Minigrid core (envs/minigrid/minigrid_env.h): its Grid, Obj
// (wall, goal, lava; a Goalcycle bonus tile is a yellow floor whose id is the
// tile's place in the cycle), Pos, kDirVec and the action numbering.
//
// Every agent acts each step (num_agents = A, an action per agent), in an
// order drawn afresh each step. Agents may share a cell (ghost_mode, the
// default) and are drawn in their colours (red, blue, purple, orange, olive,
// pink). Rules, as EnvPool 1.2.7's:
// - forward onto any cell but a wall moves (without ghost_mode: unless an
//   agent, even a finished one, stands there); a goal gives 1 and finishes the
//   agent, lava finishes it with 0; left/right turn; pickup, drop, toggle and
//   done do nothing;
// - Goalcycle's bonus tiles are a cycle 0 -> 1 -> ... -> n-1 -> 0: stepping
//   onto the next tile of the cycle gives bonus_reward, onto any other
//   -|bonus_penalty|; the first tile stepped on counts as the next one
//   (0 instead without initial_reward); reset_on_mistake restarts the cycle
//   at a wrong tile;
// - with reward_decay every reward is scaled by 1 - 0.9 * step / max_steps;
// - a finished agent is terminated for the rest of the episode (reward 0,
//   its action ignored, its observation the shadow colour), or with respawn
//   is placed again at once and never terminates; the episode ends when every
//   agent finished, and every agent is truncated at max_steps.
// Generation: walls around the grid, the goal in the bottom-right inner corner
// (randomize_goal: a random free cell; Goalcycle: n_bonus_tiles bonus tiles at
// random), n_clutter walls at random, then each agent on a random free cell
// with a random direction. Every draw comes from the env's rlpool::Rng (the
// same distributions as EnvPool's, not its draws).
//
// Observation (observation_format): "pixels", per agent its egocentric partial
// view (view_size cells, the agent at the bottom middle -- view_offset rows up
// -- looking up), occluded by walls, drawn at view_tile_size pixels a cell;
// "matrix" the same view as 13 channels per cell (empty, wall, goal, bonus,
// lava, agent, the agent's r, g, b, its direction one-hot); "full_matrix" the
// whole grid that way (directions absolute; a finished agent's matrices are
// all 0, its pixels all shadow). Info: agent_pos (x, y), agent_dir, agent_active,
// agent_done per agent (EnvPool's players.pos/dir/active/done).
//
// State (get_state / set_state), little-endian, version 1:
//   "MLG1", u8 grid_size, u8 n_agents, i32 step_count
//   grid_size^2 cells, row-major: u8 kind (0 empty, 1 wall, 2 goal, 3 lava,
//   4 bonus), u8 bonus id
//   per agent: i32 x, y, dir, bonus_state, f32 prestige, u8 active, done, 2 pad
//   u8 n, n agent ids: the agents standing in cells, each cell's in arrival
//   order (the first active one of a cell is the one drawn there)
// set_state checks every field and throws std::invalid_argument (a
// ValueError), changing nothing, on a bad blob.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::marlgrid {

using minigrid::Grid;
using minigrid::Obj;
using minigrid::Pos;
using minigrid::Type;

inline constexpr int kMaxAgents = 6;
inline constexpr int kMatrixChannels = 13;
inline constexpr int kRenderTile = 32;  // render(): the whole grid at 32 pixels a cell

using Rgb = std::array<std::uint8_t, 3>;

enum class ObsFormat : std::uint8_t { kPixels, kMatrix, kFullMatrix };

struct Agent {
  int x = -1;
  int y = -1;
  int dir = 0;
  int bonus_state = -1;  // the last bonus tile of the cycle reached, -1 none yet
  float prestige = 0.0f;
  bool active = false;
  bool done = false;
};

// The options, checked.
struct Settings {
  bool goalcycle = false;
  int n_agents = 2;
  int grid_size = 9;
  int view_size = 7;
  int view_tile_size = 8;
  int view_offset = 0;
  int n_clutter = 0;
  bool randomize_goal = false;
  int n_bonus_tiles = 3;
  float bonus_reward = 1.0f;
  float bonus_penalty = 0.0f;
  bool initial_reward = true;
  bool reset_on_mistake = false;
  bool reward_decay = true;
  bool respawn = false;
  bool ghost_mode = true;
  bool prestige_coloring = false;
  float prestige_beta = 0.95f;
  float prestige_scale = 2.0f;
  ObsFormat format = ObsFormat::kPixels;
  int max_steps = 100;
  explicit Settings(const Config& config);
  int obs_side() const;
  int obs_channels() const { return format == ObsFormat::kPixels ? 3 : kMatrixChannels; }
};

std::vector<Option> marlgrid_options();
EnvSpec marlgrid_spec(const Config& config);

class MarlGridEnv final : public Env {
 public:
  explicit MarlGridEnv(const Config& config);

  void reset(Rng& rng, const Output& out) override;
  void step(const Action& action, Rng& rng, const Output& out) override;
  void render(const Frame& frame) override;
  std::string get_state() const override;
  void set_state(std::string_view state) override;

 private:
  // Generation.
  void generate(Rng& rng);
  bool place_random(Rng& rng, const Obj& obj);
  void place_agent(Rng& rng, int id);
  // Cells' occupants, in arrival order.
  std::vector<int>& occupants(int x, int y) { return occupants_[static_cast<std::size_t>(y * s_.grid_size + x)]; }
  const std::vector<int>& occupants(int x, int y) const {
    return occupants_[static_cast<std::size_t>(y * s_.grid_size + x)];
  }
  void leave_cell(int id);
  // Rules.
  float bonus_reward(Agent& agent, int bonus_id) const;
  float agent_step(int id, std::int64_t action);
  // Observation.
  void write(const Output& out, const std::array<float, kMaxAgents>& rewards, bool truncated);
  // The view square of an agent: view (i, j) -> world cell; and what it sees.
  Pos view_cell(const Agent& agent, int i, int j) const;
  void visibility(const Agent& agent);
  int top_agent(int x, int y, int viewer) const;  // the agent drawn on a cell, -1 none
  Rgb agent_color(int id) const;
  void observe_pixels(int id, std::uint8_t* dst);
  void observe_matrix(int id, std::uint8_t* dst);
  void observe_full_matrix(int id, std::uint8_t* dst) const;
  void matrix_cell(int x, int y, int viewer, std::uint8_t* cell) const;
  // A cell's tile (marlgrid_render.cc): `size` pixels square, turned by
  // `quarter` quarter turns, into dst (size * size * 3, row-major).
  void tile(int x, int y, int viewer, int size, int quarter, std::uint8_t* dst);

  Settings s_;
  Grid grid_;
  std::vector<std::vector<int>> occupants_;
  std::vector<Agent> agents_;
  int step_count_ = 0;
  std::size_t info_pos_, info_dir_, info_active_, info_done_;
  // Scratch and caches.
  std::vector<std::uint8_t> seen_;      // view_size^2, the visible view cells
  std::vector<std::uint8_t> opaque_;    // view_size^2
  std::vector<std::vector<std::uint8_t>> tiles_;  // rendered tiles by key (pixels at view_tile_size, render at 32)
  std::vector<std::uint8_t> tile_buf_;
};

}  // namespace rlpool::marlgrid
