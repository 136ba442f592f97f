// MiniGrid-DistShift1/2-v0 (minigrid 3.2.0's DistShiftEnv, envs/distshift.py) and
// MiniGrid-FourRooms-v0 (FourRoomsEnv, envs/fourrooms.py).
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class DistShift final : public MiniGridEnv {
 public:
  explicit DistShift(const Config& config)
      : MiniGridEnv(config, static_cast<int>(config.get_int_in("width", 7, 255)),
                    static_cast<int>(config.get_int_in("height", 3, 255)), true),
        start_(config),
        strip2_row_(static_cast<int>(config.get_int("strip2_row"))) {
    start_.check(width, height);
    if (strip2_row_ < 0 || strip2_row_ >= height) {
      throw std::invalid_argument("DistShift: strip2_row must be a row of the grid, got " + std::to_string(strip2_row_));
    }
  }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    put_obj(Obj::goal(), w - 2, 1);
    for (int i = 0; i < width - 6; ++i) {
      grid.set(3 + i, 1, Obj::lava());
      grid.set(3 + i, strip2_row_, Obj::lava());
    }
    start_.place(*this);
    mission = "get to the green goal square";
  }

 private:
  StartPos start_;
  int strip2_row_;
};

class FourRooms final : public MiniGridEnv {
 public:
  explicit FourRooms(const Config& config)
      : MiniGridEnv(config, 19, 19, false),
        agent_(pos_option(config, "agent_pos")),
        goal_(pos_option(config, "goal_pos")) {}

  static std::optional<Pos> pos_option(const Config& config, const std::string& name) {
    const int x = static_cast<int>(config.get_int(name + "_x"));
    const int y = static_cast<int>(config.get_int(name + "_y"));
    if (x == -1 && y == -1) return std::nullopt;
    if (x < 1 || y < 1 || x > 17 || y > 17) {
      throw std::invalid_argument("FourRooms: " + name + " must be inside the walls (1-17) or -1, -1 (random)");
    }
    return Pos{x, y};
  }

  void gen_grid(int w, int h) override {
    grid.reset(w, h);
    grid.wall_rect(0, 0, w, h);
    const int room_w = w / 2;
    const int room_h = h / 2;
    for (int j = 0; j < 2; ++j) {
      for (int i = 0; i < 2; ++i) {
        const int xl = i * room_w, yt = j * room_h, xr = xl + room_w, yb = yt + room_h;
        if (i + 1 < 2) {
          grid.vert_wall(xr, yt, room_h);
          grid.set(xr, rand_int(yt + 1, yb), Obj{});
        }
        if (j + 1 < 2) {
          grid.horz_wall(xl, yb, room_w);
          grid.set(rand_int(xl + 1, xr), yb, Obj{});
        }
      }
    }
    if (agent_) {
      agent_pos = *agent_;
      grid.set(*agent_, Obj{});
      agent_dir = rand_int(0, 4);
    } else {
      place_agent();
    }
    if (goal_) {
      put_obj(Obj::goal(), goal_->x, goal_->y);
    } else {
      place_obj(Obj::goal());
    }
    mission = "reach the goal";
  }

 private:
  std::optional<Pos> agent_, goal_;
};

}  // namespace

static const bool kDistShift = register_minigrid({
    .name = "MiniGridDistShift",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"width", std::int64_t{9}, "grid width, walls included"});
          o.push_back({"height", std::int64_t{7}, "grid height, walls included"});
          o.push_back({"strip2_row", std::int64_t{2}, "row of the second lava strip"});
          for (auto& s : StartPos::options()) o.push_back(s);
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<DistShift>(),
});

static const bool kFourRooms = register_minigrid({
    .name = "MiniGridFourRooms",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"agent_pos_x", std::int64_t{-1}, "the agent's start column; -1 (with agent_pos_y -1): random"});
          o.push_back({"agent_pos_y", std::int64_t{-1}, "the agent's start row; -1: random"});
          o.push_back({"goal_pos_x", std::int64_t{-1}, "the goal's column; -1 (with goal_pos_y -1): random"});
          o.push_back({"goal_pos_y", std::int64_t{-1}, "the goal's row; -1: random"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<FourRooms>(),
});

}  // namespace rlpool::minigrid
