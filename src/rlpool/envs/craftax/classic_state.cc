// Craftax-Classic's state as bytes and back, and the achievement names.
//
// The bytes are jax.tree_util.tree_leaves(EnvState) of craftax 1.6.1
// (craftax_classic/envs/craftax_state.py) concatenated as raw little-endian
// arrays, bools as one byte, in leaf order: map, mob_map, player_position,
// player_direction, player_health, player_food, player_drink, player_energy,
// is_sleeping, player_recover, player_hunger, player_thirst, player_fatigue,
// the 12 inventory counts, zombies / cows / skeletons / arrows (position,
// health, mask, attack_cooldown each), arrow_directions,
// growing_plants_positions, growing_plants_age, growing_plants_mask,
// light_level, achievements, state_rng (two uint32), timestep. In Python:
// b"".join(np.asarray(l).tobytes() for l in jax.tree_util.tree_leaves(state)).
//
// load_state checks every field against what craftax's own states hold, so that
// the game code never sees a value it cannot handle; a bad field throws
// std::invalid_argument naming it. The limits: blocks 0..16; bools 0 or 1;
// direction 1..4 (LEFT..DOWN); the player, zombies, cows, skeletons, live
// arrows and growing plants on the map; arrow directions in -1..1; inventory
// and intrinsics 0..2^24; floats finite. Counters craftax lets run without
// bound (mob health and attack cooldowns, plant ages, the timestep, the
// positions of dead arrows, which keep flying) within +-2^30, far from int32
// overflow.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "envs/craftax/classic_state.h"

namespace rlpool::craftax::classic {

const std::array<std::string_view, kNumAchievements> kAchievementNames = {
    "collect_wood",       "place_table",      "eat_cow",         "collect_sapling",   "collect_drink",
    "make_wood_pickaxe",  "make_wood_sword",  "place_plant",     "defeat_zombie",     "collect_stone",
    "place_stone",        "eat_plant",        "defeat_skeleton", "make_stone_pickaxe", "make_stone_sword",
    "wake_up",            "place_furnace",    "collect_coal",    "collect_iron",      "collect_diamond",
    "make_iron_pickaxe",  "make_iron_sword",
};

namespace {

static_assert(std::endian::native == std::endian::little, "the state bytes are little-endian");

constexpr std::int32_t kCountLimit = 1 << 24;
constexpr std::int32_t kCounterLimit = 1 << 30;

// One pass over the fields in leaf order: Writer appends, Reader reads and checks.
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void i32(std::int32_t v) { raw(&v, 4); }
  void u32(std::uint32_t v) { raw(&v, 4); }
  void f32(float v) { raw(&v, 4); }
  void b(bool v) { out_.push_back(v ? '\1' : '\0'); }

 private:
  void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string& out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  std::int32_t i32(const char* field, std::int32_t lo, std::int32_t hi) {
    std::int32_t v;
    raw(&v, 4);
    if (v < lo || v > hi) {
      throw std::invalid_argument(std::string("Craftax-Classic state: ") + field + " is " + std::to_string(v) +
                                  ", outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    return v;
  }
  std::uint32_t u32() {
    std::uint32_t v;
    raw(&v, 4);
    return v;
  }
  float f32(const char* field) {
    float v;
    raw(&v, 4);
    if (!std::isfinite(v)) {
      throw std::invalid_argument(std::string("Craftax-Classic state: ") + field + " is not finite");
    }
    return v;
  }
  bool b(const char* field) {
    const auto v = static_cast<unsigned char>(in_[pos_++]);
    if (v > 1) {
      throw std::invalid_argument(std::string("Craftax-Classic state: ") + field + " is a bool byte of " +
                                  std::to_string(v) + ", not 0 or 1");
    }
    return v == 1;
  }

 private:
  void raw(void* p, std::size_t n) {
    std::memcpy(p, in_.data() + pos_, n);
    pos_ += n;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
};

bool in_map(const std::array<std::int32_t, 2>& p) {
  return 0 <= p[0] && p[0] < kMapSize && 0 <= p[1] && p[1] < kMapSize;
}

// The fields in leaf order, as bytes (load_state reads them in the same order).
void put(Writer& w, const State& s) {
  for (const auto& row : s.map)
    for (const std::int32_t v : row) w.i32(v);
  for (const auto& row : s.mob_map)
    for (const bool v : row) w.b(v);
  w.i32(s.player_position[0]);
  w.i32(s.player_position[1]);
  w.i32(s.player_direction);
  w.i32(s.player_health);
  w.i32(s.player_food);
  w.i32(s.player_drink);
  w.i32(s.player_energy);
  w.b(s.is_sleeping);
  w.f32(s.player_recover);
  w.f32(s.player_hunger);
  w.f32(s.player_thirst);
  w.f32(s.player_fatigue);
  const Inventory& inv = s.inventory;
  for (const std::int32_t v : {inv.wood, inv.stone, inv.coal, inv.iron, inv.diamond, inv.sapling, inv.wood_pickaxe,
                               inv.stone_pickaxe, inv.iron_pickaxe, inv.wood_sword, inv.stone_sword, inv.iron_sword}) {
    w.i32(v);
  }
  auto mobs = [&w](const auto& m) {
    for (const auto& p : m.position) {
      w.i32(p[0]);
      w.i32(p[1]);
    }
    for (const std::int32_t v : m.health) w.i32(v);
    for (const bool v : m.mask) w.b(v);
    for (const std::int32_t v : m.attack_cooldown) w.i32(v);
  };
  mobs(s.zombies);
  mobs(s.cows);
  mobs(s.skeletons);
  mobs(s.arrows);
  for (const auto& d : s.arrow_directions) {
    w.i32(d[0]);
    w.i32(d[1]);
  }
  for (const auto& p : s.growing_plants_positions) {
    w.i32(p[0]);
    w.i32(p[1]);
  }
  for (const std::int32_t v : s.growing_plants_age) w.i32(v);
  for (const bool v : s.growing_plants_mask) w.b(v);
  w.f32(s.light_level);
  for (const bool v : s.achievements) w.b(v);
  w.u32(s.state_rng.hi);
  w.u32(s.state_rng.lo);
  w.i32(s.timestep);
}

template <int N>
void get_mobs(Reader& r, Mobs<N>& m, const char* position, const char* health, const char* mask, const char* cooldown,
              bool live_on_map_only) {
  std::array<std::array<std::int32_t, 2>, N> pos{};
  for (auto& p : pos) {
    // Dead arrows keep flying off the map; other mobs stay on it.
    const std::int32_t lo = live_on_map_only ? -kCounterLimit : 0;
    const std::int32_t hi = live_on_map_only ? kCounterLimit : kMapSize - 1;
    p[0] = r.i32(position, lo, hi);
    p[1] = r.i32(position, lo, hi);
  }
  m.position = pos;
  for (auto& v : m.health) v = r.i32(health, -kCounterLimit, kCounterLimit);
  for (auto& v : m.mask) v = r.b(mask);
  for (auto& v : m.attack_cooldown) v = r.i32(cooldown, -kCounterLimit, kCounterLimit);
  if (live_on_map_only) {
    for (int i = 0; i < N; ++i) {
      if (m.mask[i] && !in_map(m.position[i])) {
        throw std::invalid_argument(std::string("Craftax-Classic state: ") + position + " of a live slot (" +
                                    std::to_string(m.position[i][0]) + ", " + std::to_string(m.position[i][1]) +
                                    ") is off the 64 x 64 map");
      }
    }
  }
}

}  // namespace

std::size_t saved_state_size() {
  // map 64*64 int32, mob_map 64*64 bool, player (2 + 5) int32 + bool + 4 float32,
  // inventory 12, mobs (3 + 3 + 2 + 3 slots) * (2 + 1 + 1 + 1 int32 and a bool),
  // arrow_directions 3*2, plants 10 * (2 + 1) int32 + 10 bools, light, 22 bools,
  // rng 2, timestep.
  constexpr std::size_t kMobSlots = kMaxZombies + kMaxCows + kMaxSkeletons + kMaxArrows;
  return kMapSize * kMapSize * 5 + 7 * 4 + 1 + 4 * 4 + 12 * 4 + kMobSlots * (4 * 4 + 1) + kMaxArrows * 2 * 4 +
         kMaxGrowingPlants * (3 * 4 + 1) + 4 + kNumAchievements + 2 * 4 + 4;
}

std::string save_state(const State& s) {
  std::string out;
  out.reserve(saved_state_size());
  Writer w(out);
  put(w, s);
  return out;
}

State load_state(std::string_view bytes) {
  if (bytes.size() != saved_state_size()) {
    throw std::invalid_argument("Craftax-Classic state: expected " + std::to_string(saved_state_size()) +
                                " bytes (craftax 1.6.1 EnvState's tree leaves), got " + std::to_string(bytes.size()));
  }
  Reader r(bytes);
  State s;
  for (auto& row : s.map)
    for (auto& v : row) v = r.i32("map", 0, kNumBlockTypes - 1);
  for (auto& row : s.mob_map)
    for (auto& v : row) v = r.b("mob_map");
  s.player_position[0] = r.i32("player_position", 0, kMapSize - 1);
  s.player_position[1] = r.i32("player_position", 0, kMapSize - 1);
  s.player_direction = r.i32("player_direction", kLeft, kDown);
  s.player_health = r.i32("player_health", 0, kCountLimit);
  s.player_food = r.i32("player_food", 0, kCountLimit);
  s.player_drink = r.i32("player_drink", 0, kCountLimit);
  s.player_energy = r.i32("player_energy", 0, kCountLimit);
  s.is_sleeping = r.b("is_sleeping");
  s.player_recover = r.f32("player_recover");
  s.player_hunger = r.f32("player_hunger");
  s.player_thirst = r.f32("player_thirst");
  s.player_fatigue = r.f32("player_fatigue");
  Inventory& inv = s.inventory;
  inv.wood = r.i32("inventory.wood", 0, kCountLimit);
  inv.stone = r.i32("inventory.stone", 0, kCountLimit);
  inv.coal = r.i32("inventory.coal", 0, kCountLimit);
  inv.iron = r.i32("inventory.iron", 0, kCountLimit);
  inv.diamond = r.i32("inventory.diamond", 0, kCountLimit);
  inv.sapling = r.i32("inventory.sapling", 0, kCountLimit);
  inv.wood_pickaxe = r.i32("inventory.wood_pickaxe", 0, kCountLimit);
  inv.stone_pickaxe = r.i32("inventory.stone_pickaxe", 0, kCountLimit);
  inv.iron_pickaxe = r.i32("inventory.iron_pickaxe", 0, kCountLimit);
  inv.wood_sword = r.i32("inventory.wood_sword", 0, kCountLimit);
  inv.stone_sword = r.i32("inventory.stone_sword", 0, kCountLimit);
  inv.iron_sword = r.i32("inventory.iron_sword", 0, kCountLimit);
  get_mobs(r, s.zombies, "zombies.position", "zombies.health", "zombies.mask", "zombies.attack_cooldown", false);
  get_mobs(r, s.cows, "cows.position", "cows.health", "cows.mask", "cows.attack_cooldown", false);
  get_mobs(r, s.skeletons, "skeletons.position", "skeletons.health", "skeletons.mask", "skeletons.attack_cooldown",
           false);
  get_mobs(r, s.arrows, "arrows.position", "arrows.health", "arrows.mask", "arrows.attack_cooldown", true);
  for (auto& d : s.arrow_directions) {
    d[0] = r.i32("arrow_directions", -1, 1);
    d[1] = r.i32("arrow_directions", -1, 1);
  }
  for (auto& p : s.growing_plants_positions) {
    p[0] = r.i32("growing_plants_positions", 0, kMapSize - 1);
    p[1] = r.i32("growing_plants_positions", 0, kMapSize - 1);
  }
  for (auto& v : s.growing_plants_age) v = r.i32("growing_plants_age", 0, kCounterLimit);
  for (auto& v : s.growing_plants_mask) v = r.b("growing_plants_mask");
  s.light_level = r.f32("light_level");
  for (auto& v : s.achievements) v = r.b("achievements");
  s.state_rng.hi = r.u32();
  s.state_rng.lo = r.u32();
  s.timestep = r.i32("timestep", 0, kCounterLimit);
  return s;
}

}  // namespace rlpool::craftax::classic
