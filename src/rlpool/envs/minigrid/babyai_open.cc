// BabyAI's Open, Pickup and PutNext levels (minigrid 3.2.0 envs/babyai/open.py, pickup.py, putnext.py):
// Open, OpenRedDoor, OpenDoor (Debug / Color / Loc), OpenTwoDoors (RedBlue, Debug), OpenDoorsOrder,
// Pickup, UnblockPickup, PickupDist, PickupAbove, PutNextLocal, PutNext (Carrying). PickupLoc is a
// LevelGen level (babyai_levelgen.cc).
#include "envs/minigrid/babyai_instr.h"

namespace rlpool::minigrid::babyai {
namespace {

constexpr int kDoorT = static_cast<int>(Type::kDoor);
const std::vector<Color> kColors(kColorNames.begin(), kColorNames.end());

class Open final : public Level {
 public:
  explicit Open(const Config& c) : Level(c, 8, 3, 3) {}
  void gen_mission() override {
    place_agent_in_room();
    connect_all();
    add_distractors(std::nullopt, std::nullopt, 18, false);
    check_objs_reachable();
    const Obj door = rand_elem(room_doors(*this));
    instrs.action(Kind::kOpen, desc_of(door));
  }
};

class OpenRedDoor final : public Level {
 public:
  explicit OpenRedDoor(const Config& c) : Level(c, 5, 1, 2) {}
  void gen_mission() override {
    add_door(0, 0, 0, Color::kRed, false);
    place_agent_in_room(0, 0);
    instrs.action(Kind::kOpen, ObjDesc(kDoorT, static_cast<int>(Color::kRed)));
  }
};

class OpenDoor final : public Level {
 public:
  explicit OpenDoor(const Config& c) : Level(c, 8, 3, 3), debug_(c.get_bool("debug")) {
    const std::string& s = c.get_string("select_by");
    if (s != "" && s != "color" && s != "loc") {
      throw std::invalid_argument("OpenDoor: option 'select_by' must be '', 'color' or 'loc', got '" + s + "'");
    }
    select_by_ = s;
  }
  void gen_mission() override {
    const auto colors = rand_subset(kColors, 4);
    std::vector<Obj> objs;
    for (int i = 0; i < 4; ++i) objs.push_back(add_door(1, 1, i, colors[static_cast<std::size_t>(i)], false).first);
    std::string select_by = select_by_;
    if (select_by.empty()) select_by = rand_elem(std::vector<std::string>{"color", "loc"});
    ObjDesc desc;
    if (select_by == "color") {
      desc = ObjDesc(kDoorT, static_cast<int>(objs[0].color));
    } else {
      desc = ObjDesc(kDoorT, -1, rand_int(0, 4));
    }
    place_agent_in_room(1, 1);
    instrs.action(Kind::kOpen, desc, debug_);
  }

 private:
  bool debug_;
  std::string select_by_;
};

class OpenTwoDoors final : public Level {
 public:
  explicit OpenTwoDoors(const Config& c)
      : Level(c, 6, 3, 3),
        first_(color_opt(c, "first_color")),
        second_(color_opt(c, "second_color")),
        strict_(c.get_bool("strict")) {}
  void gen_mission() override {
    const auto colors = rand_subset(kColors, 2);
    const Color first = first_ >= 0 ? static_cast<Color>(first_) : colors[0];
    const Color second = second_ >= 0 ? static_cast<Color>(second_) : colors[1];
    const Obj d1 = add_door(1, 1, 2, first, false).first;
    const Obj d2 = add_door(1, 1, 0, second, false).first;
    place_agent_in_room(1, 1);
    const int a = instrs.action(Kind::kOpen, desc_of(d1), strict_);
    const int b = instrs.action(Kind::kOpen, desc_of(d2));
    instrs.seq(Kind::kBefore, a, b);
  }

 private:
  int first_, second_;
  bool strict_;
};

class OpenDoorsOrder final : public Level {
 public:
  explicit OpenDoorsOrder(const Config& c)
      : Level(c, 6, 3, 3), num_doors_(int_opt(c, "num_doors", 2, 4)), debug_(c.get_bool("debug")) {}
  void gen_mission() override {
    const auto colors = rand_subset(kColors, num_doors_);
    std::vector<Obj> doors;
    for (int i = 0; i < num_doors_; ++i) {
      doors.push_back(add_door(1, 1, std::nullopt, colors[static_cast<std::size_t>(i)], false).first);
    }
    place_agent_in_room(1, 1);
    const auto two = rand_subset(doors, 2);
    const int mode = rand_int(0, 3);
    if (mode == 0) {
      instrs.action(Kind::kOpen, desc_of(two[0]), debug_);
      return;
    }
    const int a = instrs.action(Kind::kOpen, desc_of(two[0]), debug_);
    const int b = instrs.action(Kind::kOpen, desc_of(two[1]), debug_);
    instrs.seq(mode == 1 ? Kind::kBefore : Kind::kAfter, a, b);
  }

 private:
  int num_doors_;
  bool debug_;
};

class Pickup final : public Level {
 public:
  Pickup(const Config& c, bool unblock) : Level(c, 8, 3, 3), unblock_(unblock) {}
  void gen_mission() override {
    place_agent_in_room();
    connect_all();
    const auto objs = add_distractors(std::nullopt, std::nullopt, unblock_ ? 20 : 18, false);
    if (unblock_) {
      if (check_objs_reachable(false)) throw RejectSampling("all objects reachable");
    } else {
      check_objs_reachable();
    }
    instrs.action(Kind::kPickup, desc_of(rand_elem(objs)));
  }

 private:
  bool unblock_;
};

class PickupDist final : public Level {
 public:
  explicit PickupDist(const Config& c) : Level(c, 7, 1, 1), debug_(c.get_bool("debug")) {}
  void gen_mission() override {
    const auto objs = add_distractors(std::nullopt, std::nullopt, 5, true);
    place_agent_in_room(0, 0);
    ObjDesc desc = desc_of(rand_elem(objs));
    const int select_by = rand_int(0, 3);  // type, color, both
    if (select_by == 1) desc.type = -1;
    if (select_by == 0) desc.color = -1;
    instrs.action(Kind::kPickup, desc, debug_);
  }

 private:
  bool debug_;
};

class PickupAbove final : public Level {
 public:
  explicit PickupAbove(const Config& c) : Level(c, 6, 3, 3) {}
  void gen_mission() override {
    const Obj obj = add_object(1, 0).first;
    add_door(1, 1, 3, std::nullopt, false);
    place_agent_in_room(1, 1);
    connect_all();
    instrs.action(Kind::kPickup, desc_of(obj));
  }
};

class PutNextLocal final : public Level {
 public:
  explicit PutNextLocal(const Config& c)
      : Level(c, int_opt(c, "room_size", 4, 64), 1, 1), num_objs_(int_opt(c, "num_objs", 2, 18)) {}
  void gen_mission() override {
    place_agent_in_room();
    const auto objs = add_distractors(std::nullopt, std::nullopt, num_objs_, true);
    check_objs_reachable();
    const auto two = rand_subset(objs, 2);
    instrs.put_next(desc_of(two[0]), desc_of(two[1]));
  }

 private:
  int num_objs_;
};

class PutNext final : public Level {
 public:
  explicit PutNext(const Config& c)
      : Level(c, int_opt(c, "room_size", 4, 64), 1, 2),
        objs_per_room_(int_opt(c, "objs_per_room", 1, 9)),
        start_carrying_(c.get_bool("start_carrying")) {}
  void gen_mission() override {
    place_agent_in_room(0, 0);
    const auto objs_l = add_distractors(0, 0, objs_per_room_, true);
    const auto objs_r = add_distractors(1, 0, objs_per_room_, true);
    remove_wall(0, 0, 0);
    Obj a = rand_elem(objs_l);
    Obj b = rand_elem(objs_r);
    if (rand_bool()) std::swap(a, b);
    obj_a_ = a.id;
    instrs.put_next(desc_of(a), desc_of(b));
  }
  void after_verifier() override {
    if (!start_carrying_) return;
    for (int x = 0; x < grid.width; ++x) {
      for (int y = 0; y < grid.height; ++y) {
        if (grid.get(x, y).id == obj_a_) {
          carrying = grid.get(x, y);
          grid.set(x, y, Obj{});
          return;
        }
      }
    }
  }

 private:
  int objs_per_room_;
  bool start_carrying_;
  std::uint8_t obj_a_ = 0;
};

const Option kDebug{"debug", false, "strict instruction: a wrong door / object ends the episode with 0"};

}  // namespace

static const bool kOpen = register_minigrid(
    {.name = "BabyAIOpen", .options = level_options(), .spec = minigrid_spec, .create = make_env<Open>()});
static const bool kOpenRedDoor = register_minigrid({.name = "BabyAIOpenRedDoor",
                                                    .options = level_options(),
                                                    .spec = minigrid_spec,
                                                    .create = make_env<OpenRedDoor>()});
static const bool kOpenDoor = register_minigrid({
    .name = "BabyAIOpenDoor",
    .options = level_options(
        {kDebug, {"select_by", std::string(""), "how the door is named: 'color', 'loc', '' = drawn per episode"}}),
    .spec = minigrid_spec,
    .create = make_env<OpenDoor>(),
});
static const bool kOpenTwoDoors = register_minigrid({
    .name = "BabyAIOpenTwoDoors",
    .options = level_options({{"first_color", std::string(""), "the first door's colour ('' = drawn)"},
                              {"second_color", std::string(""), "the second door's colour ('' = drawn)"},
                              {"strict", false, "opening the wrong door first ends the episode with 0"}}),
    .spec = minigrid_spec,
    .create = make_env<OpenTwoDoors>(),
});
static const bool kOpenDoorsOrder = register_minigrid({
    .name = "BabyAIOpenDoorsOrder",
    .options = level_options({kDebug, {"num_doors", std::int64_t{2}, "doors of the room (2 to 4)"}}),
    .spec = minigrid_spec,
    .create = make_env<OpenDoorsOrder>(),
});
static const bool kPickup = register_minigrid(
    {.name = "BabyAIPickup", .options = level_options(), .spec = minigrid_spec, .create = make_env<Pickup>(false)});
static const bool kUnblockPickup = register_minigrid({.name = "BabyAIUnblockPickup",
                                                      .options = level_options(),
                                                      .spec = minigrid_spec,
                                                      .create = make_env<Pickup>(true)});
static const bool kPickupDist = register_minigrid({.name = "BabyAIPickupDist",
                                                   .options = level_options({kDebug}),
                                                   .spec = minigrid_spec,
                                                   .create = make_env<PickupDist>()});
static const bool kPickupAbove = register_minigrid({.name = "BabyAIPickupAbove",
                                                    .options = level_options(),
                                                    .spec = minigrid_spec,
                                                    .create = make_env<PickupAbove>()});
static const bool kPutNextLocal = register_minigrid({
    .name = "BabyAIPutNextLocal",
    .options = level_options({{"room_size", std::int64_t{8}, "side of the room, walls included"},
                              {"num_objs", std::int64_t{8}, "objects in the room"}}),
    .spec = minigrid_spec,
    .create = make_env<PutNextLocal>(),
});
static const bool kPutNext = register_minigrid({
    .name = "BabyAIPutNext",
    .options = level_options({{"room_size", std::int64_t{8}, "side of a room, walls included"},
                              {"objs_per_room", std::int64_t{4}, "objects in each of the two rooms"},
                              {"start_carrying", false, "start carrying the object to move"}}),
    .spec = minigrid_spec,
    .create = make_env<PutNext>(),
});

}  // namespace rlpool::minigrid::babyai
