// MiniGrid-Unlock-v0, MiniGrid-UnlockPickup-v0, MiniGrid-BlockedUnlockPickup-v0 and
// MiniGrid-KeyCorridorS*R*-v0: minigrid 3.2.0's RoomGrid envs with a locked door
// (envs/unlock.py, unlockpickup.py, blockedunlockpickup.py, keycorridor.py).
#include "envs/minigrid/minigrid_env.h"

namespace rlpool::minigrid {
namespace {

class Unlock final : public RoomGrid {
 public:
  explicit Unlock(const Config& config) : RoomGrid(config, 6, 1, 2) {}

  void gen_grid(int w, int h) override {
    RoomGrid::gen_grid(w, h);
    const auto [door, pos] = add_door(0, 0, 0, std::nullopt, true);
    add_object(0, 0, Type::kKey, door.color);
    place_agent_in_room(0, 0);
    door_ = pos;
    mission = "open the door";
  }
  StepResult step_env(int action) override {
    StepResult r = base_step(action);
    if (action == kToggle && grid.get(door_).is_open()) {
      r.reward = reward();
      r.terminated = true;
    }
    return r;
  }
  std::vector<std::int32_t> vars() const override { return {door_.x, door_.y}; }
  void set_vars(const std::vector<std::int32_t>& v) override {
    if (v.size() != 2 || !grid.in_bounds(v[0], v[1])) {
      throw std::invalid_argument("minigrid state: Unlock's variables are [door x, door y] inside the grid");
    }
    door_ = {v[0], v[1]};
  }

 private:
  Pos door_;
};

class UnlockPickup final : public PickupTarget {
 public:
  UnlockPickup(const Config& config, bool blocked) : PickupTarget(config, 6, 1, 2), blocked_(blocked) {}
  // EnvPool gives UnlockPickup's mission an id (the box's colour), BlockedUnlockPickup's none.

  void gen_grid(int w, int h) override {
    RoomGrid::gen_grid(w, h);
    const Obj obj = add_object(1, 0, Type::kBox).first;
    const auto [door, pos] = add_door(0, 0, 0, std::nullopt, true);
    if (blocked_) grid.set(pos.x - 1, pos.y, with_id(Obj::ball(rand_color())));
    add_object(0, 0, Type::kKey, door.color);
    place_agent_in_room(0, 0);
    set_target(obj);
    if (!blocked_) mission_id = static_cast<int>(obj.color);
  }

 private:
  bool blocked_;
};

class KeyCorridor final : public PickupTarget {
 public:
  explicit KeyCorridor(const Config& config)
      : PickupTarget(config, static_cast<int>(config.get_int_in("room_size", 3, 85)),
                     static_cast<int>(config.get_int_in("num_rows", 1, 85)), 3),
        obj_type_(key_corridor_obj_type(config.get_string("obj_type"))) {}

  void gen_grid(int w, int h) override {
    RoomGrid::gen_grid(w, h);
    set_target(key_corridor(obj_type_));
  }

 private:
  Type obj_type_;
};

}  // namespace

static const bool kUnlock = register_minigrid({
    .name = "MiniGridUnlock", .options = common_options(), .spec = minigrid_spec, .create = make_env<Unlock>()});
static const bool kUnlockPickup = register_minigrid({.name = "MiniGridUnlockPickup",
                                                     .options = common_options(),
                                                     .spec = minigrid_spec,
                                                     .create = make_env<UnlockPickup>(false)});
static const bool kBlockedUnlockPickup = register_minigrid({.name = "MiniGridBlockedUnlockPickup",
                                                            .options = common_options(),
                                                            .spec = minigrid_spec,
                                                            .create = make_env<UnlockPickup>(true)});
static const bool kKeyCorridor = register_minigrid({
    .name = "MiniGridKeyCorridor",
    .options =
        [] {
          auto o = common_options();
          o.push_back({"num_rows", std::int64_t{3}, "rows of rooms"});
          o.push_back({"room_size", std::int64_t{6}, "side of a room, walls included"});
          o.push_back({"obj_type", std::string("ball"), "the object to fetch: 'ball', 'box' or 'key'"});
          return o;
        }(),
    .spec = minigrid_spec,
    .create = make_env<KeyCorridor>(),
});

}  // namespace rlpool::minigrid
