// BabyAI's instruction language (minigrid 3.2.0 envs/babyai/core/verifier.py)
// and the level base every BabyAI-* env derives from (core/roomgrid_level.py
// and core/levelgen.py), on the Minigrid core.
//
// Written for rlpool from minigrid's behaviour; no minigrid code is reused.
//
// An instruction is a tree of nodes (Instrs::nodes, root 0): actions (go to,
// pick up, open, put next) hold object descriptions (ObjDesc: type, colour,
// location, the set of matching objects by id and their positions), and
// sequences (before, after, and) hold two children. The whole tree, verifier
// progress included, is the level's variables in the state blob (see
// Instrs::pack), so an episode copied from minigrid continues identically.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid::babyai {

// verifier.py's LOC_NAMES.
enum Loc : std::int8_t { kNoLoc = -1, kLeft = 0, kRight = 1, kFront = 2, kBehind = 3 };

// ObjDesc: type / colour / loc -1 = None.
struct ObjDesc {
  int type = -1;   // Type (key, ball, box, door)
  int color = -1;  // Color
  int loc = kNoLoc;
  std::vector<std::uint8_t> obj_set;  // ids of the matching objects
  std::vector<Pos> obj_poss;          // their positions (updated after drops)

  ObjDesc() = default;
  ObjDesc(int t, int c, int l = kNoLoc) : type(t), color(c), loc(l) {}
  // find_matching_objs: use_location true recomputes obj_set; false only the
  // positions of the objects already in obj_set.
  void find_matching_objs(RoomGrid& env, bool use_location = true);
  std::string surface(RoomGrid& env);
};

// verify()'s results; kFalse is a sequence's "not verified yet" (Python's False).
enum Status : std::int8_t { kFalse = 0, kContinue = 1, kSuccess = 2, kFailure = 3 };
enum class Kind : std::int8_t { kGoTo = 0, kPickup = 1, kOpen = 2, kPutNext = 3, kBefore = 4, kAfter = 5, kAnd = 6 };

struct Node {
  Kind kind = Kind::kGoTo;
  bool strict = false;
  ObjDesc desc;        // the object (PutNext: the one to move)
  ObjDesc desc_fixed;  // PutNext: the one to put it next to
  int pre_carrying = 0;  // Pickup / PutNext: id carried at the last verify (0 none)
  Status a_done = kFalse;  // sequences
  Status b_done = kFalse;
  int a = -1;  // children (node indices)
  int b = -1;
  bool is_seq() const { return kind == Kind::kBefore || kind == Kind::kAfter || kind == Kind::kAnd; }
};

// The tree: `nodes`, `root` its top. Builders add a node and make it the root,
// so a tree is built bottom-up (children first). Methods taking a node index
// n start from the root where n < 0.
class Instrs {
 public:
  std::vector<Node> nodes;
  int root = 0;

  void clear() {
    nodes.clear();
    root = 0;
  }
  bool empty() const { return nodes.empty(); }
  // Builders: each returns the new node's index.
  int action(Kind kind, const ObjDesc& desc, bool strict = false);
  int put_next(const ObjDesc& move, const ObjDesc& fixed, bool strict = false);
  int seq(Kind kind, int a, int b, bool strict = false);

  std::string surface(RoomGrid& env, int n = -1);
  void reset_verifier(RoomGrid& env, int n = -1);
  Status verify(RoomGrid& env, int action, int n = -1);
  void update_objs_poss(RoomGrid& env, int n = -1);
  int num_navs_needed(int n = -1) const;
  // PutNextInstr.objs_next: an object to move already next to a fixed one.
  bool objs_next(RoomGrid& env, int n) const;

  // The tree as int32s, root first (pre-order); unpack refuses a malformed list.
  std::vector<std::int32_t> pack() const;
  static Instrs unpack(const std::vector<std::int32_t>& v);

 private:
  Status verify_action(RoomGrid& env, int action, Node& node);
  Status ordered(RoomGrid& env, int action, int n, int first, int second, Status& first_done, Status& second_done);
  void pack_node(int n, std::vector<std::int32_t>& out) const;
  int unpack_node(const std::vector<std::int32_t>& v, std::size_t& pos, int depth);
  int add(Node node);
};

// roomgrid_level.py's RoomGridLevel: a level builds its grid and instruction
// in gen_mission(); the verifier decides success (reward) or failure (0).
class Level : public RoomGrid {
 public:
  Level(const Config& config, int room_size, int num_rows, int num_cols);

  void gen_grid(int width, int height) final;
  void after_reset() final;
  StepResult step_env(int action) final;
  std::vector<std::int32_t> vars() const final { return instrs.pack(); }
  void set_vars(const std::vector<std::int32_t>& v) final;

  // The level's generation: fill the grid, place the agent, set `instrs`.
  virtual void gen_mission() = 0;
  // After the verifier's reset (a level's own reset(): PutNext's start carrying).
  virtual void after_verifier() {}

  void validate_instrs(int n = -1);
  void open_all_doors();
  bool check_objs_reachable(bool raise_exc = true);
  // RoomGrid.place_agent, with a bound: minigrid loops forever where the only
  // free cells of the room face objects (a room of 3 x 3 cells filled but its
  // middle: SynthS5R2 meets it about once in 2000 levels); here the level is
  // generated again after 10000 placements (a level with any valid placement
  // needs far fewer: the distributions are unchanged). Shadows RoomGrid's.
  Pos place_agent_in_room(std::optional<int> i = std::nullopt, std::optional<int> j = std::nullopt,
                          bool rand_dir = true);
  // GoToImpUnlock / Unlock: a locked door on a drawn wall of a drawn room, its
  // key in another drawn room. Returns the door and the locked room's index.
  std::pair<Obj, int> add_locked_room_with_key();
  // place_agent again until the agent is outside room `room` (an index; -1: any room).
  void place_agent_outside(int room);
  // The grid cell holding the object of this id (for levels that change an
  // object after adding it, as Python does through the object).
  Obj& obj_by_id(std::uint8_t id);

  Instrs instrs;
  bool unblocking = false;  // validate_instrs' check of keys of locked doors (LevelGen's unblocking)

 private:
  bool per_episode_max_steps_;
};

// The options every BabyAI level takes (common_options plus per_episode_max_steps),
// and those plus `extra`.
std::vector<Option> level_options();
std::vector<Option> level_options(std::vector<Option> extra);
// A level's integer option in [low, high].
int int_opt(const Config& c, const char* name, int low, int high);
// ObjDesc(obj.type, obj.color).
inline ObjDesc desc_of(const Obj& o) { return {static_cast<int>(o.type), static_cast<int>(o.color)}; }
// A colour option: "" = None (-1), else one of minigrid's colour names.
int color_opt(const Config& c, const char* name);
// Every door of the rooms, room by room (columns outer, rows inner), each door
// once per room it belongs to: the list minigrid's levels draw a door from.
std::vector<Obj> room_doors(Level& level);

}  // namespace rlpool::minigrid::babyai
