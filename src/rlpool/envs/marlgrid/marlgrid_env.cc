// MARLGrid's rules, generation, observations and state (marlgrid_env.h): EnvPool
// 1.2.7's envpool.marlgrid (a port of kandouss/marlgrid) on the Minigrid core.
// The drawing of tiles is marlgrid_render.cc's.
#include "envs/marlgrid/marlgrid_env.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace rlpool::marlgrid {
namespace {

constexpr std::array<Rgb, kMaxAgents> kAgentRgb = {
    {{255, 0, 0}, {0, 0, 255}, {112, 39, 195}, {255, 165, 0}, {128, 128, 0}, {255, 0, 189}}};

// A cell's kind in the state and the matrix channels.
enum Kind : std::uint8_t { kEmptyKind = 0, kWallKind = 1, kGoalKind = 2, kLavaKind = 3, kBonusKind = 4 };

Obj bonus_tile(int bonus_id) {
  Obj o = Obj::floor(minigrid::Color::kYellow);
  o.id = static_cast<std::uint8_t>(bonus_id);
  return o;
}

Kind kind_of(const Obj& o) {
  switch (o.type) {
    case Type::kWall: return kWallKind;
    case Type::kGoal: return kGoalKind;
    case Type::kLava: return kLavaKind;
    case Type::kFloor: return kBonusKind;
    default: return kEmptyKind;
  }
}

// The matrix channel of a kind: empty, wall, goal, bonus, lava (EnvPool's order).
int kind_channel(Kind k) {
  switch (k) {
    case kWallKind: return 1;
    case kGoalKind: return 2;
    case kBonusKind: return 3;
    case kLavaKind: return 4;
    default: return 0;
  }
}

}  // namespace

Settings::Settings(const Config& config) {
  const std::string& name = config.get_string("env_name");
  if (name != "empty" && name != "cluttered" && name != "goalcycle") {
    throw std::invalid_argument("MarlGrid: env_name must be 'empty', 'cluttered' or 'goalcycle', got '" + name + "'");
  }
  goalcycle = name == "goalcycle";
  n_agents = static_cast<int>(config.get_int_in("n_agents", 1, kMaxAgents));
  grid_size = static_cast<int>(config.get_int_in("grid_size", 3, 255));
  view_size = static_cast<int>(config.get_int_in("view_size", 3, 63));
  view_tile_size = static_cast<int>(config.get_int_in("view_tile_size", 1, 64));
  view_offset = static_cast<int>(config.get_int_in("view_offset", 0, view_size - 1));
  const int inner = (grid_size - 2) * (grid_size - 2);
  n_clutter = static_cast<int>(config.get_int_in("n_clutter", 0, inner));
  randomize_goal = config.get_bool("randomize_goal");
  n_bonus_tiles = static_cast<int>(config.get_int_in("n_bonus_tiles", 1, 255));
  bonus_reward = static_cast<float>(config.get_finite("bonus_reward"));
  bonus_penalty = static_cast<float>(config.get_finite("bonus_penalty"));
  initial_reward = config.get_bool("initial_reward");
  reset_on_mistake = config.get_bool("reset_on_mistake");
  reward_decay = config.get_bool("reward_decay");
  respawn = config.get_bool("respawn");
  ghost_mode = config.get_bool("ghost_mode");
  prestige_coloring = config.get_bool("prestige_coloring");
  prestige_beta = static_cast<float>(config.get_double_in("prestige_beta", 0.0, 1.0));
  prestige_scale = static_cast<float>(config.get_finite("prestige_scale"));
  if (!(prestige_scale > 0.0f)) throw std::invalid_argument("MarlGrid: prestige_scale must be > 0");
  const std::string& fmt = config.get_string("observation_format");
  if (fmt == "pixels") {
    format = ObsFormat::kPixels;
  } else if (fmt == "matrix") {
    format = ObsFormat::kMatrix;
  } else if (fmt == "full_matrix") {
    format = ObsFormat::kFullMatrix;
  } else {
    throw std::invalid_argument("MarlGrid: observation_format must be 'pixels', 'matrix' or 'full_matrix', got '" +
                                fmt + "'");
  }
  max_steps = static_cast<int>(config.get_int_in("max_steps", 1, 1 << 30));
  const int objects = (goalcycle ? n_bonus_tiles : 1) + n_clutter;
  if (objects + (ghost_mode ? 1 : n_agents) > inner) {
    throw std::invalid_argument("MarlGrid: " + std::to_string(objects) + " objects and the agents do not fit in the " +
                                std::to_string(inner) + " inner cells of a grid of size " + std::to_string(grid_size));
  }
}

int Settings::obs_side() const {
  switch (format) {
    case ObsFormat::kPixels: return view_size * view_tile_size;
    case ObsFormat::kMatrix: return view_size;
    default: return grid_size;
  }
}

std::vector<Option> marlgrid_options() {
  return {
      {"env_name", std::string("empty"), "the layout: 'empty', 'cluttered' (the same with n_clutter walls) or "
                                         "'goalcycle' (bonus tiles to visit in a cycle instead of a goal)"},
      {"n_agents", std::int64_t{2}, "agents in the env (1-6)"},
      {"grid_size", std::int64_t{9}, "side of the square grid, walls included"},
      {"view_size", std::int64_t{7}, "side of each agent's view square, in cells"},
      {"view_tile_size", std::int64_t{8}, "pixels per cell of the pixel observation"},
      {"view_offset", std::int64_t{0}, "rows of the view behind the agent"},
      {"n_clutter", std::int64_t{0}, "walls placed at random"},
      {"randomize_goal", false, "put the goal on a random free cell instead of the bottom-right corner"},
      {"n_bonus_tiles", std::int64_t{3}, "goalcycle: bonus tiles in the cycle"},
      {"bonus_reward", 1.0, "goalcycle: reward for the next tile of the cycle"},
      {"bonus_penalty", 0.0, "goalcycle: its magnitude is the penalty for any other tile"},
      {"initial_reward", true, "goalcycle: the first tile reached gives bonus_reward (else 0)"},
      {"reset_on_mistake", false, "goalcycle: a wrong tile restarts the cycle from it"},
      {"reward_decay", true, "scale rewards by 1 - 0.9 * step / max_steps"},
      {"respawn", false, "a finished agent is placed again at once instead of finishing"},
      {"ghost_mode", true, "agents may share cells (else an occupied cell blocks)"},
      {"prestige_coloring", false, "draw agents in a colour from red to blue by their recent rewards"},
      {"prestige_beta", 0.95, "prestige_coloring: the prestige's decay per step"},
      {"prestige_scale", 2.0, "prestige_coloring: the prestige of the middle colour's scale"},
      {"observation_format", std::string("pixels"), "'pixels' (each agent's view as an image), 'matrix' (the "
                                                    "view, 13 channels per cell) or 'full_matrix' (the whole grid)"},
      {"max_steps", std::int64_t{100}, "steps after which every agent is truncated (EnvPool's max_episode_steps); "
                                       "the reward decay's horizon"},
  };
}

EnvSpec marlgrid_spec(const Config& config) {
  const Settings s(config);
  const std::int64_t a = s.n_agents;
  const std::int64_t side = s.obs_side();
  EnvSpec spec;
  spec.obs = {ArraySpec{.name = "obs", .dtype = DType::kUInt8, .shape = {a, side, side, s.obs_channels()},
                        .low = {0}, .high = {255}}};
  spec.action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {a}, .low = {0},
                          .high = {double(minigrid::kNumActions - 1)}};
  spec.info = {
      ArraySpec{.name = "agent_pos", .dtype = DType::kInt32, .shape = {a, 2}},
      ArraySpec{.name = "agent_dir", .dtype = DType::kInt32, .shape = {a}},
      ArraySpec{.name = "agent_active", .dtype = DType::kBool, .shape = {a}},
      ArraySpec{.name = "agent_done", .dtype = DType::kBool, .shape = {a}},
  };
  spec.num_agents = s.n_agents;
  spec.render_width = spec.render_height = s.grid_size * kRenderTile;
  return spec;
}

MarlGridEnv::MarlGridEnv(const Config& config) : s_(config) {
  const EnvSpec spec = marlgrid_spec(config);
  info_pos_ = info_index(spec.info, "agent_pos");
  info_dir_ = info_index(spec.info, "agent_dir");
  info_active_ = info_index(spec.info, "agent_active");
  info_done_ = info_index(spec.info, "agent_done");
  grid_.reset(s_.grid_size, s_.grid_size);
  occupants_.assign(static_cast<std::size_t>(s_.grid_size * s_.grid_size), {});
  agents_.assign(static_cast<std::size_t>(s_.n_agents), Agent{});
  const auto vs = static_cast<std::size_t>(s_.view_size * s_.view_size);
  seen_.assign(vs, 0);
  opaque_.assign(vs, 0);
}

// --- Generation ---------------------------------------------------------------

bool MarlGridEnv::place_random(Rng& rng, const Obj& obj) {
  const auto n = static_cast<std::uint64_t>(s_.grid_size);
  for (int i = 0; i < 100; ++i) {  // EnvPool's 100 tries at any cell of the grid
    const int x = static_cast<int>(rng.integer(n));
    const int y = static_cast<int>(rng.integer(n));
    if (grid_.get(x, y).is_none() && occupants(x, y).empty()) {
      grid_.set(x, y, obj);
      return true;
    }
  }
  return false;
}

void MarlGridEnv::place_agent(Rng& rng, int id) {
  const auto n = static_cast<std::uint64_t>(s_.grid_size);
  for (;;) {  // a free cell exists: Settings keeps one
    const int x = static_cast<int>(rng.integer(n));
    const int y = static_cast<int>(rng.integer(n));
    if (!grid_.get(x, y).is_none() || (!s_.ghost_mode && !occupants(x, y).empty())) continue;
    occupants(x, y).push_back(id);
    Agent& a = agents_[static_cast<std::size_t>(id)];
    a.x = x;
    a.y = y;
    a.dir = static_cast<int>(rng.integer(4));
    return;
  }
}

void MarlGridEnv::generate(Rng& rng) {
  // EnvPool gives up (an error) after 100 tries at one object; here the level is drawn again, which
  // changes nothing in practice (with the registered densities a failure has a chance below 1e-20).
  for (;;) {
    grid_.reset(s_.grid_size, s_.grid_size);
    for (auto& o : occupants_) o.clear();
    grid_.wall_rect(0, 0, s_.grid_size, s_.grid_size);
    bool ok = true;
    if (s_.goalcycle) {
      for (int b = 0; b < s_.n_bonus_tiles && ok; ++b) ok = place_random(rng, bonus_tile(b));
    } else if (s_.randomize_goal) {
      ok = place_random(rng, Obj::goal());
    } else {
      grid_.set(s_.grid_size - 2, s_.grid_size - 2, Obj::goal());
    }
    for (int c = 0; c < s_.n_clutter && ok; ++c) ok = place_random(rng, Obj::wall());
    if (ok) return;
  }
}

void MarlGridEnv::reset(Rng& rng, const Output& out) {
  step_count_ = 0;
  for (auto& a : agents_) a = Agent{};
  generate(rng);
  for (int i = 0; i < s_.n_agents; ++i) {
    place_agent(rng, i);
    agents_[static_cast<std::size_t>(i)].active = true;
  }
  write(out, {}, false);
}

// --- Rules --------------------------------------------------------------------

void MarlGridEnv::leave_cell(int id) {
  const Agent& a = agents_[static_cast<std::size_t>(id)];
  if (!grid_.in_bounds(a.x, a.y)) return;
  auto& occ = occupants(a.x, a.y);
  occ.erase(std::remove(occ.begin(), occ.end(), id), occ.end());
}

float MarlGridEnv::bonus_reward(Agent& agent, int bonus_id) const {
  const int n = s_.n_bonus_tiles;
  bool first = false;
  if (agent.bonus_state < 0) {  // the first tile reached counts as the next one
    agent.bonus_state = (bonus_id + n - 1) % n;
    first = true;
  }
  float reward = -std::abs(s_.bonus_penalty);
  if (agent.bonus_state != bonus_id && (agent.bonus_state + 1) % n == bonus_id) {
    agent.bonus_state = bonus_id;
    reward = s_.bonus_reward;
  }
  if (s_.reset_on_mistake) agent.bonus_state = bonus_id;
  return first && !s_.initial_reward ? 0.0f : reward;
}

float MarlGridEnv::agent_step(int id, std::int64_t action) {
  Agent& a = agents_[static_cast<std::size_t>(id)];
  if (!a.active) return 0.0f;
  float reward = 0.0f;
  if (action == minigrid::kLeft) {
    a.dir = (a.dir + 3) % 4;
  } else if (action == minigrid::kRight) {
    a.dir = (a.dir + 1) % 4;
  } else if (action == minigrid::kForward) {
    const Pos f = Pos{a.x, a.y} + minigrid::kDirVec[static_cast<std::size_t>(a.dir)];
    const Obj cell = grid_.get(f);
    const bool blocked = cell.type == Type::kWall || (!s_.ghost_mode && !occupants(f.x, f.y).empty());
    if (!blocked) {
      leave_cell(id);
      occupants(f.x, f.y).push_back(id);
      a.x = f.x;
      a.y = f.y;
      if (cell.type == Type::kGoal) reward = 1.0f;
      if (cell.type == Type::kFloor) reward = bonus_reward(a, cell.id);
      if (s_.reward_decay) {
        reward *= 1.0f - 0.9f * (static_cast<float>(step_count_) / static_cast<float>(s_.max_steps));
      }
      if (s_.prestige_coloring) a.prestige = reward >= 0.0f ? a.prestige + reward : 0.0f;
      if (cell.type == Type::kGoal || cell.type == Type::kLava) a.done = true;
    }
  }  // pickup, drop, toggle, done: nothing
  if (s_.prestige_coloring) a.prestige *= s_.prestige_beta;
  return reward;
}

void MarlGridEnv::step(const Action& action, Rng& rng, const Output& out) {
  const int n = s_.n_agents;
  std::array<float, kMaxAgents> rewards{};
  for (int i = 0; i < n; ++i) {  // EnvPool places agents that are neither active nor done (none, in practice)
    Agent& a = agents_[static_cast<std::size_t>(i)];
    if (!a.active && !a.done) {
      leave_cell(i);
      place_agent(rng, i);
      a.active = true;
    }
  }
  ++step_count_;
  std::array<int, kMaxAgents> order{};
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i) {  // a uniform order (Fisher-Yates)
    std::swap(order[static_cast<std::size_t>(i)], order[rng.integer(static_cast<std::uint64_t>(i) + 1)]);
  }
  for (int k = 0; k < n; ++k) {
    const int id = order[static_cast<std::size_t>(k)];
    rewards[static_cast<std::size_t>(id)] = agent_step(id, action.discrete(static_cast<std::size_t>(id)));
  }
  for (int i = 0; i < n; ++i) {
    Agent& a = agents_[static_cast<std::size_t>(i)];
    if (!a.done) continue;
    if (s_.respawn) {
      leave_cell(i);
      a.done = false;
      a.x = a.y = -1;
      place_agent(rng, i);
    } else {
      a.active = false;
    }
  }
  write(out, rewards, step_count_ >= s_.max_steps);
}

// --- Observation --------------------------------------------------------------

void MarlGridEnv::write(const Output& out, const std::array<float, kMaxAgents>& rewards, bool truncated) {
  const int n = s_.n_agents;
  const int side = s_.obs_side();
  const std::size_t bytes = static_cast<std::size_t>(side) * static_cast<std::size_t>(side) *
                            static_cast<std::size_t>(s_.obs_channels());
  auto* obs = out.obs_as<std::uint8_t>();
  auto* pos = out.info_as<std::int32_t>(info_pos_);
  auto* dir = out.info_as<std::int32_t>(info_dir_);
  auto* active = out.info_as<bool>(info_active_);
  auto* done = out.info_as<bool>(info_done_);
  for (int i = 0; i < n; ++i) {
    const Agent& a = agents_[static_cast<std::size_t>(i)];
    std::uint8_t* dst = obs + static_cast<std::size_t>(i) * bytes;
    switch (s_.format) {
      case ObsFormat::kPixels: observe_pixels(i, dst); break;
      case ObsFormat::kMatrix: observe_matrix(i, dst); break;
      case ObsFormat::kFullMatrix: observe_full_matrix(i, dst); break;
    }
    pos[2 * i] = a.x;
    pos[2 * i + 1] = a.y;
    dir[i] = a.dir;
    active[i] = a.active;
    done[i] = a.done;
    out.reward[i] = static_cast<double>(rewards[static_cast<std::size_t>(i)]);
    // A finished agent stays terminated (EnvPool keeps its done flag) until the episode ends.
    out.terminated[i] = a.done;
    if (out.truncated != nullptr) out.truncated[i] = truncated;
  }
}

Pos MarlGridEnv::view_cell(const Agent& agent, int i, int j) const {
  const int vs = s_.view_size;
  const int half = vs / 2;
  const int off = s_.view_offset;
  // The view's top-left world cell when the view is turned to the agent's direction.
  Pos top;
  switch (agent.dir) {
    case 0: top = {agent.x - off, agent.y - half}; break;
    case 1: top = {agent.x - half, agent.y - off}; break;
    case 2: top = {agent.x - vs + 1 + off, agent.y - half}; break;
    default: top = {agent.x - half, agent.y - vs + 1 + off}; break;
  }
  // View (i, j), the agent looking up, turned (dir + 1) quarter turns clockwise.
  Pos d;
  switch ((agent.dir + 1) % 4) {
    case 1: d = {vs - 1 - j, i}; break;
    case 2: d = {vs - 1 - i, vs - 1 - j}; break;
    case 3: d = {j, vs - 1 - i}; break;
    default: d = {i, j}; break;
  }
  return top + d;
}

// marlgrid's occlusion: light spreads from the agent's cell through cells that do not block the
// view, first row by row away from the agent (rightwards, then leftwards), then towards the rows
// behind it (view_offset).
void MarlGridEnv::visibility(const Agent& agent) {
  const int w = s_.view_size;
  const int h = s_.view_size;
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) {
      const Pos p = view_cell(agent, i, j);
      opaque_[static_cast<std::size_t>(j * w + i)] = grid_.in_bounds(p) && !grid_.get(p).see_behind();
    }
  }
  std::fill(seen_.begin(), seen_.end(), 0);
  const auto seen = [&](int i, int j) -> std::uint8_t& { return seen_[static_cast<std::size_t>(j * w + i)]; };
  const auto lit = [&](int i, int j) { return seen(i, j) != 0 && opaque_[static_cast<std::size_t>(j * w + i)] == 0; };
  const int ax = w / 2;
  const int ay = h - 1 - s_.view_offset;
  seen(ax, ay) = 1;
  for (int j = std::min(ay + 1, h - 1); j > 0; --j) {
    for (int i = ax; i < w; ++i) {
      if (!lit(i, j)) continue;
      if (i < w - 1) seen(i + 1, j) = seen(i + 1, j - 1) = 1;
      seen(i, j - 1) = 1;
    }
    for (int i = std::min(ax + 1, w - 1); i > 0; --i) {
      if (!lit(i, j)) continue;
      seen(i - 1, j) = seen(i - 1, j - 1) = seen(i, j - 1) = 1;
    }
  }
  for (int j = ay; j < h; ++j) {
    for (int i = ax; i < w; ++i) {
      if (!lit(i, j)) continue;
      if (i < w - 1) seen(i + 1, j) = 1;
      if (j < h - 1) {
        seen(i, j + 1) = 1;
        if (i < w - 1) seen(i + 1, j + 1) = 1;
      }
    }
    for (int i = std::min(ax + 1, w - 1); i > 0; --i) {
      if (!lit(i, j)) continue;
      seen(i - 1, j) = 1;
      if (j < h - 1) seen(i, j + 1) = seen(i - 1, j + 1) = 1;
    }
  }
}

int MarlGridEnv::top_agent(int x, int y, int viewer) const {
  if (!grid_.in_bounds(x, y)) return -1;
  const auto& occ = occupants(x, y);
  if (viewer >= 0 && agents_[static_cast<std::size_t>(viewer)].active &&
      std::find(occ.begin(), occ.end(), viewer) != occ.end()) {
    return viewer;
  }
  for (int id : occ) {
    if (agents_[static_cast<std::size_t>(id)].active) return id;
  }
  return -1;
}

Rgb MarlGridEnv::agent_color(int id) const {
  if (!s_.prestige_coloring) return kAgentRgb[static_cast<std::size_t>(id)];
  const double p = std::clamp(std::tanh(static_cast<double>(agents_[static_cast<std::size_t>(id)].prestige) /
                                        static_cast<double>(s_.prestige_scale)),
                              0.0, 1.0);
  return {static_cast<std::uint8_t>((1.0 - p) * 255.0), 0, static_cast<std::uint8_t>(p * 255.0)};
}

void MarlGridEnv::observe_pixels(int id, std::uint8_t* dst) {
  const int t = s_.view_tile_size;
  const int vs = s_.view_size;
  const int side = vs * t;
  constexpr Rgb kShadow = {35, 25, 30};
  for (int p = 0; p < side * side; ++p) std::memcpy(dst + 3 * p, kShadow.data(), 3);
  const Agent& agent = agents_[static_cast<std::size_t>(id)];
  if (!agent.active) return;
  visibility(agent);
  const int quarter = (4 - (agent.dir + 1) % 4) % 4;
  tile_buf_.resize(static_cast<std::size_t>(t * t * 3));
  for (int j = 0; j < vs; ++j) {
    for (int i = 0; i < vs; ++i) {
      if (seen_[static_cast<std::size_t>(j * vs + i)] == 0) continue;
      const Pos p = view_cell(agent, i, j);
      tile(p.x, p.y, id, t, quarter, tile_buf_.data());
      for (int r = 0; r < t; ++r) {
        std::memcpy(dst + (static_cast<std::size_t>(j * t + r) * static_cast<std::size_t>(side) +
                           static_cast<std::size_t>(i * t)) * 3,
                    tile_buf_.data() + static_cast<std::size_t>(r * t * 3), static_cast<std::size_t>(t * 3));
      }
    }
  }
}

// One cell of a matrix observation: its kind's channel, and the agent drawn there (presence, colour,
// direction `rel` quarter turns from the view's).
void MarlGridEnv::matrix_cell(int x, int y, int viewer, std::uint8_t* cell) const {
  const Kind k = grid_.in_bounds(x, y) ? kind_of(grid_.get(x, y)) : kEmptyKind;
  cell[kind_channel(k)] = 255;
  const int top = top_agent(x, y, viewer);
  if (top < 0) return;
  const Rgb c = agent_color(top);
  cell[5] = 255;
  cell[6] = c[0];
  cell[7] = c[1];
  cell[8] = c[2];
  int d = agents_[static_cast<std::size_t>(top)].dir;
  if (s_.format == ObsFormat::kMatrix) d = (d - agents_[static_cast<std::size_t>(viewer)].dir + 7) % 4;
  cell[9 + d] = 255;
}

void MarlGridEnv::observe_matrix(int id, std::uint8_t* dst) {
  const int vs = s_.view_size;
  std::memset(dst, 0, static_cast<std::size_t>(vs * vs * kMatrixChannels));
  const Agent& agent = agents_[static_cast<std::size_t>(id)];
  if (!agent.active) return;
  visibility(agent);
  for (int j = 0; j < vs; ++j) {
    for (int i = 0; i < vs; ++i) {
      if (seen_[static_cast<std::size_t>(j * vs + i)] == 0) continue;
      const Pos p = view_cell(agent, i, j);
      matrix_cell(p.x, p.y, id, dst + static_cast<std::size_t>((j * vs + i) * kMatrixChannels));
    }
  }
}

void MarlGridEnv::observe_full_matrix(int id, std::uint8_t* dst) const {
  const int n = s_.grid_size;
  std::memset(dst, 0, static_cast<std::size_t>(n * n * kMatrixChannels));
  if (!agents_[static_cast<std::size_t>(id)].active) return;  // a finished agent sees nothing, as in EnvPool
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) matrix_cell(x, y, id, dst + static_cast<std::size_t>((y * n + x) * kMatrixChannels));
  }
}

// --- State --------------------------------------------------------------------

namespace {

struct AgentRecord {  // no implicit padding
  std::int32_t x, y, dir, bonus_state;
  float prestige;
  std::uint8_t active, done, pad0, pad1;
};
static_assert(sizeof(AgentRecord) == 24);

template <class T>
void put(std::string& s, const T& v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  template <class T>
  T get(const char* what) {
    if (b_.size() - pos_ < sizeof(T)) throw std::invalid_argument(std::string("MarlGrid state: it ends before ") + what);
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  bool done() const { return pos_ == b_.size(); }
  std::size_t left() const { return b_.size() - pos_; }

 private:
  std::string_view b_;
  std::size_t pos_ = 0;
};

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("MarlGrid state: " + what); }

}  // namespace

std::string MarlGridEnv::get_state() const {
  std::string s = "MLG1";
  put(s, static_cast<std::uint8_t>(s_.grid_size));
  put(s, static_cast<std::uint8_t>(s_.n_agents));
  put(s, static_cast<std::int32_t>(step_count_));
  for (int y = 0; y < s_.grid_size; ++y) {
    for (int x = 0; x < s_.grid_size; ++x) {
      const Obj& o = grid_.get(x, y);
      const Kind k = kind_of(o);
      put(s, static_cast<std::uint8_t>(k));
      put(s, static_cast<std::uint8_t>(k == kBonusKind ? o.id : 0));
    }
  }
  for (const Agent& a : agents_) {
    const AgentRecord r{a.x, a.y, a.dir, a.bonus_state, a.prestige, a.active, a.done, 0, 0};
    put(s, r);
  }
  std::vector<std::uint8_t> order;
  for (const auto& occ : occupants_) {
    for (int id : occ) order.push_back(static_cast<std::uint8_t>(id));
  }
  put(s, static_cast<std::uint8_t>(order.size()));
  s.append(reinterpret_cast<const char*>(order.data()), order.size());
  return s;
}

void MarlGridEnv::set_state(std::string_view state) {
  Reader r(state);
  if (state.substr(0, 4) != "MLG1") bad("it does not start with \"MLG1\" (a MarlGrid state, version 1)");
  for (int i = 0; i < 4; ++i) r.get<char>("the header");
  const int n = r.get<std::uint8_t>("the grid size");
  const int agents = r.get<std::uint8_t>("the agent count");
  if (n != s_.grid_size || agents != s_.n_agents) {
    bad("it is of a grid of size " + std::to_string(n) + " with " + std::to_string(agents) +
        " agents, this env's grid has size " + std::to_string(s_.grid_size) + " and " + std::to_string(s_.n_agents));
  }
  const int steps = r.get<std::int32_t>("the step count");
  if (steps < 0) bad("step count " + std::to_string(steps) + " < 0");
  Grid grid;
  grid.reset(n, n);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const int kind = r.get<std::uint8_t>("the cells");
      const int bonus = r.get<std::uint8_t>("the cells");
      const std::string where = "cell (" + std::to_string(x) + ", " + std::to_string(y) + ")";
      switch (kind) {
        case kEmptyKind: break;
        case kWallKind: grid.set(x, y, Obj::wall()); break;
        case kGoalKind: grid.set(x, y, Obj::goal()); break;
        case kLavaKind: grid.set(x, y, Obj::lava()); break;
        case kBonusKind:
          if (bonus >= s_.n_bonus_tiles) {
            bad(where + " is bonus tile " + std::to_string(bonus) + ", this env has " +
                std::to_string(s_.n_bonus_tiles));
          }
          grid.set(x, y, bonus_tile(bonus));
          break;
        default: bad(where + " has kind " + std::to_string(kind) + ", expected 0-4");
      }
      if (kind != kBonusKind && bonus != 0) bad(where + " has a bonus id but is no bonus tile");
    }
  }
  for (int x = 0; x < n; ++x) {  // the border walls keep every move inside the grid
    for (int y : {0, n - 1}) {
      if (grid.get(x, y).type != Type::kWall || grid.get(y, x).type != Type::kWall) bad("the grid's border is not all walls");
    }
  }
  std::vector<Agent> list(static_cast<std::size_t>(agents));
  for (int i = 0; i < agents; ++i) {
    const auto rec = r.get<AgentRecord>("the agents");
    Agent& a = list[static_cast<std::size_t>(i)];
    const std::string who = "agent " + std::to_string(i);
    if (rec.active > 1 || rec.done > 1 || rec.pad0 != 0 || rec.pad1 != 0) bad(who + "'s flags are not 0 or 1");
    if (rec.dir < 0 || rec.dir > 3) bad(who + "'s direction is " + std::to_string(rec.dir) + ", expected 0-3");
    if (rec.bonus_state < -1 || rec.bonus_state >= s_.n_bonus_tiles) bad(who + "'s bonus state is out of range");
    if (!std::isfinite(rec.prestige)) bad(who + "'s prestige is not finite");
    const bool placed = rec.x != -1 || rec.y != -1;
    if (placed && !grid.in_bounds(rec.x, rec.y)) bad(who + " stands outside the grid");
    if (rec.active && (!placed || grid.get(rec.x, rec.y).type == Type::kWall)) {
      bad(who + " is active but stands on a wall or nowhere");
    }
    a = Agent{rec.x, rec.y, rec.dir, rec.bonus_state, rec.prestige, rec.active != 0, rec.done != 0};
  }
  const int count = r.get<std::uint8_t>("the occupants");
  std::vector<std::vector<int>> occ(static_cast<std::size_t>(n * n));
  std::vector<bool> listed(static_cast<std::size_t>(agents), false);
  for (int k = 0; k < count; ++k) {
    const int id = r.get<std::uint8_t>("the occupants");
    if (id >= agents || listed[static_cast<std::size_t>(id)]) bad("the occupants list agent " + std::to_string(id) + " twice or out of range");
    const Agent& a = list[static_cast<std::size_t>(id)];
    if (a.x == -1 && a.y == -1) bad("the occupants list agent " + std::to_string(id) + ", which stands nowhere");
    listed[static_cast<std::size_t>(id)] = true;
    occ[static_cast<std::size_t>(a.y * n + a.x)].push_back(id);
  }
  for (int i = 0; i < agents; ++i) {
    const Agent& a = list[static_cast<std::size_t>(i)];
    if ((a.x != -1 || a.y != -1) != listed[static_cast<std::size_t>(i)]) {
      bad("agent " + std::to_string(i) + " stands in a cell but is not among the occupants");
    }
  }
  if (!r.done()) bad(std::to_string(r.left()) + " bytes too many");
  grid_ = std::move(grid);
  agents_ = std::move(list);
  occupants_ = std::move(occ);
  step_count_ = steps;
}

// --- Registration -------------------------------------------------------------

namespace {

const bool registered = register_env_type({
    .name = "MarlGrid",
    .options = marlgrid_options(),
    .spec = marlgrid_spec,
    .create = make_env<MarlGridEnv>(),
});

}  // namespace

}  // namespace rlpool::marlgrid
