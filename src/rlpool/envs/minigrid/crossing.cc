// MiniGrid-LavaCrossing* / SimpleCrossing* (minigrid 3.2.0's CrossingEnv, envs/crossing.py)
// and MiniGrid-LavaGapS* (LavaGapEnv, envs/lavagap.py).
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

Obj obstacle_of(const Config& config) {
  const std::string& name = config.get_string("obstacle_type");
  if (name == "lava") return Obj::lava();
  if (name == "wall") return Obj::wall();
  throw std::invalid_argument("obstacle_type must be 'lava' or 'wall', got '" + name + "'");
}

const char* obstacle_mission(const Obj& obstacle) {
  return obstacle.type == Type::kLava ? "avoid the lava and get to the green goal square"
                                      : "find the opening and get to the green goal square";
}

// Both envs' start: walls around, the agent top-left facing right, the goal bottom-right.
void walled_start(MiniGridEnv& env, int w, int h) {
  env.grid.reset(w, h);
  env.grid.wall_rect(0, 0, w, h);
  env.agent_pos = {1, 1};
  env.agent_dir = 0;
  env.put_obj(Obj::goal(), w - 2, h - 2);
}

int odd_size(const Config& config) {
  const int size = static_cast<int>(config.get_int_in("size", 5, 255));
  if (size % 2 != 1) throw std::invalid_argument("Crossing: size must be odd, got " + std::to_string(size));
  return size;
}

class Crossing final : public MiniGridEnv {
 public:
  explicit Crossing(const Config& config)
      : MiniGridEnv(config, odd_size(config), odd_size(config), false),
        num_crossings_(static_cast<int>(config.get_int_in("num_crossings", 0, 1 << 20))),
        obstacle_(obstacle_of(config)) {}

  void gen_grid(int w, int h) override {
    walled_start(*this, w, h);
    // Rivers: (vertical?, index); a uniform permutation, the first num_crossings kept.
    std::vector<std::pair<bool, int>> rivers;
    for (int i = 2; i < h - 2; i += 2) rivers.emplace_back(true, i);
    for (int j = 2; j < w - 2; j += 2) rivers.emplace_back(false, j);
    shuffle(*this, rivers);
    rivers.resize(std::min(rivers.size(), static_cast<std::size_t>(num_crossings_)));
    std::vector<int> rivers_v, rivers_h;
    for (const auto& [vertical, pos] : rivers) (vertical ? rivers_v : rivers_h).push_back(pos);
    std::sort(rivers_v.begin(), rivers_v.end());
    std::sort(rivers_h.begin(), rivers_h.end());
    for (int i = 1; i < w - 1; ++i) {
      for (int j : rivers_h) put_obj(obstacle_, i, j);
    }
    for (int i : rivers_v) {
      for (int j = 1; j < h - 1; ++j) put_obj(obstacle_, i, j);
    }
    // The path: a horizontal move per vertical river, a vertical one per horizontal river, shuffled.
    std::vector<char> path(rivers_v.size(), 0);  // 0: a horizontal move
    path.insert(path.end(), rivers_h.size(), 1);
    shuffle(*this, path);
    std::vector<int> limits_v = {0}, limits_h = {0};
    limits_v.insert(limits_v.end(), rivers_v.begin(), rivers_v.end());
    limits_v.push_back(h - 1);
    limits_h.insert(limits_h.end(), rivers_h.begin(), rivers_h.end());
    limits_h.push_back(w - 1);
    std::size_t room_i = 0, room_j = 0;
    for (char vertical_move : path) {
      int i, j;
      if (!vertical_move) {
        i = limits_v[room_i + 1];
        j = rand_int(limits_h[room_j] + 1, limits_h[room_j + 1]);
        ++room_i;
      } else {
        i = rand_int(limits_v[room_i] + 1, limits_v[room_i + 1]);
        j = limits_h[room_j + 1];
        ++room_j;
      }
      grid.set(i, j, Obj{});
    }
    mission = obstacle_mission(obstacle_);
  }

 private:
  int num_crossings_;
  Obj obstacle_;
};

class LavaGap final : public MiniGridEnv {
 public:
  explicit LavaGap(const Config& config)
      : MiniGridEnv(config, static_cast<int>(config.get_int_in("size", 5, 255)),
                    static_cast<int>(config.get_int_in("size", 5, 255)), false),
        obstacle_(obstacle_of(config)) {}

  void gen_grid(int w, int h) override {
    walled_start(*this, w, h);
    const int gx = rand_int(2, w - 2);
    const int gy = rand_int(1, h - 1);
    grid.vert_wall(gx, 1, h - 2, obstacle_);
    grid.set(gx, gy, Obj{});
    mission = obstacle_mission(obstacle_);
  }

 private:
  Obj obstacle_;
};

}  // namespace

static const bool kCrossing = register_minigrid({
    .name = "MiniGridCrossing",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"size", std::int64_t{9}, "side of the square grid, walls included (odd)"});
          o.push_back({"num_crossings", std::int64_t{1}, "rivers of obstacles to cross"});
          o.push_back({"obstacle_type", std::string("lava"), "'lava' or 'wall'"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<Crossing>(),
});

static const bool kLavaGap = register_minigrid({
    .name = "MiniGridLavaGap",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"size", std::int64_t{7}, "side of the square grid, walls included (>= 5)"});
          o.push_back({"obstacle_type", std::string("lava"), "'lava' or 'wall'"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<LavaGap>(),
});

}  // namespace rlpool::minigrid
