// BabyAI's Unlock levels and the others (minigrid 3.2.0 envs/babyai/unlock.py, other.py): Unlock,
// UnlockLocal (Dist), KeyInBox, UnlockPickup (Dist), BlockedUnlockPickup, UnlockToUnlock, ActionObjDoor,
// FindObjS5/6/7, KeyCorridor*, OneRoomS*, MoveTwoAcross*.
#include "envs/minigrid/babyai_instr.h"

namespace rlpool::minigrid::babyai {
namespace {

constexpr int kDoorT = static_cast<int>(Type::kDoor);
ObjDesc type_only(Type t) { return {static_cast<int>(t), -1}; }

class Unlock final : public Level {
 public:
  explicit Unlock(const Config& c) : Level(c, 8, 3, 3) {}
  void gen_mission() override {
    const auto [door, locked] = add_locked_room_with_key();
    const int id = locked % num_cols;
    const int jd = locked / num_cols;
    if (rand_bool()) {
      std::vector<Color> colors;
      for (Color k : kColorNames) {
        if (k != door.color) colors.push_back(k);
      }
      connect_all(colors);
    } else {
      connect_all();
    }
    for (int i = 0; i < num_cols; ++i) {
      for (int j = 0; j < num_rows; ++j) {
        if (i != id || j != jd) add_distractors(i, j, 3, false);
      }
    }
    place_agent_outside(locked);
    check_objs_reachable();
    instrs.action(Kind::kOpen, desc_of(door));
  }
};

class UnlockLocal final : public Level {
 public:
  explicit UnlockLocal(const Config& c) : Level(c, 8, 3, 3), distractors_(c.get_bool("distractors")) {}
  void gen_mission() override {
    const Obj door = add_door(1, 1, std::nullopt, std::nullopt, true).first;
    add_object(1, 1, Type::kKey, door.color);
    if (distractors_) add_distractors(1, 1, 3, true);
    place_agent_in_room(1, 1);
    instrs.action(Kind::kOpen, type_only(Type::kDoor));
  }

 private:
  bool distractors_;
};

class KeyInBox final : public Level {
 public:
  explicit KeyInBox(const Config& c) : Level(c, 8, 3, 3) {}
  void gen_mission() override {
    const Obj door = add_door(1, 1, std::nullopt, std::nullopt, true).first;
    const Obj key = with_id(Obj::key(door.color));
    place_in_room(1, 1, Obj::box(rand_color(), key));
    place_agent_in_room(1, 1);
    instrs.action(Kind::kOpen, type_only(Type::kDoor));
  }
};

class UnlockPickup final : public Level {
 public:
  UnlockPickup(const Config& c, bool blocked)
      : Level(c, 6, 1, 2), distractors_(!blocked && c.get_bool("distractors")), blocked_(blocked) {}
  void gen_mission() override {
    const Obj obj = add_object(1, 0, Type::kBox).first;
    const auto [door, pos] = add_door(0, 0, 0, std::nullopt, true);
    if (blocked_) grid.set(pos.x - 1, pos.y, with_id(Obj::ball(rand_color())));
    add_object(0, 0, Type::kKey, door.color);
    if (distractors_) add_distractors(std::nullopt, std::nullopt, 4, true);
    place_agent_in_room(0, 0);
    instrs.action(Kind::kPickup, blocked_ ? type_only(Type::kBox) : desc_of(obj));
  }

 private:
  bool distractors_;
  bool blocked_;
};

class UnlockToUnlock final : public Level {
 public:
  explicit UnlockToUnlock(const Config& c) : Level(c, 6, 1, 3) {}
  void gen_mission() override {
    const auto colors = rand_subset(std::vector<Color>(kColorNames.begin(), kColorNames.end()), 2);
    add_door(0, 0, 0, colors[0], true);
    add_object(2, 0, Type::kKey, colors[0]);
    add_door(1, 0, 0, colors[1], true);
    add_object(1, 0, Type::kKey, colors[1]);
    add_object(0, 0, Type::kBall);
    place_agent_in_room(1, 0);
    instrs.action(Kind::kPickup, type_only(Type::kBall));
  }
};

class ActionObjDoor final : public Level {
 public:
  explicit ActionObjDoor(const Config& c) : Level(c, 7, 3, 3) {}
  void gen_mission() override {
    auto objs = add_distractors(1, 1, 5, true);
    for (int k = 0; k < 4; ++k) objs.push_back(add_door(1, 1, std::nullopt, std::nullopt, false).first);
    place_agent_in_room(1, 1);
    const Obj obj = rand_elem(objs);
    const ObjDesc desc = desc_of(obj);
    const bool go = rand_bool();
    instrs.action(go ? Kind::kGoTo : (obj.type == Type::kDoor ? Kind::kOpen : Kind::kPickup), desc);
  }
};

class FindObj final : public Level {
 public:
  explicit FindObj(const Config& c) : Level(c, int_opt(c, "room_size", 4, 64), 3, 3) {}
  void gen_mission() override {
    const int i = rand_int(0, num_rows);
    const int j = rand_int(0, num_cols);
    const Obj obj = add_object(i, j).first;
    place_agent_in_room(1, 1);
    connect_all();
    instrs.action(Kind::kPickup, type_only(obj.type));
  }
};

class KeyCorridor final : public Level {
 public:
  explicit KeyCorridor(const Config& c)
      : Level(c, int_opt(c, "room_size", 3, 64), int_opt(c, "num_rows", 1, 16), 3),
        obj_type_(key_corridor_obj_type(c.get_string("obj_type"))) {}
  void gen_mission() override { instrs.action(Kind::kPickup, type_only(key_corridor(obj_type_).type)); }

 private:
  Type obj_type_;
};

class OneRoom final : public Level {
 public:
  explicit OneRoom(const Config& c) : Level(c, int_opt(c, "room_size", 4, 64), 1, 1) {}
  void gen_mission() override {
    add_object(0, 0, Type::kBall);
    place_agent_in_room();
    instrs.action(Kind::kPickup, type_only(Type::kBall));
  }
};

class MoveTwoAcross final : public Level {
 public:
  explicit MoveTwoAcross(const Config& c)
      : Level(c, int_opt(c, "room_size", 4, 64), 1, 2), objs_per_room_(int_opt(c, "objs_per_room", 2, 9)) {}
  void gen_mission() override {
    place_agent_in_room(0, 0);
    auto objs_l = add_distractors(0, 0, objs_per_room_, true);
    auto objs_r = add_distractors(1, 0, objs_per_room_, true);
    remove_wall(0, 0, 0);
    objs_l = rand_subset(objs_l, 2);
    objs_r = rand_subset(objs_r, 2);
    const int a = instrs.put_next(desc_of(objs_l[0]), desc_of(objs_r[0]));
    const int b = instrs.put_next(desc_of(objs_r[1]), desc_of(objs_l[1]));
    instrs.seq(Kind::kBefore, a, b);
  }

 private:
  int objs_per_room_;
};

const Option kDistractors{"distractors", false, "add distractor objects"};
Option room_size(std::int64_t v) { return {"room_size", v, "side of a room, walls included"}; }

}  // namespace

static const bool kUnlock = register_minigrid(
    {.name = "BabyAIUnlock", .options = level_options(), .spec = minigrid_spec, .create = make_env<Unlock>()});
static const bool kUnlockLocal = register_minigrid({.name = "BabyAIUnlockLocal",
                                                    .options = level_options({kDistractors}),
                                                    .spec = minigrid_spec,
                                                    .create = make_env<UnlockLocal>()});
static const bool kKeyInBox = register_minigrid(
    {.name = "BabyAIKeyInBox", .options = level_options(), .spec = minigrid_spec, .create = make_env<KeyInBox>()});
static const bool kUnlockPickup = register_minigrid({.name = "BabyAIUnlockPickup",
                                                     .options = level_options({kDistractors}),
                                                     .spec = minigrid_spec,
                                                     .create = make_env<UnlockPickup>(false)});
static const bool kBlockedUnlockPickup = register_minigrid({.name = "BabyAIBlockedUnlockPickup",
                                                            .options = level_options(),
                                                            .spec = minigrid_spec,
                                                            .create = make_env<UnlockPickup>(true)});
static const bool kUnlockToUnlock = register_minigrid({.name = "BabyAIUnlockToUnlock",
                                                       .options = level_options(),
                                                       .spec = minigrid_spec,
                                                       .create = make_env<UnlockToUnlock>()});
static const bool kActionObjDoor = register_minigrid({.name = "BabyAIActionObjDoor",
                                                      .options = level_options(),
                                                      .spec = minigrid_spec,
                                                      .create = make_env<ActionObjDoor>()});
static const bool kFindObj = register_minigrid({.name = "BabyAIFindObj",
                                                .options = level_options({room_size(5)}),
                                                .spec = minigrid_spec,
                                                .create = make_env<FindObj>()});
static const bool kKeyCorridor = register_minigrid({
    .name = "BabyAIKeyCorridor",
    .options = level_options({room_size(6), {"num_rows", std::int64_t{3}, "rows of rooms"},
                              {"obj_type", std::string("ball"), "the object to pick up: 'ball', 'box' or 'key'"}}),
    .spec = minigrid_spec,
    .create = make_env<KeyCorridor>(),
});
static const bool kOneRoom = register_minigrid(
    {.name = "BabyAIOneRoom", .options = level_options({room_size(8)}), .spec = minigrid_spec,
     .create = make_env<OneRoom>()});
static const bool kMoveTwoAcross = register_minigrid({
    .name = "BabyAIMoveTwoAcross",
    .options = level_options({room_size(8), {"objs_per_room", std::int64_t{2}, "objects in each of the two rooms"}}),
    .spec = minigrid_spec,
    .create = make_env<MoveTwoAcross>(),
});

}  // namespace rlpool::minigrid::babyai
