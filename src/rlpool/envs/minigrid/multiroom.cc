// MiniGrid-MultiRoom-*: minigrid 3.2.0's MultiRoomEnv (envs/multiroom.py): a chain of rooms
// joined by doors, the goal in the last.
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class MultiRoom final : public MiniGridEnv {
 public:
  explicit MultiRoom(const Config& config)
      : MiniGridEnv(config, static_cast<int>(config.get_int_in("width", 6, 255)),
                    static_cast<int>(config.get_int_in("height", 6, 255)), false),
        min_rooms_(static_cast<int>(config.get_int_in("minNumRooms", 1, 1000))),
        max_rooms_(static_cast<int>(config.get_int_in("maxNumRooms", 1, 1000))),
        max_room_size_(static_cast<int>(config.get_int_in("maxRoomSize", 4, 255))) {
    if (max_rooms_ < min_rooms_) throw std::invalid_argument("MultiRoom: maxNumRooms must be >= minNumRooms");
  }

  struct Room {
    Pos top, size, entry;
  };

  void gen_grid(int w, int h) override {
    std::vector<Room> rooms;
    const int num_rooms = rand_int(min_rooms_, max_rooms_ + 1);
    long attempts = 0;
    while (static_cast<int>(rooms.size()) < num_rooms) {
      if (++attempts > 2000) throw RejectSampling("MultiRoom: the rooms do not fit");
      std::vector<Room> cur;
      const Pos entry{rand_int(0, w - 2), rand_int(0, w - 2)};
      place_room(num_rooms, cur, 4, max_room_size_, 2, entry);
      if (cur.size() > rooms.size()) rooms = std::move(cur);
    }
    grid.reset(w, h);
    std::optional<Color> prev_color;
    for (std::size_t idx = 0; idx < rooms.size(); ++idx) {
      const Room& room = rooms[idx];
      for (int i = 0; i < room.size.x; ++i) {
        grid.set(room.top.x + i, room.top.y, Obj::wall());
        grid.set(room.top.x + i, room.top.y + room.size.y - 1, Obj::wall());
      }
      for (int j = 0; j < room.size.y; ++j) {
        grid.set(room.top.x, room.top.y + j, Obj::wall());
        grid.set(room.top.x + room.size.x - 1, room.top.y + j, Obj::wall());
      }
      if (idx > 0) {
        std::vector<Color> colors;
        for (Color c : kColorNames) {
          if (c != prev_color) colors.push_back(c);
        }
        const Color c = rand_elem(colors);
        grid.set(room.entry, with_id(Obj::door(c)));
        prev_color = c;
      }
    }
    place_agent(rooms.front().top, rooms.front().size);
    place_obj(Obj::goal(), rooms.back().top, rooms.back().size);
    mission = "traverse the rooms to get to the goal";
  }

 private:
  // minigrid's _placeRoom: a room whose entry door is at `entry` on wall `entry_wall`, then
  // (recursively) up to 8 tries at the next.
  bool place_room(int num_left, std::vector<Room>& rooms, int min_sz, int max_sz, int entry_wall, Pos entry) {
    const int sx = rand_int(min_sz, max_sz + 1);
    const int sy = rand_int(min_sz, max_sz + 1);
    int tx, ty;
    if (rooms.empty()) {
      tx = entry.x;
      ty = entry.y;
    } else if (entry_wall == 0) {
      tx = entry.x - sx + 1;
      ty = rand_int(entry.y - sy + 2, entry.y);
    } else if (entry_wall == 1) {
      tx = rand_int(entry.x - sx + 2, entry.x);
      ty = entry.y - sy + 1;
    } else if (entry_wall == 2) {
      tx = entry.x;
      ty = rand_int(entry.y - sy + 2, entry.y);
    } else {
      tx = rand_int(entry.x - sx + 2, entry.x);
      ty = entry.y;
    }
    if (tx < 0 || ty < 0) return false;
    if (tx + sx > width || ty + sy >= height) return false;
    for (std::size_t r = 0; r + 1 < rooms.size(); ++r) {
      const Room& o = rooms[r];
      const bool non_overlap = tx + sx < o.top.x || o.top.x + o.size.x <= tx || ty + sy < o.top.y ||
                               o.top.y + o.size.y <= ty;
      if (!non_overlap) return false;
    }
    rooms.push_back({{tx, ty}, {sx, sy}, entry});
    if (num_left == 1) return true;
    for (int i = 0; i < 8; ++i) {
      std::vector<int> walls;
      for (int k = 0; k < 4; ++k) {
        if (k != entry_wall) walls.push_back(k);
      }
      const int exit_wall = rand_elem(walls);
      Pos exit;
      if (exit_wall == 0) {
        exit = {tx + sx - 1, ty + rand_int(1, sy - 1)};
      } else if (exit_wall == 1) {
        exit = {tx + rand_int(1, sx - 1), ty + sy - 1};
      } else if (exit_wall == 2) {
        exit = {tx, ty + rand_int(1, sy - 1)};
      } else {
        exit = {tx + rand_int(1, sx - 1), ty};
      }
      if (place_room(num_left - 1, rooms, min_sz, max_sz, (exit_wall + 2) % 4, exit)) break;
    }
    return true;
  }

  int min_rooms_, max_rooms_, max_room_size_;
};

}  // namespace

static const bool kRegistered = register_minigrid({
    .name = "MiniGridMultiRoom",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"minNumRooms", std::int64_t{6}, "fewest rooms"});
          o.push_back({"maxNumRooms", std::int64_t{6}, "most rooms"});
          o.push_back({"maxRoomSize", std::int64_t{10}, "largest room side, walls included (>= 4)"});
          o.push_back({"width", std::int64_t{25}, "grid width"});
          o.push_back({"height", std::int64_t{25}, "grid height"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<MultiRoom>(),
});

}  // namespace rlpool::minigrid
