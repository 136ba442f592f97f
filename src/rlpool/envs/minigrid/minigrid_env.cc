// The Minigrid core (see minigrid_env.h): grid helpers, the partial view,
// step rules, random draws, state blobs and the RoomGrid layer.
#include "envs/minigrid/minigrid_env.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace rlpool::minigrid {

const char* color_name(Color color) {
  static constexpr const char* kNames[] = {"red", "green", "blue", "purple", "yellow", "grey"};
  return kNames[static_cast<int>(color)];
}

const char* type_name(Type type) {
  static constexpr const char* kNames[] = {"unseen", "empty", "wall", "floor", "door", "key",
                                           "ball",   "box",   "goal", "lava",  "agent"};
  return kNames[static_cast<int>(type)];
}

// --- Grid -------------------------------------------------------------------

void Grid::horz_wall(int x, int y, int length, const Obj& obj) {
  if (length < 0) length = width - x;
  for (int i = 0; i < length; ++i) set(x + i, y, obj);
}

void Grid::vert_wall(int x, int y, int length, const Obj& obj) {
  if (length < 0) length = height - y;
  for (int j = 0; j < length; ++j) set(x, y + j, obj);
}

void Grid::wall_rect(int x, int y, int w, int h) {
  horz_wall(x, y, w);
  horz_wall(x, y + h - 1, w);
  vert_wall(x, y, h);
  vert_wall(x + w - 1, y, h);
}

bool Grid::contains(Type t, Color c) const {
  return std::any_of(cells_.begin(), cells_.end(), [&](const Obj& o) { return o.is(t, c); });
}

// --- Options and spec -------------------------------------------------------

std::vector<Option> common_options() {
  return {
      {"max_steps", std::int64_t{0},
       "steps before truncation; also the reward's scale (1 - 0.9 * step_count / max_steps). 0: the env's "
       "default (minigrid's formula from the other options)"},
      {"agent_view_size", std::int64_t{7}, "side of the agent's square view (odd, >= 3)"},
      {"mission_bytes", std::int64_t{96},
       "length of the mission array (UTF-8, zero-padded; a longer mission is cut)"},
  };
}

Settings::Settings(const Config& config)
    : max_steps(static_cast<int>(config.get_int_in("max_steps", 1, 1 << 30))),
      agent_view_size(static_cast<int>(config.get_int_in("agent_view_size", 3, 255))),
      mission_bytes(static_cast<int>(config.get_int_in("mission_bytes", 1, 1 << 16))) {
  if (agent_view_size % 2 != 1) {
    throw std::invalid_argument("option 'agent_view_size' must be odd, got " + std::to_string(agent_view_size));
  }
}

EnvSpec minigrid_spec(const Config& config) { return minigrid_spec_actions(config, kNumActions); }

StartPos::StartPos(const Config& config)
    : x(static_cast<int>(config.get_int("agent_start_x"))),
      y(static_cast<int>(config.get_int("agent_start_y"))),
      dir(static_cast<int>(config.get_int_in("agent_start_dir", 0, 3))) {
  if ((x < 0) != (y < 0) || x < -1 || y < -1) {
    throw std::invalid_argument("agent_start_x and agent_start_y must both be >= 0, or both -1 (a random start)");
  }
}

std::vector<Option> StartPos::options(int x, int y, int dir) {
  return {
      {"agent_start_x", std::int64_t{x}, "the agent's start column; -1 (with agent_start_y -1): a random start"},
      {"agent_start_y", std::int64_t{y}, "the agent's start row; -1: a random start"},
      {"agent_start_dir", std::int64_t{dir}, "the agent's start direction (0 right, 1 down, 2 left, 3 up)"},
  };
}

void StartPos::check(int width, int height) const {
  if (!random() && (x < 1 || y < 1 || x > width - 2 || y > height - 2)) {
    throw std::invalid_argument("the agent's start (" + std::to_string(x) + ", " + std::to_string(y) +
                                ") is not inside the walls");
  }
}

void StartPos::place(MiniGridEnv& env) const {
  if (random()) {
    env.place_agent();
  } else {
    env.agent_pos = {x, y};
    env.agent_dir = dir;
  }
}

EnvSpec minigrid_spec_actions(const Config& config, int num_actions) {
  const Settings s(config);
  const std::int64_t v = s.agent_view_size;
  return EnvSpec{
      .obs =
          {
              ArraySpec{.name = "image", .dtype = DType::kUInt8, .shape = {v, v, 3}, .low = {0}, .high = {255}},
              ArraySpec{.name = "direction", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {3}},
              ArraySpec{.name = "mission", .dtype = DType::kUInt8, .shape = {s.mission_bytes}, .low = {0},
                        .high = {255}},
          },
      .obs_kind = ObsKind::kDict,
      .action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0},
                          .high = {static_cast<double>(num_actions - 1)}},
      .info = {ArraySpec{.name = "agent_pos", .dtype = DType::kInt32, .shape = {2}, .low = {}, .high = {}},
               ArraySpec{.name = "mission_id", .dtype = DType::kInt32, .shape = {}, .low = {}, .high = {}}},
  };
}

// --- MiniGridEnv -------------------------------------------------------------

MiniGridEnv::MiniGridEnv(const Config& config, int w, int h, bool see_through)
    : max_steps(Settings(config).max_steps),
      width(w),
      height(h),
      agent_view_size(Settings(config).agent_view_size),
      see_through_walls(see_through),
      settings_(config),
      agent_pos_info_(info_index(minigrid_spec(config).info, "agent_pos")),
      mission_id_info_(info_index(minigrid_spec(config).info, "mission_id")) {
  if (w < 3 || h < 3 || w > 255 || h > 255) {
    throw std::invalid_argument("minigrid: the grid must be 3 to 255 cells a side, got " + std::to_string(w) + "x" +
                                std::to_string(h));
  }
  grid.reset(w, h);
  view_.resize(static_cast<std::size_t>(agent_view_size * agent_view_size));
  mask_.resize(view_.size());
}

void MiniGridEnv::generate() {
  // BabyAI's loop: a generation that gave up (RejectSampling) starts again.
  for (int attempt = 0;; ++attempt) {
    agent_pos = {-1, -1};
    agent_dir = -1;
    carrying = Obj{};
    mission_id = 0;
    next_id_ = 0;
    grid.reset(width, height);
    try {
      gen_grid(width, height);
      break;
    } catch (const RejectSampling&) {
      if (attempt >= 1000) throw;
    }
  }
  if (!grid.in_bounds(agent_pos) || agent_dir < 0 || agent_dir > 3) {
    throw std::logic_error("minigrid: gen_grid left the agent unplaced");
  }
}

void MiniGridEnv::reset(Rng& rng, const Output& out) {
  rng_ = &rng;
  generate();
  carrying = Obj{};
  step_count = 0;
  after_reset();
  write_obs(out);
}

void MiniGridEnv::step(const Action& action, Rng& rng, const Output& out) {
  rng_ = &rng;
  const StepResult r = step_env(static_cast<int>(action.discrete()));
  *out.reward = r.reward;
  *out.terminated = r.terminated;
  if (out.truncated != nullptr) *out.truncated = step_count >= max_steps;
  write_obs(out);
}

Obj MiniGridEnv::front_cell() const {
  const Pos f = front_pos();
  return grid.in_bounds(f) ? grid.get(f) : Obj::wall();
}

MiniGridEnv::StepResult MiniGridEnv::base_step(int action) {
  ++step_count;
  StepResult r;
  const Pos fwd = front_pos();
  const bool inside = grid.in_bounds(fwd);
  const Obj fwd_cell = inside ? grid.get(fwd) : Obj::wall();
  switch (action) {
    case kLeft:
      agent_dir = (agent_dir + 3) % 4;
      break;
    case kRight:
      agent_dir = (agent_dir + 1) % 4;
      break;
    case kForward:
      if (fwd_cell.is_none() || fwd_cell.can_overlap()) agent_pos = fwd;
      if (fwd_cell.type == Type::kGoal) {
        r.terminated = true;
        r.reward = reward();
      }
      if (fwd_cell.type == Type::kLava) r.terminated = true;
      break;
    case kPickup:
      if (fwd_cell.can_pickup() && carrying.is_none()) {
        carrying = fwd_cell;
        grid.set(fwd, Obj{});
      }
      break;
    case kDrop:
      if (inside && fwd_cell.is_none() && !carrying.is_none()) {
        grid.set(fwd, carrying);
        carrying = Obj{};
      }
      break;
    case kToggle:
      if (fwd_cell.type == Type::kDoor) {
        Obj& door = grid.at(fwd);
        if (door.state == kLocked) {
          if (carrying.type == Type::kKey && carrying.color == door.color) door.state = kOpen;
        } else {
          door.state = door.state == kOpen ? kClosed : kOpen;
        }
      } else if (fwd_cell.type == Type::kBox) {
        grid.set(fwd, fwd_cell.contents());  // the box is replaced by its contents
      }
      break;
    default:  // kDone: nothing
      break;
  }
  return r;
}

bool MiniGridEnv::in_view(int x, int y) const {
  // minigrid's get_view_coords: the view's top-left corner, then the agent's axes.
  const Pos d = dir_vec();
  const Pos rv = right_vec();
  const int sz = agent_view_size;
  const int hs = sz / 2;
  const int tx = agent_pos.x + d.x * (sz - 1) - rv.x * hs;
  const int ty = agent_pos.y + d.y * (sz - 1) - rv.y * hs;
  const int lx = x - tx;
  const int ly = y - ty;
  const int vx = rv.x * lx + rv.y * ly;
  const int vy = -(d.x * lx + d.y * ly);
  return vx >= 0 && vy >= 0 && vx < sz && vy < sz;
}

Pos MiniGridEnv::view_pos(int i, int j) const {
  // View (i, j) is world top_left - f * j + r * i, top_left the far left corner.
  const int sz = agent_view_size;
  const Pos f = dir_vec();
  const Pos r = right_vec();
  return {agent_pos.x + f.x * (sz - 1 - j) + r.x * (i - sz / 2), agent_pos.y + f.y * (sz - 1 - j) + r.y * (i - sz / 2)};
}

// The view square in front of the agent, turned so the agent looks up from
// the middle of the bottom row; process_vis hides what walls and closed doors
// occlude; the agent's own cell shows what it carries.
void MiniGridEnv::gen_obs_grid() {
  const int sz = agent_view_size;
  const auto at = [sz](int i, int j) { return static_cast<std::size_t>(j * sz + i); };
  for (int j = 0; j < sz; ++j) {
    for (int i = 0; i < sz; ++i) {
      const Pos p = view_pos(i, j);
      view_[at(i, j)] = grid.in_bounds(p) ? grid.get(p) : Obj::wall();
    }
  }
  if (see_through_walls) {
    std::fill(mask_.begin(), mask_.end(), std::uint8_t{1});
  } else {
    std::fill(mask_.begin(), mask_.end(), std::uint8_t{0});
    mask_[at(sz / 2, sz - 1)] = 1;
    for (int j = sz - 1; j >= 0; --j) {
      for (int i = 0; i < sz - 1; ++i) {
        if (!mask_[at(i, j)] || !view_[at(i, j)].see_behind()) continue;
        mask_[at(i + 1, j)] = 1;
        if (j > 0) {
          mask_[at(i + 1, j - 1)] = 1;
          mask_[at(i, j - 1)] = 1;
        }
      }
      for (int i = sz - 1; i >= 1; --i) {
        if (!mask_[at(i, j)] || !view_[at(i, j)].see_behind()) continue;
        mask_[at(i - 1, j)] = 1;
        if (j > 0) {
          mask_[at(i - 1, j - 1)] = 1;
          mask_[at(i, j - 1)] = 1;
        }
      }
    }
  }
  view_[at(sz / 2, sz - 1)] = carrying;
}

// minigrid's gen_obs.
void MiniGridEnv::write_obs(const Output& out) {
  gen_obs_grid();
  const int sz = agent_view_size;
  const auto at = [sz](int i, int j) { return static_cast<std::size_t>(j * sz + i); };
  auto* image = out.obs_as<std::uint8_t>(0);
  // minigrid's image is indexed [i, j, channel].
  for (int i = 0; i < sz; ++i) {
    for (int j = 0; j < sz; ++j) {
      std::uint8_t* px = image + (static_cast<std::size_t>(i) * sz + j) * 3;
      if (mask_[at(i, j)]) {
        view_[at(i, j)].encode(px);
      } else {
        px[0] = px[1] = px[2] = 0;
      }
    }
  }
  *out.obs_as<std::int64_t>(1) = agent_dir;
  auto* m = out.obs_as<std::uint8_t>(2);
  const std::size_t n = std::min(mission.size(), static_cast<std::size_t>(settings_.mission_bytes));
  std::memcpy(m, mission.data(), n);
  std::memset(m + n, 0, static_cast<std::size_t>(settings_.mission_bytes) - n);
  auto* pos = out.info_as<std::int32_t>(agent_pos_info_);
  pos[0] = agent_pos.x;
  pos[1] = agent_pos.y;
  *out.info_as<std::int32_t>(mission_id_info_) = mission_id;
}

int MiniGridEnv::rand_int(int low, int high) {
  if (high <= low) {
    throw std::logic_error("minigrid: rand_int(" + std::to_string(low) + ", " + std::to_string(high) +
                           ") has an empty range");
  }
  return low + static_cast<int>(rng_->integer(static_cast<std::uint64_t>(high - low)));
}

double MiniGridEnv::rand_float(double low, double high) { return rng_->uniform(low, high); }

std::uint8_t MiniGridEnv::new_id() {
  next_id_ = static_cast<std::uint8_t>(next_id_ == 255 ? 1 : next_id_ + 1);
  return next_id_;
}

Obj MiniGridEnv::with_id(Obj obj) {
  const bool identity = obj.type == Type::kKey || obj.type == Type::kBall || obj.type == Type::kBox ||
                        obj.type == Type::kDoor;
  if (identity && obj.id == 0) obj.id = new_id();
  if (obj.type == Type::kBox && obj.in_type != Type::kEmpty && obj.in_id == 0) obj.in_id = new_id();
  return obj;
}

Pos MiniGridEnv::place_obj(Obj obj, Pos top, Pos size, const RejectFn& reject, long max_tries) {
  top = {std::max(top.x, 0), std::max(top.y, 0)};
  if (size.x == 0 && size.y == 0) size = {grid.width, grid.height};
  const int x_high = std::min(top.x + size.x, grid.width);
  const int y_high = std::min(top.y + size.y, grid.height);
  long num_tries = 0;
  Pos pos;
  while (true) {
    if (max_tries >= 0 && num_tries > max_tries) throw RejectSampling("rejection sampling failed in place_obj");
    ++num_tries;
    pos = {rand_int(top.x, x_high), rand_int(top.y, y_high)};
    if (!grid.get(pos).is_none()) continue;
    if (pos == agent_pos) continue;
    if (reject && reject(*this, pos)) continue;
    break;
  }
  if (!obj.is_none()) grid.set(pos, with_id(obj));
  return pos;
}

void MiniGridEnv::put_obj(Obj obj, int x, int y) { grid.set(x, y, obj.is_none() ? obj : with_id(obj)); }

Pos MiniGridEnv::place_agent(Pos top, Pos size, bool rand_dir, long max_tries) {
  agent_pos = {-1, -1};
  const Pos pos = place_obj(Obj{}, top, size, nullptr, max_tries);
  agent_pos = pos;
  if (rand_dir) agent_dir = rand_int(0, 4);
  return pos;
}

void MiniGridEnv::set_vars(const std::vector<std::int32_t>& vars) {
  if (!vars.empty()) {
    throw std::invalid_argument("minigrid state: this env has no variables of its own, the state has " +
                                std::to_string(vars.size()));
  }
}

// --- State blob ---------------------------------------------------------------

namespace {

constexpr char kMagic[4] = {'M', 'G', 'S', '1'};

void put_obj_bytes(std::string& s, const Obj& o) {
  const std::uint8_t b[8] = {static_cast<std::uint8_t>(o.type), static_cast<std::uint8_t>(o.color), o.state, o.id,
                             static_cast<std::uint8_t>(o.in_type), static_cast<std::uint8_t>(o.in_color),
                             o.in_state, o.in_id};
  s.append(reinterpret_cast<const char*>(b), 8);
}

template <class T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  template <class T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, s_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string_view bytes(std::size_t n) {
    need(n);
    auto v = s_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  bool done() const { return pos_ == s_.size(); }

 private:
  void need(std::size_t n) const {
    if (s_.size() - pos_ < n) throw std::invalid_argument("minigrid state: truncated blob");
  }
  std::string_view s_;
  std::size_t pos_ = 0;
};

Obj check_obj(const std::uint8_t* b, bool allow_contents, const char* where) {
  const auto bad = [&](const std::string& what) {
    throw std::invalid_argument(std::string("minigrid state: ") + where + ": " + what);
  };
  Obj o;
  if (b[0] < 1 || b[0] > 9) bad("object type " + std::to_string(b[0]) + " is not 1 (empty) to 9 (lava)");
  if (b[1] > 5) bad("colour " + std::to_string(b[1]) + " is not 0 to 5");
  o.type = static_cast<Type>(b[0]);
  o.color = static_cast<Color>(b[1]);
  o.state = b[2];
  o.id = b[3];
  if (o.type == Type::kDoor ? o.state > 2 : o.state != 0) bad("state " + std::to_string(o.state) + " is invalid");
  if (b[4] != static_cast<std::uint8_t>(Type::kEmpty) || b[6] != 0 || b[7] != 0) {
    if (!allow_contents || o.type != Type::kBox) bad("only a box on the grid may have contents");
    const std::uint8_t inner[8] = {b[4], b[5], b[6], b[7], 1, 0, 0, 0};
    const Obj c = check_obj(inner, false, where);
    o.set_contents(c);
  }
  if (o.is_none()) o.color = Color::kRed;
  return o;
}

}  // namespace

std::string MiniGridEnv::get_state() const {
  std::string s(kMagic, 4);
  put<std::uint8_t>(s, static_cast<std::uint8_t>(grid.width));
  put<std::uint8_t>(s, static_cast<std::uint8_t>(grid.height));
  for (const Obj& o : grid.cells()) put_obj_bytes(s, o);
  put_obj_bytes(s, carrying);
  for (int v : {agent_pos.x, agent_pos.y, agent_dir, step_count, max_steps}) put<std::int32_t>(s, v);
  put<std::uint16_t>(s, static_cast<std::uint16_t>(std::min<std::size_t>(mission.size(), 65535)));
  s.append(mission.data(), std::min<std::size_t>(mission.size(), 65535));
  const auto v = vars();
  put<std::uint16_t>(s, static_cast<std::uint16_t>(v.size()));
  for (auto x : v) put<std::int32_t>(s, x);
  return s;
}

void MiniGridEnv::set_state(std::string_view state) {
  Reader r(state);
  if (r.bytes(4) != std::string_view(kMagic, 4)) throw std::invalid_argument("minigrid state: not an MGS1 blob");
  const int w = r.get<std::uint8_t>();
  const int h = r.get<std::uint8_t>();
  if (w != width || h != height) {
    throw std::invalid_argument("minigrid state: grid is " + std::to_string(w) + "x" + std::to_string(h) +
                                ", this env's is " + std::to_string(width) + "x" + std::to_string(height));
  }
  Grid g;
  g.reset(w, h);
  for (Obj& o : g.cells()) {
    const auto b = r.bytes(8);
    o = check_obj(reinterpret_cast<const std::uint8_t*>(b.data()), true, "cell");
  }
  const auto cb = r.bytes(8);
  const Obj carried = check_obj(reinterpret_cast<const std::uint8_t*>(cb.data()), true, "carrying");
  if (!carried.is_none() && !carried.can_pickup()) {
    throw std::invalid_argument(std::string("minigrid state: the agent cannot carry a ") + type_name(carried.type));
  }
  const int ax = r.get<std::int32_t>();
  const int ay = r.get<std::int32_t>();
  const int dir = r.get<std::int32_t>();
  const int steps = r.get<std::int32_t>();
  const int max = r.get<std::int32_t>();
  if (!g.in_bounds(ax, ay)) throw std::invalid_argument("minigrid state: the agent is outside the grid");
  if (dir < 0 || dir > 3) throw std::invalid_argument("minigrid state: agent_dir must be 0 to 3");
  if (steps < 0 || max < 1) throw std::invalid_argument("minigrid state: step_count < 0 or max_steps < 1");
  const Obj& under = g.get(ax, ay);
  if (!under.is_none() && !under.can_overlap()) {
    throw std::invalid_argument(std::string("minigrid state: the agent stands on a ") + type_name(under.type));
  }
  const std::uint16_t n = r.get<std::uint16_t>();
  std::string m(r.bytes(n));
  const std::uint16_t nv = r.get<std::uint16_t>();
  std::vector<std::int32_t> v(nv);
  for (auto& x : v) x = r.get<std::int32_t>();
  if (!r.done()) throw std::invalid_argument("minigrid state: trailing bytes after the blob");
  set_vars(v);  // first: it may refuse the state, and then nothing has changed
  grid = std::move(g);
  carrying = carried;
  agent_pos = {ax, ay};
  agent_dir = dir;
  step_count = steps;
  max_steps = max;
  mission = std::move(m);
  std::uint8_t top = 0;
  for (const Obj& o : grid.cells()) top = std::max({top, o.id, o.in_id});
  next_id_ = std::max({top, carrying.id, carrying.in_id});
}

// --- RoomGrid -----------------------------------------------------------------

bool reject_next_to(const MiniGridEnv& env, Pos pos) {
  return std::abs(env.agent_pos.x - pos.x) + std::abs(env.agent_pos.y - pos.y) < 2;
}

namespace {
int checked_room_size(int room_size, int num_rows, int num_cols, bool cols) {
  if (room_size < 3 || num_rows < 1 || num_cols < 1) {
    throw std::invalid_argument("minigrid RoomGrid: room_size >= 3, num_rows >= 1 and num_cols >= 1 needed");
  }
  return (room_size - 1) * (cols ? num_cols : num_rows) + 1;
}
}  // namespace

RoomGrid::RoomGrid(const Config& config, int rs, int rows, int cols)
    : MiniGridEnv(config, checked_room_size(rs, rows, cols, true), checked_room_size(rs, rows, cols, false), false),
      room_size(rs),
      num_rows(rows),
      num_cols(cols) {}

Room& RoomGrid::get_room(int i, int j) {
  if (i < 0 || j < 0 || i >= num_cols || j >= num_rows) throw std::out_of_range("minigrid: no such room");
  return room_grid[static_cast<std::size_t>(j * num_cols + i)];
}

Room& RoomGrid::room_from_pos(int x, int y) { return get_room(x / (room_size - 1), y / (room_size - 1)); }

void RoomGrid::gen_grid(int w, int h) {
  grid.reset(w, h);
  room_grid.assign(static_cast<std::size_t>(num_rows * num_cols), Room{});
  for (int j = 0; j < num_rows; ++j) {
    for (int i = 0; i < num_cols; ++i) {
      Room& room = get_room(i, j);
      room.top = {i * (room_size - 1), j * (room_size - 1)};
      room.size = {room_size, room_size};
      grid.wall_rect(room.top.x, room.top.y, room.size.x, room.size.y);
    }
  }
  for (int j = 0; j < num_rows; ++j) {
    for (int i = 0; i < num_cols; ++i) {
      Room& room = get_room(i, j);
      const int x_l = room.top.x + 1;
      const int y_l = room.top.y + 1;
      const int x_m = room.top.x + room.size.x - 1;
      const int y_m = room.top.y + room.size.y - 1;
      if (i < num_cols - 1) {
        room.neighbors[0] = j * num_cols + i + 1;
        room.door_pos[0] = Pos{x_m, rand_int(y_l, y_m)};
      }
      if (j < num_rows - 1) {
        room.neighbors[1] = (j + 1) * num_cols + i;
        room.door_pos[1] = Pos{rand_int(x_l, x_m), y_m};
      }
      if (i > 0) {
        room.neighbors[2] = j * num_cols + i - 1;
        room.door_pos[2] = get_room(i - 1, j).door_pos[0];
      }
      if (j > 0) {
        room.neighbors[3] = (j - 1) * num_cols + i;
        room.door_pos[3] = get_room(i, j - 1).door_pos[1];
      }
    }
  }
  agent_pos = {(num_cols / 2) * (room_size - 1) + room_size / 2, (num_rows / 2) * (room_size - 1) + room_size / 2};
  agent_dir = 0;
}

std::pair<Obj, Pos> RoomGrid::place_in_room(int i, int j, Obj obj) {
  Room& room = get_room(i, j);
  obj = with_id(obj);
  const Pos pos = place_obj(obj, room.top, room.size, reject_next_to, 1000);
  room.objs.push_back(obj);
  room.obj_pos.push_back(pos);
  return {obj, pos};
}

std::pair<Obj, Pos> RoomGrid::add_object(int i, int j, std::optional<Type> kind, std::optional<Color> color) {
  static const std::vector<Type> kKinds = {Type::kKey, Type::kBall, Type::kBox};
  const Type k = kind ? *kind : rand_elem(kKinds);
  const Color c = color ? *color : rand_color();
  if (k != Type::kKey && k != Type::kBall && k != Type::kBox) {
    throw std::invalid_argument(std::string("minigrid add_object: ") + type_name(k) + " is not key, ball or box");
  }
  return place_in_room(i, j, Obj::make(k, c));
}

std::pair<Obj, Pos> RoomGrid::add_door(int i, int j, std::optional<int> door_idx, std::optional<Color> color,
                                       std::optional<bool> locked) {
  Room& room = get_room(i, j);
  int k;
  if (door_idx) {
    k = *door_idx;
  } else {
    while (true) {
      k = rand_int(0, 4);
      if (room.neighbors[static_cast<std::size_t>(k)] >= 0 && room.doors[static_cast<std::size_t>(k)] == Room::kNoDoor) {
        break;
      }
    }
  }
  const Color c = color ? *color : rand_color();
  const bool lock = locked ? *locked : rand_bool();
  const auto ku = static_cast<std::size_t>(k);
  if (room.doors[ku] != Room::kNoDoor) throw std::logic_error("minigrid add_door: door already exists");
  if (room.neighbors[ku] < 0 || !room.door_pos[ku]) throw std::logic_error("minigrid add_door: no neighbour there");
  room.locked = lock;
  const Obj door = with_id(Obj::door(c, false, lock));
  const Pos pos = *room.door_pos[ku];
  grid.set(pos, door);
  room.doors[ku] = Room::kDoorLink;
  room_grid[static_cast<std::size_t>(room.neighbors[ku])].doors[(ku + 2) % 4] = Room::kDoorLink;
  return {door, pos};
}

void RoomGrid::remove_wall(int i, int j, int wall_idx) {
  Room& room = get_room(i, j);
  const auto k = static_cast<std::size_t>(wall_idx);
  if (wall_idx < 0 || wall_idx > 3) throw std::logic_error("minigrid remove_wall: invalid wall index");
  if (room.doors[k] != Room::kNoDoor) throw std::logic_error("minigrid remove_wall: door exists on this wall");
  if (room.neighbors[k] < 0) throw std::logic_error("minigrid remove_wall: invalid wall");
  const int tx = room.top.x, ty = room.top.y, w = room.size.x, h = room.size.y;
  if (wall_idx == 0) {
    for (int n = 1; n < h - 1; ++n) grid.set(tx + w - 1, ty + n, Obj{});
  } else if (wall_idx == 1) {
    for (int n = 1; n < w - 1; ++n) grid.set(tx + n, ty + h - 1, Obj{});
  } else if (wall_idx == 2) {
    for (int n = 1; n < h - 1; ++n) grid.set(tx, ty + n, Obj{});
  } else {
    for (int n = 1; n < w - 1; ++n) grid.set(tx + n, ty, Obj{});
  }
  room.doors[k] = Room::kOpening;
  room_grid[static_cast<std::size_t>(room.neighbors[k])].doors[(k + 2) % 4] = Room::kOpening;
}

Pos RoomGrid::place_agent_in_room(std::optional<int> i, std::optional<int> j, bool rand_dir) {
  const int ii = i ? *i : rand_int(0, num_cols);
  const int jj = j ? *j : rand_int(0, num_rows);
  const Room room = get_room(ii, jj);
  while (true) {
    MiniGridEnv::place_agent(room.top, room.size, rand_dir, 1000);
    const Obj front = front_cell();
    if (front.is_none() || front.type == Type::kWall) break;
  }
  return agent_pos;
}

Obj RoomGrid::key_corridor(Type kind) {
  for (int j = 1; j < num_rows; ++j) remove_wall(1, j, 3);
  const int room_idx = rand_int(0, num_rows);
  const Obj door = add_door(2, room_idx, 2, std::nullopt, true).first;
  const Obj obj = add_object(2, room_idx, kind).first;
  add_object(0, rand_int(0, num_rows), Type::kKey, door.color);
  place_agent_in_room(1, num_rows / 2);
  connect_all();
  return obj;
}

Type key_corridor_obj_type(const std::string& name) {
  if (name == "ball") return Type::kBall;
  if (name == "box") return Type::kBox;
  if (name == "key") return Type::kKey;
  throw std::invalid_argument("KeyCorridor: obj_type must be 'ball', 'box' or 'key', got '" + name + "'");
}

std::vector<Obj> RoomGrid::connect_all(const std::vector<Color>& door_colors, int max_itrs) {
  const int start = room_index(room_from_pos(agent_pos.x, agent_pos.y));
  std::vector<Obj> added;
  const auto num_reached = [&] {
    std::vector<char> seen(room_grid.size(), 0);
    std::vector<int> stack = {start};
    int count = 0;
    while (!stack.empty()) {
      const int r = stack.back();
      stack.pop_back();
      if (seen[static_cast<std::size_t>(r)]) continue;
      seen[static_cast<std::size_t>(r)] = 1;
      ++count;
      const Room& room = room_grid[static_cast<std::size_t>(r)];
      for (std::size_t k = 0; k < 4; ++k) {
        if (room.doors[k] != Room::kNoDoor) stack.push_back(room.neighbors[k]);
      }
    }
    return count;
  };
  int num_itrs = 0;
  while (true) {
    if (num_itrs > max_itrs) throw RejectSampling("connect_all failed");
    ++num_itrs;
    if (num_reached() == num_rows * num_cols) break;
    const int i = rand_int(0, num_cols);
    const int j = rand_int(0, num_rows);
    const int k = rand_int(0, 4);
    Room& room = get_room(i, j);
    const auto ku = static_cast<std::size_t>(k);
    if (!room.door_pos[ku] || room.doors[ku] != Room::kNoDoor) continue;
    const Room& neighbor = room_grid[static_cast<std::size_t>(room.neighbors[ku])];
    if (room.locked || neighbor.locked) continue;
    const Color color = rand_elem(door_colors);
    added.push_back(add_door(i, j, k, color, false).first);
  }
  return added;
}

std::vector<Obj> RoomGrid::add_distractors(std::optional<int> i, std::optional<int> j, int num_distractors,
                                           bool all_unique) {
  static const std::vector<Type> kKinds = {Type::kKey, Type::kBall, Type::kBox};
  std::vector<std::pair<Type, Color>> objs;
  for (const Room& room : room_grid) {
    for (const Obj& o : room.objs) objs.emplace_back(o.type, o.color);
  }
  std::vector<Obj> dists;
  while (static_cast<int>(dists.size()) < num_distractors) {
    const Color color = rand_elem(kColorNames);
    const Type type = rand_elem(kKinds);
    if (all_unique && std::find(objs.begin(), objs.end(), std::pair{type, color}) != objs.end()) continue;
    const int ri = i ? *i : rand_int(0, num_cols);
    const int rj = j ? *j : rand_int(0, num_rows);
    dists.push_back(add_object(ri, rj, type, color).first);
    objs.emplace_back(type, color);
  }
  return dists;
}

}  // namespace rlpool::minigrid
