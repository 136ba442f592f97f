// The Minigrid core: minigrid 3.2.0's world objects, grid, partial view, step
// rules and random-draw helpers, and its RoomGrid layer, as a C++ base that
// every MiniGrid-* and BabyAI-* env derives from.
//
// Written for rlpool from minigrid's documented behaviour (its Python source
// read as a specification); no minigrid code is reused. Names follow
// minigrid's so that an env's generation code reads like its Python original:
//
//   minigrid (Python)                      here (C++, members of MiniGridEnv)
//   self.grid = Grid(w, h)                 grid.reset(w, h)
//   self.grid.wall_rect(0, 0, w, h)        grid.wall_rect(0, 0, w, h)
//   self.put_obj(Goal(), x, y)             put_obj(Obj::goal(), x, y)
//   self.place_obj(Key("yellow"), ...)     place_obj(Obj::key(Color::kYellow), top, size)
//   self.place_agent()                     place_agent()
//   self._rand_int(a, b)                   rand_int(a, b)            (numpy's integers: [a, b))
//   self._rand_elem(lst)                   rand_elem(lst)
//   self._rand_subset(lst, n)              rand_subset(lst, n)
//   self._rand_color()                     rand_color()
//   self._rand_bool()                      rand_bool()
//   self.mission = "..."                   mission = "..."
//
// An env implements gen_grid() (minigrid's _gen_grid) and, where minigrid's
// env overrides step(), step_env() calling base_step() first. See empty.cc /
// doorkey.cc (MiniGridEnv) and babyai_open.cc (RoomGrid) for complete envs. render() (minigrid_render.cc) draws every env's
// frame; an env type is registered with register_minigrid, which sizes it.
//
// Draws: minigrid draws from numpy's generator; here every draw comes from the
// env's rlpool::Rng with the same distribution (uniform integers on the same
// ranges, in the same order), so generated levels have minigrid's
// distributions but not its exact draws.
//
// State (get_state / set_state), little-endian, version 1:
//   "MGS1"                         4 bytes
//   u8 width, u8 height
//   width * height cells           8 bytes each, row-major (index y * width + x):
//                                  type, colour, state, id, and the box's contents:
//                                  in_type, in_colour, in_state, in_id
//   carrying                       8 bytes, the same layout (type 1 "empty" = nothing)
//   i32 agent_x, agent_y, agent_dir, step_count, max_steps
//   u16 n, n bytes                 the mission (UTF-8)
//   u16 m, m x i32                 the env's own variables (vars(): e.g. a target)
// type/colour/state are minigrid's OBJECT_TO_IDX / COLOR_TO_IDX / door STATE_TO_IDX
// (0 open, 1 closed, 2 locked); state is 0 for every other object. `id` tells
// objects apart where an env needs identity (BabyAI's "the carried object is
// this one"); 0 = none. `rlpool.envs.minigrid.state` builds this blob from a
// live minigrid env and reads it back.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "_core/env/env.h"

namespace rlpool::minigrid {

// minigrid's OBJECT_TO_IDX.
enum class Type : std::uint8_t {
  kUnseen = 0, kEmpty = 1, kWall = 2, kFloor = 3, kDoor = 4, kKey = 5,
  kBall = 6, kBox = 7, kGoal = 8, kLava = 9, kAgent = 10,
};
// minigrid's COLOR_TO_IDX.
enum class Color : std::uint8_t { kRed = 0, kGreen = 1, kBlue = 2, kPurple = 3, kYellow = 4, kGrey = 5 };
// minigrid's door STATE_TO_IDX.
enum DoorState : std::uint8_t { kOpen = 0, kClosed = 1, kLocked = 2 };
// minigrid's Actions.
enum Act : int { kLeft = 0, kRight = 1, kForward = 2, kPickup = 3, kDrop = 4, kToggle = 5, kDone = 6 };
inline constexpr int kNumActions = 7;

// minigrid's COLOR_NAMES (sorted names: blue, green, grey, purple, red, yellow),
// the list _rand_color and most envs draw colours from.
inline constexpr std::array<Color, 6> kColorNames = {Color::kBlue, Color::kGreen, Color::kGrey,
                                                     Color::kPurple, Color::kRed, Color::kYellow};
const char* color_name(Color color);  // "red", ...
const char* type_name(Type type);     // "key", ... (OBJECT_TO_IDX's names)

struct Pos {
  int x = 0;
  int y = 0;
  friend bool operator==(Pos a, Pos b) { return a.x == b.x && a.y == b.y; }
  friend bool operator!=(Pos a, Pos b) { return !(a == b); }
  friend Pos operator+(Pos a, Pos b) { return {a.x + b.x, a.y + b.y}; }
  friend Pos operator-(Pos a, Pos b) { return {a.x - b.x, a.y - b.y}; }
};
// minigrid's DIR_TO_VEC: 0 right (+x), 1 down (+y), 2 left, 3 up.
inline constexpr std::array<Pos, 4> kDirVec = {Pos{1, 0}, Pos{0, 1}, Pos{-1, 0}, Pos{0, -1}};

// One world object, or nothing (type kEmpty): what a grid cell holds and what
// the agent carries. A value type (8 bytes); a box holds its contents inline
// (one level: a box inside a box loses what that box holds).
struct Obj {
  Type type = Type::kEmpty;
  Color color = Color::kRed;
  std::uint8_t state = 0;  // doors: DoorState; else 0
  std::uint8_t id = 0;     // identity where an env needs it; 0 = none
  Type in_type = Type::kEmpty;  // a box's contents
  Color in_color = Color::kRed;
  std::uint8_t in_state = 0;
  std::uint8_t in_id = 0;

  // minigrid's constructors with their default colours.
  static Obj none() { return {}; }
  static Obj wall(Color c = Color::kGrey) { return make(Type::kWall, c); }
  static Obj floor(Color c = Color::kBlue) { return make(Type::kFloor, c); }
  static Obj door(Color c, bool is_open = false, bool is_locked = false) {
    Obj o = make(Type::kDoor, c);
    o.state = is_open ? kOpen : (is_locked ? kLocked : kClosed);
    return o;
  }
  static Obj key(Color c = Color::kBlue) { return make(Type::kKey, c); }
  static Obj ball(Color c = Color::kBlue) { return make(Type::kBall, c); }
  static Obj box(Color c) { return make(Type::kBox, c); }
  static Obj box(Color c, const Obj& contains) {
    Obj o = make(Type::kBox, c);
    o.set_contents(contains);
    return o;
  }
  static Obj goal(Color c = Color::kGreen) { return make(Type::kGoal, c); }
  static Obj lava() { return make(Type::kLava, Color::kRed); }
  static Obj make(Type t, Color c) {
    Obj o;
    o.type = t;
    o.color = c;
    return o;
  }

  bool is_none() const { return type == Type::kEmpty; }
  explicit operator bool() const { return !is_none(); }
  bool is(Type t, Color c) const { return type == t && color == c; }
  // minigrid's WorldObj methods.
  bool can_overlap() const {
    return type == Type::kGoal || type == Type::kFloor || type == Type::kLava ||
           (type == Type::kDoor && state == kOpen);
  }
  bool can_pickup() const { return type == Type::kKey || type == Type::kBall || type == Type::kBox; }
  bool see_behind() const { return !(type == Type::kWall || (type == Type::kDoor && state != kOpen)); }
  bool is_open() const { return type == Type::kDoor && state == kOpen; }
  bool is_locked() const { return type == Type::kDoor && state == kLocked; }
  Obj contents() const {
    Obj o;
    o.type = in_type;
    o.color = in_color;
    o.state = in_state;
    o.id = in_id;
    return o;
  }
  void set_contents(const Obj& c) {
    in_type = c.type;
    in_color = c.color;
    in_state = c.state;
    in_id = c.id;
  }
  // minigrid's encode(): (type, colour, state) of a visible cell.
  void encode(std::uint8_t* out) const {
    out[0] = static_cast<std::uint8_t>(type);
    out[1] = is_none() ? 0 : static_cast<std::uint8_t>(color);
    out[2] = is_none() ? 0 : state;
  }
};

// minigrid's Grid: width x height cells, (x, y) with x the column.
class Grid {
 public:
  int width = 0;
  int height = 0;

  void reset(int w, int h) {
    width = w;
    height = h;
    cells_.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), Obj{});
  }
  bool in_bounds(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  bool in_bounds(Pos p) const { return in_bounds(p.x, p.y); }
  const Obj& get(int x, int y) const { return cells_[index(x, y)]; }
  const Obj& get(Pos p) const { return get(p.x, p.y); }
  Obj& at(int x, int y) { return cells_[index(x, y)]; }
  Obj& at(Pos p) { return at(p.x, p.y); }
  void set(int x, int y, const Obj& v) { cells_[index(x, y)] = v; }
  void set(Pos p, const Obj& v) { set(p.x, p.y, v); }
  // length < 0: to the grid's edge (minigrid's length=None).
  void horz_wall(int x, int y, int length = -1, const Obj& obj = Obj::wall());
  void vert_wall(int x, int y, int length = -1, const Obj& obj = Obj::wall());
  void wall_rect(int x, int y, int w, int h);
  // minigrid's `(color, type) in grid`.
  bool contains(Type t, Color c) const;
  const std::vector<Obj>& cells() const { return cells_; }
  std::vector<Obj>& cells() { return cells_; }

 private:
  std::size_t index(int x, int y) const {
    if (!in_bounds(x, y)) {
      throw std::out_of_range("minigrid: cell (" + std::to_string(x) + ", " + std::to_string(y) +
                              ") is outside the " + std::to_string(width) + "x" + std::to_string(height) + " grid");
    }
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
  }
  std::vector<Obj> cells_;
};

// Thrown by generation code where minigrid raises RecursionError (rejection
// sampling ran out of tries) or BabyAI's RejectSampling: reset() then
// generates the level again from scratch, as BabyAI does. (Plain minigrid envs
// would fail their reset there; in practice their limits are never reached.)
struct RejectSampling : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where an env's options come from: the options every Minigrid env type takes
// (append yours). `default_max_steps`: 0 means "the env computes it from its
// other options"; Python's registration resolves it before the env is built.
std::vector<Option> common_options();
// The spec every Minigrid env has: obs "image" (view x view x 3 uint8),
// "direction" (int64, 0..3), "mission" (mission_bytes uint8, UTF-8, zero-padded),
// a dict; 7 discrete actions; info "agent_pos" (int32 x, y) and "mission_id" (int32, EnvPool's).
EnvSpec minigrid_spec(const Config& config);
// The same with fewer actions (DynamicObstacles: left, right, forward).
EnvSpec minigrid_spec_actions(const Config& config, int num_actions);
// register_env_type for a Minigrid env type: its spec also gets the frame of
// render() (the grid at 32 pixels a cell, minigrid's render_fps 10). The grid's
// size comes from the options in each env's own way, so the spec builds an env
// (from `create`) to read it, unless `grid_size` gives it from the options (an
// env that cannot be built without an input file still has a spec then).
bool register_minigrid(EnvType type, std::function<Pos(const Config&)> grid_size = nullptr);

class MiniGridEnv;

// A fixed start (minigrid's agent_start_pos / agent_start_dir), or a random
// one (place_agent) where agent_start_x and agent_start_y are -1.
struct StartPos {
  int x = 1;
  int y = 1;
  int dir = 0;
  bool random() const { return x < 0; }
  explicit StartPos(const Config& config);
  // The options, with these defaults.
  static std::vector<Option> options(int x = 1, int y = 1, int dir = 0);
  // Refuses a start outside the walls of a width x height grid.
  void check(int width, int height) const;
  // minigrid's "if self.agent_start_pos is not None: ... else: self.place_agent()".
  void place(MiniGridEnv& env) const;
};

// The options read from Config that shape every env (checked here).
struct Settings {
  int max_steps = 100;
  int agent_view_size = 7;
  int mission_bytes = 96;
  explicit Settings(const Config& config);
};

class MiniGridEnv : public Env {
 public:
  struct StepResult {
    double reward = 0.0;
    bool terminated = false;
  };

  // width/height: the grid's size (fixed for the env); see_through_walls as
  // the minigrid env passes it to MiniGridEnv.__init__.
  MiniGridEnv(const Config& config, int width, int height, bool see_through_walls);

  void reset(Rng& rng, const Output& out) final;
  void step(const Action& action, Rng& rng, const Output& out) final;
  std::string get_state() const final;
  void set_state(std::string_view state) final;
  // minigrid's render() in rgb_array mode: get_frame(highlight=True, tile_size=32,
  // agent_pov=False), the whole grid with the cells the agent sees highlighted.
  void render(const Frame& frame) final;

  // --- What an env implements ---------------------------------------------
  // minigrid's _gen_grid: build grid, agent_pos, agent_dir and mission.
  virtual void gen_grid(int width, int height) = 0;
  // minigrid's step(): base_step() plus the env's own rules. Default: base_step.
  virtual StepResult step_env(int action) { return base_step(action); }
  // Called after gen_grid and the reset of carrying/step_count (BabyAI: the
  // verifier, a per-episode max_steps, a start with something carried).
  virtual void after_reset() {}
  // The env's own variables in the state (targets, obstacle positions, ...).
  virtual std::vector<std::int32_t> vars() const { return {}; }
  virtual void set_vars(const std::vector<std::int32_t>& vars);

  // --- minigrid's MiniGridEnv, for envs -----------------------------------
  // minigrid's step(): step_count += 1, then the action's effect; reward
  // reward() on reaching a goal, terminated on a goal or lava.
  StepResult base_step(int action);
  double reward() const { return 1.0 - 0.9 * (static_cast<double>(step_count) / static_cast<double>(max_steps)); }
  Pos dir_vec() const { return kDirVec[static_cast<std::size_t>(agent_dir)]; }
  Pos right_vec() const { return {-dir_vec().y, dir_vec().x}; }
  Pos front_pos() const { return agent_pos + dir_vec(); }
  // The cell in front; outside the grid: a wall (minigrid would fail there).
  Obj front_cell() const;
  // minigrid's in_view / relative_coords: is (x, y) inside the view square.
  bool in_view(int x, int y) const;

  // Random draws (minigrid's _rand_*), from the env's generator.
  int rand_int(int low, int high);  // [low, high); low < high
  double rand_float(double low, double high);
  bool rand_bool() { return rand_int(0, 2) == 0; }
  template <class T>
  const T& rand_elem(const std::vector<T>& list) {
    return list[static_cast<std::size_t>(rand_int(0, static_cast<int>(list.size())))];
  }
  template <class T, std::size_t N>
  const T& rand_elem(const std::array<T, N>& list) {
    return list[static_cast<std::size_t>(rand_int(0, static_cast<int>(N)))];
  }
  template <class T>
  std::vector<T> rand_subset(std::vector<T> list, int num_elems) {
    std::vector<T> out;
    while (static_cast<int>(out.size()) < num_elems) {
      const auto i = static_cast<std::size_t>(rand_int(0, static_cast<int>(list.size())));
      out.push_back(list[i]);
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return out;
  }
  Color rand_color() { return rand_elem(kColorNames); }
  Pos rand_pos(int x_low, int x_high, int y_low, int y_high) {
    const int x = rand_int(x_low, x_high);
    return {x, rand_int(y_low, y_high)};
  }

  using RejectFn = std::function<bool(const MiniGridEnv&, Pos)>;
  // minigrid's place_obj: a uniform empty cell of the rectangle (top, size;
  // size {0, 0} = the whole grid) that is not the agent's and that `reject`
  // does not refuse; max_tries < 0 = no limit, else RejectSampling after it.
  // Gives the object an id if it is an object with identity (key, ball, box,
  // door) and has none. obj may be none (place_agent).
  Pos place_obj(Obj obj, Pos top = {0, 0}, Pos size = {0, 0}, const RejectFn& reject = nullptr,
                long max_tries = -1);
  void put_obj(Obj obj, int x, int y);
  // minigrid's place_agent: a free cell of the rectangle; a uniform direction.
  Pos place_agent(Pos top = {0, 0}, Pos size = {0, 0}, bool rand_dir = true, long max_tries = -1);
  // The id the next object gets (per episode); ids wrap after 255.
  std::uint8_t new_id();
  Obj with_id(Obj obj);

  // --- State, public for envs ----------------------------------------------
  Grid grid;
  Pos agent_pos{-1, -1};
  int agent_dir = -1;
  Obj carrying;  // is_none(): nothing
  int step_count = 0;
  int max_steps;
  std::string mission;
  // EnvPool's info["mission_id"]: the mission's index among the env's mission templates (set by
  // gen_grid where EnvPool has one, else 0). Not part of the state: set_state keeps the current one.
  int mission_id = 0;
  const int width;
  const int height;
  const int agent_view_size;
  const bool see_through_walls;

 protected:
  Rng& rng() { return *rng_; }

 private:
  void write_obs(const Output& out);
  void generate();
  // minigrid's gen_obs_grid: view_ (the view square, the agent's cell showing
  // what it carries) and mask_ (what it sees), view (i, j) at world view_pos(i, j).
  void gen_obs_grid();
  Pos view_pos(int i, int j) const;
  // render()'s tiles, built on first use (minigrid's Grid.tile_cache): indexed by tile_key().
  const std::uint8_t* tile(const Obj& obj, int agent_dir, bool highlight);

  Settings settings_;
  std::size_t agent_pos_info_;
  std::size_t mission_id_info_;
  Rng* rng_ = nullptr;
  std::uint8_t next_id_ = 0;
  // gen_obs scratch: the view's cells and visibility.
  std::vector<Obj> view_;
  std::vector<std::uint8_t> mask_;
  std::vector<std::vector<std::uint8_t>> tiles_;
  std::vector<std::uint8_t> highlight_;  // render scratch: per cell, index y * width + x
};

// --- minigrid's RoomGrid (core/roomgrid.py) -------------------------------
// Rooms in num_rows x num_cols, each room_size cells square, sharing walls.
// Room (i, j) is column i, row j. Wall / door index: 0 right, 1 down, 2 left, 3 up.
struct Room {
  enum Link : std::uint8_t { kNoDoor = 0, kDoorLink = 1, kOpening = 2 };  // doors[k]: None / a Door / True
  Pos top;
  Pos size;
  std::array<Link, 4> doors{kNoDoor, kNoDoor, kNoDoor, kNoDoor};
  std::array<std::optional<Pos>, 4> door_pos{};
  std::array<int, 4> neighbors{-1, -1, -1, -1};  // index j * num_cols + i, -1 none
  bool locked = false;
  std::vector<Obj> objs;  // the objects added to this room (copies, with their ids)
  std::vector<Pos> obj_pos;

  bool pos_inside(int x, int y) const {
    return x >= top.x && y >= top.y && x < top.x + size.x && y < top.y + size.y;
  }
};

class RoomGrid : public MiniGridEnv {
 public:
  RoomGrid(const Config& config, int room_size, int num_rows, int num_cols);

  // RoomGrid._gen_grid: the rooms' walls, door positions, the agent in the
  // middle room facing right. Envs call it first from their gen_grid.
  void gen_grid(int width, int height) override;

  Room& get_room(int i, int j);
  Room& room_from_pos(int x, int y);
  int room_index(const Room& room) const { return static_cast<int>(&room - room_grid.data()); }
  // Objects: place_in_room puts obj anywhere in room (i, j) not next to the
  // agent (reject_next_to, 1000 tries); add_object draws kind (key, ball,
  // box) and colour where not given.
  std::pair<Obj, Pos> place_in_room(int i, int j, Obj obj);
  std::pair<Obj, Pos> add_object(int i, int j, std::optional<Type> kind = std::nullopt,
                                 std::optional<Color> color = std::nullopt);
  std::pair<Obj, Pos> add_door(int i, int j, std::optional<int> door_idx = std::nullopt,
                               std::optional<Color> color = std::nullopt, std::optional<bool> locked = std::nullopt);
  void remove_wall(int i, int j, int wall_idx);
  // In room (i, j) (drawn where not given), not facing an object.
  Pos place_agent_in_room(std::optional<int> i = std::nullopt, std::optional<int> j = std::nullopt,
                          bool rand_dir = true);
  std::vector<Obj> connect_all(const std::vector<Color>& door_colors = {kColorNames.begin(), kColorNames.end()},
                               int max_itrs = 5000);
  std::vector<Obj> add_distractors(std::optional<int> i = std::nullopt, std::optional<int> j = std::nullopt,
                                   int num_distractors = 10, bool all_unique = true);
  // minigrid's KeyCorridor layout (a 3-column RoomGrid), which BabyAI's KeyCorridor levels draw the same
  // way: the middle column is a corridor, the object of `kind` sits behind a locked door on the right, its
  // key on the left, the agent in the corridor. Returns the object to pick up.
  Obj key_corridor(Type kind);

  const int room_size;
  const int num_rows;
  const int num_cols;
  std::vector<Room> room_grid;  // index j * num_cols + i
};

// KeyCorridor's obj_type option ('ball', 'box' or 'key'); anything else is a std::invalid_argument.
Type key_corridor_obj_type(const std::string& name);

// Fisher-Yates over the env's draws: a uniform permutation (numpy's shuffle).
template <class T>
void shuffle(MiniGridEnv& env, std::vector<T>& v) {
  for (int i = static_cast<int>(v.size()) - 1; i > 0; --i) {
    std::swap(v[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(env.rand_int(0, i + 1))]);
  }
}

// An env whose goal is one object (minigrid's `self.carrying == self.obj`:
// identity), kept by its id; its variable in the state is that id.
class PickupTarget : public RoomGrid {  // UnlockPickup, KeyCorridor, ObstructedMaze
 public:
  using RoomGrid::RoomGrid;

  StepResult step_env(int action) override {
    StepResult r = base_step(action);
    if (action == kPickup && !carrying.is_none() && carrying.id == target_id_) {
      r.reward = reward();
      r.terminated = true;
    }
    return r;
  }
  std::vector<std::int32_t> vars() const override { return {target_id_}; }
  void set_vars(const std::vector<std::int32_t>& v) override {
    if (v.size() != 1 || v[0] < 1 || v[0] > 255) {
      throw std::invalid_argument("minigrid state: this env's variables are [target object id (1-255)]");
    }
    target_id_ = v[0];
  }

 protected:
  void set_target(const Obj& obj) {
    target_id_ = obj.id;
    mission = std::string("pick up the ") + color_name(obj.color) + " " + type_name(obj.type);
  }
  std::int32_t target_id() const { return target_id_; }

 private:
  std::int32_t target_id_ = 0;
};

// minigrid's reject_next_to: refuse cells within Manhattan distance 1 of the agent.
bool reject_next_to(const MiniGridEnv& env, Pos pos);

}  // namespace rlpool::minigrid
