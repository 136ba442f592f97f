// MiniGrid-LockedRoom-v0 (minigrid 3.2.0's LockedRoomEnv, envs/lockedroom.py) and
// MiniGrid-Playground-v0 (PlaygroundEnv, envs/playground.py).
#include <set>

#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class LockedRoom final : public MiniGridEnv {
 public:
  explicit LockedRoom(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), false) {}

  static int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 13, 255)); }

  struct Room {
    Pos top, size, door;
    Color color = Color::kRed;
    bool locked = false;
  };

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    const int l_wall = w / 2 - 2;
    const int r_wall = w / 2 + 2;
    for (int j = 0; j < h; ++j) {
      grid.set(l_wall, j, Obj::wall());
      grid.set(r_wall, j, Obj::wall());
    }
    std::vector<Room> rooms;
    for (int n = 0; n < 3; ++n) {
      const int j = n * (h / 3);
      for (int i = 0; i < l_wall; ++i) grid.set(i, j, Obj::wall());
      for (int i = r_wall; i < w; ++i) grid.set(i, j, Obj::wall());
      const Pos size{l_wall + 1, h / 3 + 1};
      rooms.push_back({{0, j}, size, {l_wall, j + 3}});
      rooms.push_back({{r_wall, j}, size, {r_wall, j + 3}});
    }
    const auto room_pos = [this](const Room& r) {
      return rand_pos(r.top.x + 1, r.top.x + r.size.x - 1, r.top.y + 1, r.top.y + r.size.y - 1);
    };
    const auto locked = static_cast<std::size_t>(rand_int(0, static_cast<int>(rooms.size())));
    rooms[locked].locked = true;
    grid.set(room_pos(rooms[locked]), Obj::goal());
    std::vector<Color> colors(kColorNames.begin(), kColorNames.end());  // sorted names, as sorted(set)
    for (Room& room : rooms) {
      const auto k = static_cast<std::size_t>(rand_int(0, static_cast<int>(colors.size())));
      room.color = colors[k];
      colors.erase(colors.begin() + static_cast<std::ptrdiff_t>(k));
      grid.set(room.door, with_id(Obj::door(room.color, false, room.locked)));
    }
    std::size_t key_room;
    do {
      key_room = static_cast<std::size_t>(rand_int(0, static_cast<int>(rooms.size())));
    } while (key_room == locked);
    grid.set(room_pos(rooms[key_room]), with_id(Obj::key(rooms[locked].color)));
    place_agent({l_wall, 0}, {r_wall - l_wall, h});
    const char* lc = color_name(rooms[locked].color);
    mission = std::string("get the ") + lc + " key from the " + color_name(rooms[key_room].color) +
              " room, unlock the " + lc + " door and go to the goal";
  }
};

class Playground final : public MiniGridEnv {
 public:
  explicit Playground(const Config& config) : MiniGridEnv(config, 19, 19, false) {}

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    const int room_w = w / 3, room_h = h / 3;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) {
        const int xl = i * room_w, yt = j * room_h, xr = xl + room_w, yb = yt + room_h;
        if (i + 1 < 3) {
          grid.vert_wall(xr, yt, room_h);
          const Pos pos{xr, rand_int(yt + 1, yb - 1)};
          grid.set(pos, with_id(Obj::door(rand_elem(kColorNames))));
        }
        if (j + 1 < 3) {
          grid.horz_wall(xl, yb, room_w);
          const Pos pos{rand_int(xl + 1, xr - 1), yb};
          grid.set(pos, with_id(Obj::door(rand_elem(kColorNames))));
        }
      }
    }
    place_agent();
    static const std::vector<Type> kTypes = {Type::kKey, Type::kBall, Type::kBox};
    for (int i = 0; i < 12; ++i) {
      const Type t = rand_elem(kTypes);
      place_obj(Obj::make(t, rand_elem(kColorNames)));
    }
    mission = "";
  }
};

}  // namespace

static const bool kLockedRoom = register_minigrid({
    .name = "MiniGridLockedRoom",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"size", std::int64_t{19}, "side of the square grid, walls included"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<LockedRoom>(),
});
static const bool kPlayground = register_minigrid(
    {.name = "MiniGridPlayground", .options = common_options(), .spec = minigrid_spec, .create = make_env<Playground>()});

}  // namespace rlpool::minigrid
