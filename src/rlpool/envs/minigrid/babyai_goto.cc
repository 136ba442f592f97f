// BabyAI-GoTo* levels (minigrid 3.2.0 envs/babyai/goto.py): GoToRedBallGrey, GoToRedBall(NoDists),
// GoToObj, GoToLocal, GoTo (Open / ObjMaze variants), GoToImpUnlock, GoToRedBlueBall, GoToDoor,
// GoToObjDoor. GoToSeq is a LevelGen level (babyai_levelgen.cc).
#include "envs/minigrid/babyai_instr.h"

namespace rlpool::minigrid::babyai {
namespace {

constexpr auto opt = int_opt;

// One room with distractors; what differs is the target.
class OneRoom : public Level {
 public:
  explicit OneRoom(const Config& c)
      : Level(c, opt(c, "room_size", 4, 64), 1, 1), num_dists_(opt(c, "num_dists", 0, 1000)) {}

 protected:
  int num_dists_;
};

class GoToRedBall final : public OneRoom {
 public:
  GoToRedBall(const Config& c, bool grey) : OneRoom(c), grey_(grey) {}
  void gen_mission() override {
    place_agent_in_room();
    const Obj obj = add_object(0, 0, Type::kBall, Color::kRed).first;
    const auto dists = add_distractors(std::nullopt, std::nullopt, num_dists_, false);
    if (grey_) {
      for (const Obj& d : dists) obj_by_id(d.id).color = Color::kGrey;
    }
    check_objs_reachable();
    instrs.action(Kind::kGoTo, desc_of(obj));
  }

 private:
  bool grey_;
};

class GoToObj final : public Level {
 public:
  explicit GoToObj(const Config& c) : Level(c, opt(c, "room_size", 4, 64), 1, 1) {}
  void gen_mission() override {
    place_agent_in_room();
    const auto objs = add_distractors(std::nullopt, std::nullopt, 1, true);
    instrs.action(Kind::kGoTo, desc_of(objs[0]));
  }
};

class GoToLocal final : public OneRoom {
 public:
  using OneRoom::OneRoom;
  void gen_mission() override {
    place_agent_in_room();
    const auto objs = add_distractors(std::nullopt, std::nullopt, num_dists_, false);
    check_objs_reachable();
    instrs.action(Kind::kGoTo, desc_of(rand_elem(objs)));
  }
};

class GoToRedBlueBall final : public OneRoom {
 public:
  using OneRoom::OneRoom;
  void gen_mission() override {
    place_agent_in_room();
    const auto dists = add_distractors(std::nullopt, std::nullopt, num_dists_, false);
    for (const Obj& d : dists) {
      if (d.type == Type::kBall && (d.color == Color::kBlue || d.color == Color::kRed)) {
        throw RejectSampling("can only have one blue or red ball");
      }
    }
    const Color color = rand_elem(std::vector<Color>{Color::kRed, Color::kBlue});
    const Obj obj = add_object(0, 0, Type::kBall, color).first;
    check_objs_reachable();
    instrs.action(Kind::kGoTo, desc_of(obj));
  }
};

class GoTo final : public Level {
 public:
  explicit GoTo(const Config& c)
      : Level(c, opt(c, "room_size", 4, 64), opt(c, "num_rows", 1, 16), opt(c, "num_cols", 1, 16)),
        num_dists_(opt(c, "num_dists", 0, 1000)),
        doors_open_(c.get_bool("doors_open")) {}
  void gen_mission() override {
    place_agent_in_room();
    connect_all();
    const auto objs = add_distractors(std::nullopt, std::nullopt, num_dists_, false);
    check_objs_reachable();
    instrs.action(Kind::kGoTo, desc_of(rand_elem(objs)));
    if (doors_open_) open_all_doors();
  }

 private:
  int num_dists_;
  bool doors_open_;
};

class GoToImpUnlock final : public Level {
 public:
  explicit GoToImpUnlock(const Config& c) : Level(c, 8, 3, 3) {}
  void gen_mission() override {
    const auto [door, locked] = add_locked_room_with_key();
    const int id = locked % num_cols;
    const int jd = locked / num_cols;
    connect_all();
    for (int i = 0; i < num_cols; ++i) {
      for (int j = 0; j < num_rows; ++j) {
        if (i != id || j != jd) add_distractors(i, j, 2, false);
      }
    }
    place_agent_outside(locked);
    check_objs_reachable();
    const Obj obj = add_distractors(id, jd, 1, false)[0];
    instrs.action(Kind::kGoTo, desc_of(obj));
  }
};

class GoToDoor final : public Level {
 public:
  explicit GoToDoor(const Config& c) : Level(c, 7, 3, 3) {}
  void gen_mission() override {
    std::vector<Obj> objs;
    for (int k = 0; k < 4; ++k) objs.push_back(add_door(1, 1).first);
    place_agent_in_room(1, 1);
    const Obj obj = rand_elem(objs);
    instrs.action(Kind::kGoTo, ObjDesc(static_cast<int>(Type::kDoor), static_cast<int>(obj.color)));
  }
};

class GoToObjDoor final : public Level {
 public:
  explicit GoToObjDoor(const Config& c) : Level(c, 8, 3, 3) {}
  void gen_mission() override {
    place_agent_in_room(1, 1);
    auto objs = add_distractors(1, 1, 8, false);
    for (int k = 0; k < 4; ++k) objs.push_back(add_door(1, 1).first);
    check_objs_reachable();
    instrs.action(Kind::kGoTo, desc_of(rand_elem(objs)));
  }
};

constexpr auto with = [](std::vector<Option> extra) { return level_options(std::move(extra)); };
const Option kRoomSize{"room_size", std::int64_t{8}, "side of a room, walls included"};
Option dists(std::int64_t n) { return {"num_dists", n, "number of distractor objects"}; }

}  // namespace

static const bool kGoToRedBallGrey = register_minigrid({.name = "BabyAIGoToRedBallGrey",
                                                        .options = with({kRoomSize, dists(7)}),
                                                        .spec = minigrid_spec,
                                                        .create = make_env<GoToRedBall>(true)});
static const bool kGoToRedBall = register_minigrid({.name = "BabyAIGoToRedBall",
                                                    .options = with({kRoomSize, dists(7)}),
                                                    .spec = minigrid_spec,
                                                    .create = make_env<GoToRedBall>(false)});
static const bool kGoToObj = register_minigrid(
    {.name = "BabyAIGoToObj", .options = with({kRoomSize}), .spec = minigrid_spec, .create = make_env<GoToObj>()});
static const bool kGoToLocal = register_minigrid({.name = "BabyAIGoToLocal",
                                                  .options = with({kRoomSize, dists(8)}),
                                                  .spec = minigrid_spec,
                                                  .create = make_env<GoToLocal>()});
static const bool kGoToRedBlueBall = register_minigrid({.name = "BabyAIGoToRedBlueBall",
                                                        .options = with({kRoomSize, dists(7)}),
                                                        .spec = minigrid_spec,
                                                        .create = make_env<GoToRedBlueBall>()});
static const bool kGoTo = register_minigrid({
    .name = "BabyAIGoTo",
    .options = with({kRoomSize, dists(18), {"num_rows", std::int64_t{3}, "rows of rooms"},
                     {"num_cols", std::int64_t{3}, "columns of rooms"},
                     {"doors_open", false, "open every door after generation"}}),
    .spec = minigrid_spec,
    .create = make_env<GoTo>(),
});
static const bool kGoToImpUnlock = register_minigrid({.name = "BabyAIGoToImpUnlock",
                                                      .options = level_options(),
                                                      .spec = minigrid_spec,
                                                      .create = make_env<GoToImpUnlock>()});
static const bool kGoToDoor = register_minigrid(
    {.name = "BabyAIGoToDoor", .options = level_options(), .spec = minigrid_spec, .create = make_env<GoToDoor>()});
static const bool kGoToObjDoor = register_minigrid({.name = "BabyAIGoToObjDoor",
                                                    .options = level_options(),
                                                    .spec = minigrid_spec,
                                                    .create = make_env<GoToObjDoor>()});

}  // namespace rlpool::minigrid::babyai
