// MiniGrid-DoorKey-*: minigrid 3.2.0's DoorKeyEnv (envs/doorkey.py).
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class DoorKey final : public MiniGridEnv {
 public:
  explicit DoorKey(const Config& config)
      : MiniGridEnv(config, size_of(config), size_of(config), /*see_through_walls=*/false) {}

  static int size_of(const Config& config) { return static_cast<int>(config.get_int_in("size", 5, 255)); }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    put_obj(Obj::goal(), w - 2, h - 2);
    const int split = rand_int(2, w - 2);
    grid.vert_wall(split, 0);
    place_agent({0, 0}, {split, h});
    const int door = rand_int(1, h - 2);
    put_obj(Obj::door(Color::kYellow, false, true), split, door);
    place_obj(Obj::key(Color::kYellow), {0, 0}, {split, h});
    mission = "use the key to open the door and then get to the goal";
  }
};

std::vector<Option> options() {
  auto o = common_options();
  o.push_back({"size", std::int64_t{8}, "side of the square grid, walls included (>= 5)"});
  return o;
}

}  // namespace

static const bool kRegistered = register_minigrid({
    .name = "MiniGridDoorKey",
    .options = options(),
    .spec = minigrid_spec,
    .create = make_env<DoorKey>(),
});

}  // namespace rlpool::minigrid
