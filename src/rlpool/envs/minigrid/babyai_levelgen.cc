// BabyAI's level generator (minigrid 3.2.0 envs/babyai/core/levelgen.py, LevelGen) and the levels built
// on it: GoToSeq (goto.py), PickupLoc (pickup.py), Synth, SynthLoc, SynthSeq, MiniBossLevel, BossLevel,
// BossLevelNoUnlock (synth.py). One env type, BabyAILevelGen, with LevelGen's parameters as options.
#include <sstream>

#include "envs/minigrid/babyai_instr.h"

namespace rlpool::minigrid::babyai {
namespace {

enum ActionKind { kGoToA, kPickupA, kOpenA, kPutNextA };
enum InstrKind { kActionI, kAndI, kSeqI };

// A comma-separated option of names from `known` (kept in order: draws pick from it by index).
std::vector<int> name_list(const Config& c, const char* name, const std::vector<std::string>& known) {
  std::vector<int> out;
  std::stringstream ss(c.get_string(name));
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto it = std::find(known.begin(), known.end(), item);
    if (it == known.end()) {
      throw std::invalid_argument(std::string("option '") + name + "': unknown name '" + item + "'");
    }
    out.push_back(static_cast<int>(it - known.begin()));
  }
  if (out.empty()) throw std::invalid_argument(std::string("option '") + name + "' names nothing");
  return out;
}

// verifier.py's OBJ_TYPES and OBJ_TYPES_NOT_DOOR.
const std::vector<int> kObjTypes = {static_cast<int>(Type::kBox), static_cast<int>(Type::kBall),
                                    static_cast<int>(Type::kKey), static_cast<int>(Type::kDoor)};
const std::vector<int> kObjTypesNotDoor = {static_cast<int>(Type::kBox), static_cast<int>(Type::kBall),
                                           static_cast<int>(Type::kKey)};
const std::vector<int> kDoorOnly = {static_cast<int>(Type::kDoor)};

class LevelGen final : public Level {
 public:
  explicit LevelGen(const Config& c)
      : Level(c, int_opt(c, "room_size", 3, 64), int_opt(c, "num_rows", 1, 16), int_opt(c, "num_cols", 1, 16)),
        num_dists_(int_opt(c, "num_dists", 0, 1000)),
        locked_room_prob_(c.get_double_in("locked_room_prob", 0.0, 1.0)),
        locations_(c.get_bool("locations")),
        implicit_unlock_(c.get_bool("implicit_unlock")),
        action_kinds_(name_list(c, "action_kinds", {"goto", "pickup", "open", "putnext"})),
        instr_kinds_(name_list(c, "instr_kinds", {"action", "and", "seq"})) {
    unblocking = c.get_bool("unblocking");
  }

  void gen_mission() override {
    locked_room_ = -1;
    if (rand_float(0, 1) < locked_room_prob_) add_locked_room();
    connect_all();
    add_distractors(std::nullopt, std::nullopt, num_dists_, false);
    place_agent_outside(locked_room_);
    if (!unblocking) check_objs_reachable();
    rand_instr(action_kinds_, instr_kinds_);
  }

 private:
  void add_locked_room() {
    Obj door;
    while (true) {
      const int i = rand_int(0, num_cols);
      const int j = rand_int(0, num_rows);
      const int door_idx = rand_int(0, 4);
      locked_room_ = room_index(get_room(i, j));
      if (get_room(i, j).neighbors[static_cast<std::size_t>(door_idx)] < 0) continue;
      door = add_door(i, j, door_idx, std::nullopt, true).first;
      break;
    }
    while (true) {
      const int i = rand_int(0, num_cols);
      const int j = rand_int(0, num_rows);
      if (room_index(get_room(i, j)) == locked_room_) continue;
      add_object(i, j, Type::kKey, door.color);
      break;
    }
  }

  ObjDesc rand_obj(const std::vector<int>& types, int max_tries = 100) {
    for (int num_tries = 0;; ++num_tries) {
      if (num_tries > max_tries) throw RejectSampling("failed to find suitable object");
      const int c = rand_int(0, static_cast<int>(kColorNames.size()) + 1);  // [None, *COLOR_NAMES]
      const int color = c == 0 ? -1 : static_cast<int>(kColorNames[static_cast<std::size_t>(c - 1)]);
      const int type = rand_elem(types);
      int loc = kNoLoc;
      if (locations_ && rand_bool()) loc = rand_int(0, 4);
      ObjDesc desc(type, color, loc);
      desc.find_matching_objs(*this);
      if (desc.obj_set.empty()) continue;
      if (!implicit_unlock_ && locked_room_ >= 0) {
        const Room& locked = room_grid[static_cast<std::size_t>(locked_room_)];
        const bool any_outside = std::any_of(desc.obj_poss.begin(), desc.obj_poss.end(),
                                             [&](Pos p) { return !locked.pos_inside(p.x, p.y); });
        if (!any_outside) continue;
      }
      return desc;
    }
  }

  int rand_instr(const std::vector<int>& action_kinds, const std::vector<int>& instr_kinds) {
    const int kind = rand_elem(instr_kinds);
    if (kind == kActionI) {
      const int action = rand_elem(action_kinds);
      if (action == kGoToA) return instrs.action(Kind::kGoTo, rand_obj(kObjTypes));
      if (action == kPickupA) return instrs.action(Kind::kPickup, rand_obj(kObjTypesNotDoor));
      if (action == kOpenA) return instrs.action(Kind::kOpen, rand_obj(kDoorOnly));
      ObjDesc move = rand_obj(kObjTypesNotDoor);
      ObjDesc fixed = rand_obj(kObjTypes);
      return instrs.put_next(move, fixed);
    }
    if (kind == kAndI) {
      const int a = rand_instr(action_kinds, {kActionI});
      const int b = rand_instr(action_kinds, {kActionI});
      return instrs.seq(Kind::kAnd, a, b);
    }
    const int a = rand_instr(action_kinds, {kActionI, kAndI});
    const int b = rand_instr(action_kinds, {kActionI, kAndI});
    return instrs.seq(rand_bool() ? Kind::kBefore : Kind::kAfter, a, b);
  }

  int num_dists_;
  double locked_room_prob_;
  bool locations_;
  bool implicit_unlock_;
  std::vector<int> action_kinds_;
  std::vector<int> instr_kinds_;
  int locked_room_ = -1;
};

}  // namespace

static const bool kLevelGen = register_minigrid({
    .name = "BabyAILevelGen",
    .options = level_options({
        {"room_size", std::int64_t{8}, "side of a room, walls included"},
        {"num_rows", std::int64_t{3}, "rows of rooms"},
        {"num_cols", std::int64_t{3}, "columns of rooms"},
        {"num_dists", std::int64_t{18}, "number of distractor objects"},
        {"locked_room_prob", 0.5, "probability of a locked room (its key elsewhere)"},
        {"locations", true, "descriptions may name a location (left, right, in front, behind)"},
        {"unblocking", true, "objects may block the way (else every object is reachable)"},
        {"implicit_unlock", true, "a described object may be only in the locked room"},
        {"action_kinds", std::string("goto,pickup,open,putnext"), "actions drawn from (comma-separated)"},
        {"instr_kinds", std::string("action,and,seq"), "instruction shapes drawn from (comma-separated)"},
    }),
    .spec = minigrid_spec,
    .create = make_env<LevelGen>(),
});

}  // namespace rlpool::minigrid::babyai
