// MiniGrid-ObstructedMaze-*: minigrid 3.2.0's ObstructedMaze_1Dlhb and ObstructedMaze_Full
// (envs/obstructedmaze.py, v0) and ObstructedMaze_Full_V1 (envs/obstructedmaze_v1.py, v1):
// find the blue ball behind locked doors whose keys may hide in boxes, doors blocked by balls.
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class ObstructedMaze final : public PickupTarget {
 public:
  // full: 3x3 rooms (ObstructedMaze_Full), else 1x2 (ObstructedMaze_1Dlhb). v1: keys after both doors.
  ObstructedMaze(const Config& config, bool full, bool v1)
      : PickupTarget(config, 6, full ? 3 : 1, full ? 3 : 2),
        full_(full),
        v1_(v1),
        key_in_box_(config.get_bool("key_in_box")),
        blocked_(config.get_bool("blocked")),
        agent_room_{static_cast<int>(config.get_int_in("agent_room_i", 0, 2)),
                    static_cast<int>(config.get_int_in("agent_room_j", 0, 2))},
        num_quarters_(static_cast<int>(config.get_int_in("num_quarters", 1, 4))) {}

  void gen_grid(int w, int h) override {
    RoomGrid::gen_grid(w, h);
    door_colors_ = rand_subset(std::vector<Color>(kColorNames.begin(), kColorNames.end()), 6);
    if (!full_) {
      add_obstructed_door(0, 0, 0, door_colors_[0], true, key_in_box_, blocked_);
      set_target(add_object(1, 0, Type::kBall, kBallColor).first);
      place_agent_in_room(0, 0);
      return;
    }
    const std::array<Pos, 4> side_rooms = {Pos{2, 1}, Pos{1, 2}, Pos{0, 1}, Pos{1, 0}};
    for (int i = 0; i < num_quarters_; ++i) {
      const Pos side = side_rooms[static_cast<std::size_t>(i)];
      add_obstructed_door(1, 1, i, door_colors_[static_cast<std::size_t>(i)], false, false, false);
      for (int k : {-1, 1}) {
        const int idx = (i + k + 4) % 4;
        add_obstructed_door(side.x, side.y, idx, door_colors_[color_index(i + k)], true,
                            key_in_box_, blocked_, /*with_key=*/!v1_);
      }
      if (v1_) {
        for (int k : {-1, 1}) {
          add_key(side.x, side.y, door_colors_[color_index(i + k)], key_in_box_);
        }
      }
    }
    std::vector<Pos> corners = {{2, 0}, {2, 2}, {0, 2}, {0, 0}};
    corners.resize(static_cast<std::size_t>(num_quarters_));
    const Pos ball_room = rand_elem(corners);
    set_target(add_object(ball_room.x, ball_room.y, Type::kBall, kBallColor).first);
    place_agent_in_room(agent_room_.x, agent_room_.y);
  }

 private:
  // minigrid's COLOR_NAMES[0], [1], [2]: the ball to find, the blocking balls, the boxes.
  static constexpr Color kBallColor = Color::kBlue;
  static constexpr Color kBlockingColor = Color::kGreen;
  static constexpr Color kBoxColor = Color::kGrey;

  // Python's (i + k) % len(door_colors): -1 is the last colour.
  static std::size_t color_index(int n) { return static_cast<std::size_t>((n % 6 + 6) % 6); }

  // ObstructedMazeEnv.add_door (v1: add_locked_door, the key added apart).
  void add_obstructed_door(int i, int j, int door_idx, Color color, bool locked, bool key_in_box, bool blocked,
                           bool with_key = true) {
    const auto [door, pos] = RoomGrid::add_door(i, j, door_idx, color, locked);
    if (blocked) {
      const Pos vec = kDirVec[static_cast<std::size_t>(door_idx)];
      grid.set(pos - vec, with_id(Obj::ball(kBlockingColor)));
    }
    if (locked && with_key) add_key(i, j, door.color, key_in_box);
  }
  void add_key(int i, int j, Color color, bool key_in_box) {
    Obj obj = Obj::key(color);
    if (key_in_box) obj = Obj::box(kBoxColor, with_id(obj));
    place_in_room(i, j, obj);
  }

  bool full_, v1_, key_in_box_, blocked_;
  Pos agent_room_;
  int num_quarters_;
  std::vector<Color> door_colors_;
};

std::vector<Option> options(bool full) {
  auto o = common_options();
  o.push_back({"key_in_box", true, "keys hidden in boxes"});
  o.push_back({"blocked", true, "doors blocked by a ball"});
  o.push_back({"agent_room_i", std::int64_t{full ? 1 : 0}, "the agent's room column (Full only)"});
  o.push_back({"agent_room_j", std::int64_t{full ? 1 : 0}, "the agent's room row (Full only)"});
  o.push_back({"num_quarters", std::int64_t{4}, "quarters of the maze used, 1-4 (Full only)"});
  o.push_back({"num_rooms_visited", std::int64_t{full ? 25 : 2}, "sets the default max_steps: 4 * it * 36"});
  return o;
}

}  // namespace

static const bool k1Dlhb = register_minigrid({.name = "MiniGridObstructedMaze1Dlhb",
                                              .options = options(false),
                                              .spec = minigrid_spec,
                                              .create = make_env<ObstructedMaze>(false, false)});
static const bool kFull = register_minigrid({.name = "MiniGridObstructedMazeFull",
                                             .options = options(true),
                                             .spec = minigrid_spec,
                                             .create = make_env<ObstructedMaze>(true, false)});
static const bool kFullV1 = register_minigrid({.name = "MiniGridObstructedMazeFullV1",
                                               .options = options(true),
                                               .spec = minigrid_spec,
                                               .create = make_env<ObstructedMaze>(true, true)});

}  // namespace rlpool::minigrid
