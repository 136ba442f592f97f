// Full Craftax's state as bytes and back (full_state_io.h).
//
// The bytes are jax.tree_util.tree_leaves(EnvState) of craftax 1.6.1
// (craftax/craftax/craftax_state.py: EnvState, Inventory, Mobs) concatenated
// as raw little-endian arrays, bools as one byte, in leaf order: map,
// item_map, mob_map, light_map, down_ladders, up_ladders, chests_opened,
// monsters_killed, player_position, player_level, player_direction,
// player_health, player_food, player_drink, player_energy, player_mana,
// is_sleeping, is_resting, player_recover, player_hunger, player_thirst,
// player_fatigue, player_recover_mana, player_xp, player_dexterity,
// player_strength, player_intelligence, the inventory (wood, stone, coal, iron,
// diamond, sapling, pickaxe, sword, bow, arrows, armour[4], torches, ruby,
// sapphire, potions[6], books), melee_mobs, passive_mobs, ranged_mobs,
// mob_projectiles (position, health, mask, attack_cooldown, type_id each),
// mob_projectile_directions, player_projectiles,
// player_projectile_directions, growing_plants_positions / _age / _mask,
// potion_mapping, learned_spells, sword_enchantment, bow_enchantment,
// armour_enchantments, boss_progress, boss_timesteps_to_spawn_this_round,
// light_level, achievements, state_rng (two uint32), timestep: 273,276 bytes.
//
// load_state checks every field against what craftax's own states hold, so
// that the game code never sees a value it cannot handle; a bad field throws
// std::invalid_argument naming it. The limits: blocks 0..36, items 0..4; bools
// 0 or 1; floats finite; the player's level 0..8 and direction 1..4
// (LEFT..DOWN); the player, the ladders, live mobs and projectiles and the
// growing plants on the 48 x 48 map; inventory counts 0..99 (craftax caps them
// at 99 every step), pickaxe and sword 0..4, bow 0..1, armour pieces 0..2,
// enchantments 0..2 (none, fire, ice); mob and projectile types 0..7;
// projectile directions -1..1; potion_mapping 0..5; intrinsics and attributes
// 0..2^24. Counters craftax lets run without bound (mob attack cooldowns,
// monsters killed, plant ages, boss progress and spawn countdown, the
// timestep, the positions of dead projectiles, which keep flying) within
// +-2^30, far from int32 overflow.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "envs/craftax/full_state_io.h"

namespace rlpool::craftax::full {

namespace {

static_assert(std::endian::native == std::endian::little, "the state bytes are little-endian");

constexpr std::int32_t kCountLimit = 1 << 24;
constexpr std::int32_t kCounterLimit = 1 << 30;
constexpr std::int32_t kInventoryCap = 99;  // clip_inventory_and_intrinsics
constexpr std::int32_t kNumMobTypes = 8;    // type ids per mob class (the symbolic observation's 8 channels)

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("Craftax state: " + what); }

// Appends the fields (the limits are the reader's).
class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}
  void i32(const char*, const std::int32_t& v, std::int32_t, std::int32_t) { raw(&v, 4); }
  void f32(const char*, const float& v) { raw(&v, 4); }
  void b(const char*, const bool& v) { out_.push_back(v ? '\1' : '\0'); }
  void u32(const std::uint32_t& v) { raw(&v, 4); }

 private:
  void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string& out_;
};

// Reads the fields in the same order and checks each.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  void i32(const char* field, std::int32_t& v, std::int32_t lo, std::int32_t hi) {
    raw(&v, 4);
    if (v < lo || v > hi) {
      bad(std::string(field) + " is " + std::to_string(v) + ", outside [" + std::to_string(lo) + ", " +
          std::to_string(hi) + "]");
    }
  }
  void f32(const char* field, float& v) {
    raw(&v, 4);
    if (!std::isfinite(v)) bad(std::string(field) + " is not finite");
  }
  void b(const char* field, bool& v) {
    const auto byte = static_cast<unsigned char>(in_[pos_++]);
    if (byte > 1) bad(std::string(field) + " is a bool byte of " + std::to_string(byte) + ", not 0 or 1");
    v = byte == 1;
  }
  void u32(std::uint32_t& v) { raw(&v, 4); }

 private:
  void raw(void* p, std::size_t n) {
    std::memcpy(p, in_.data() + pos_, n);
    pos_ += n;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
};

template <typename V, typename A>
void position(V& v, const char* field, A& p, std::int32_t lo, std::int32_t hi) {
  v.i32(field, p[0], lo, hi);
  v.i32(field, p[1], lo, hi);
}

// One Mobs leaf group: position, health, mask, attack_cooldown, type_id.
template <typename V, typename M>
void mobs(V& v, M& m, const char* position_field, const char* health, const char* mask, const char* cooldown,
          const char* type_id) {
  for (auto& level : m.position)
    for (auto& p : level) position(v, position_field, p, -kCounterLimit, kCounterLimit);
  for (auto& level : m.health)
    for (auto& x : level) v.f32(health, x);
  for (auto& level : m.mask)
    for (auto& x : level) v.b(mask, x);
  for (auto& level : m.attack_cooldown)
    for (auto& x : level) v.i32(cooldown, x, -kCounterLimit, kCounterLimit);
  for (auto& level : m.type_id)
    for (auto& x : level) v.i32(type_id, x, 0, kNumMobTypes - 1);
}

template <typename V, typename D>
void directions(V& v, D& d, const char* field) {
  for (auto& level : d)
    for (auto& p : level) position(v, field, p, -1, 1);
}

// Every field in leaf order (S is State or const State).
template <typename V, typename S>
void visit(V& v, S& s) {
  for (auto& level : s.map)
    for (auto& row : level)
      for (auto& x : row) v.i32("map", x, 0, kNumBlockTypes - 1);
  for (auto& level : s.item_map)
    for (auto& row : level)
      for (auto& x : row) v.i32("item_map", x, 0, kNumItemTypes - 1);
  for (auto& level : s.mob_map)
    for (auto& row : level)
      for (auto& x : row) v.b("mob_map", x);
  for (auto& level : s.light_map)
    for (auto& row : level)
      for (auto& x : row) v.f32("light_map", x);
  for (auto& p : s.down_ladders) position(v, "down_ladders", p, 0, kMapSize - 1);
  for (auto& p : s.up_ladders) position(v, "up_ladders", p, 0, kMapSize - 1);
  for (auto& x : s.chests_opened) v.b("chests_opened", x);
  for (auto& x : s.monsters_killed) v.i32("monsters_killed", x, 0, kCounterLimit);
  position(v, "player_position", s.player_position, 0, kMapSize - 1);
  v.i32("player_level", s.player_level, 0, kNumLevels - 1);
  v.i32("player_direction", s.player_direction, kLeft, kDown);
  v.f32("player_health", s.player_health);
  v.i32("player_food", s.player_food, 0, kCountLimit);
  v.i32("player_drink", s.player_drink, 0, kCountLimit);
  v.i32("player_energy", s.player_energy, 0, kCountLimit);
  v.i32("player_mana", s.player_mana, 0, kCountLimit);
  v.b("is_sleeping", s.is_sleeping);
  v.b("is_resting", s.is_resting);
  v.f32("player_recover", s.player_recover);
  v.f32("player_hunger", s.player_hunger);
  v.f32("player_thirst", s.player_thirst);
  v.f32("player_fatigue", s.player_fatigue);
  v.f32("player_recover_mana", s.player_recover_mana);
  v.i32("player_xp", s.player_xp, 0, kCountLimit);
  v.i32("player_dexterity", s.player_dexterity, 0, kCountLimit);
  v.i32("player_strength", s.player_strength, 0, kCountLimit);
  v.i32("player_intelligence", s.player_intelligence, 0, kCountLimit);
  auto& inv = s.inventory;
  v.i32("inventory.wood", inv.wood, 0, kInventoryCap);
  v.i32("inventory.stone", inv.stone, 0, kInventoryCap);
  v.i32("inventory.coal", inv.coal, 0, kInventoryCap);
  v.i32("inventory.iron", inv.iron, 0, kInventoryCap);
  v.i32("inventory.diamond", inv.diamond, 0, kInventoryCap);
  v.i32("inventory.sapling", inv.sapling, 0, kInventoryCap);
  v.i32("inventory.pickaxe", inv.pickaxe, 0, 4);
  v.i32("inventory.sword", inv.sword, 0, 4);
  v.i32("inventory.bow", inv.bow, 0, 1);
  v.i32("inventory.arrows", inv.arrows, 0, kInventoryCap);
  for (auto& x : inv.armour) v.i32("inventory.armour", x, 0, 2);
  v.i32("inventory.torches", inv.torches, 0, kInventoryCap);
  v.i32("inventory.ruby", inv.ruby, 0, kInventoryCap);
  v.i32("inventory.sapphire", inv.sapphire, 0, kInventoryCap);
  for (auto& x : inv.potions) v.i32("inventory.potions", x, 0, kInventoryCap);
  v.i32("inventory.books", inv.books, 0, kInventoryCap);
  mobs(v, s.melee_mobs, "melee_mobs.position", "melee_mobs.health", "melee_mobs.mask", "melee_mobs.attack_cooldown",
       "melee_mobs.type_id");
  mobs(v, s.passive_mobs, "passive_mobs.position", "passive_mobs.health", "passive_mobs.mask",
       "passive_mobs.attack_cooldown", "passive_mobs.type_id");
  mobs(v, s.ranged_mobs, "ranged_mobs.position", "ranged_mobs.health", "ranged_mobs.mask",
       "ranged_mobs.attack_cooldown", "ranged_mobs.type_id");
  mobs(v, s.mob_projectiles, "mob_projectiles.position", "mob_projectiles.health", "mob_projectiles.mask",
       "mob_projectiles.attack_cooldown", "mob_projectiles.type_id");
  directions(v, s.mob_projectile_directions, "mob_projectile_directions");
  mobs(v, s.player_projectiles, "player_projectiles.position", "player_projectiles.health",
       "player_projectiles.mask", "player_projectiles.attack_cooldown", "player_projectiles.type_id");
  directions(v, s.player_projectile_directions, "player_projectile_directions");
  for (auto& p : s.growing_plants_positions) position(v, "growing_plants_positions", p, 0, kMapSize - 1);
  for (auto& x : s.growing_plants_age) v.i32("growing_plants_age", x, 0, kCounterLimit);
  for (auto& x : s.growing_plants_mask) v.b("growing_plants_mask", x);
  for (auto& x : s.potion_mapping) v.i32("potion_mapping", x, 0, 5);
  for (auto& x : s.learned_spells) v.b("learned_spells", x);
  v.i32("sword_enchantment", s.sword_enchantment, 0, 2);
  v.i32("bow_enchantment", s.bow_enchantment, 0, 2);
  for (auto& x : s.armour_enchantments) v.i32("armour_enchantments", x, 0, 2);
  v.i32("boss_progress", s.boss_progress, 0, kCounterLimit);
  v.i32("boss_timesteps_to_spawn_this_round", s.boss_timesteps_to_spawn_this_round, -kCounterLimit, kCounterLimit);
  v.f32("light_level", s.light_level);
  for (auto& x : s.achievements) v.b("achievements", x);
  v.u32(s.state_rng.hi);
  v.u32(s.state_rng.lo);
  v.i32("timestep", s.timestep, 0, kCounterLimit);
}

// Live mobs and projectiles lie on the map (dead ones keep their last or flying positions).
template <int N>
void check_live_on_map(const Mobs<N>& m, const char* field) {
  for (int level = 0; level < kNumLevels; ++level) {
    for (int i = 0; i < N; ++i) {
      const auto& p = m.position[level][i];
      if (m.mask[level][i] && !(0 <= p[0] && p[0] < kMapSize && 0 <= p[1] && p[1] < kMapSize)) {
        bad(std::string(field) + " of a live slot (level " + std::to_string(level) + ", slot " + std::to_string(i) +
            ") is (" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + "), off the 48 x 48 map");
      }
    }
  }
}

}  // namespace

std::size_t saved_state_size() {
  // Four 9 x 48 x 48 maps (int32, int32, bool, float32); ladders 2 * 9 * 2 int32;
  // chests_opened 9 bools, monsters_killed 9; player_position 2, level,
  // direction, health, food, drink, energy, mana (9 four-byte values), two
  // bools, five floats, four int32; inventory 10 + 4 + 3 + 6 + 1 int32; mobs
  // (3 + 3 + 2 + 3 + 3 slots) * 9 levels * (2 + 1 + 1 + 1 four-byte values and a
  // bool); two projectile direction arrays 9 * 3 * 2; plants 10 * (2 + 1) int32
  // and 10 bools; potion_mapping 6, learned_spells 2 bools, two enchantments,
  // armour_enchantments 4, boss 2, light 1; 67 bools; rng 2; timestep 1.
  constexpr std::size_t kCells = static_cast<std::size_t>(kNumLevels) * kMapSize * kMapSize;
  constexpr std::size_t kMobSlots = static_cast<std::size_t>(kNumLevels) *
                                    (kMaxMeleeMobs + kMaxPassiveMobs + kMaxRangedMobs + kMaxMobProjectiles +
                                     kMaxPlayerProjectiles);
  return kCells * (4 + 4 + 1 + 4) + 2 * kNumLevels * 2 * 4 + kNumLevels * (1 + 4) + 9 * 4 + 2 + 5 * 4 + 4 * 4 +
         24 * 4 + kMobSlots * (5 * 4 + 1) + 2 * kNumLevels * 3 * 2 * 4 + kMaxGrowingPlants * (3 * 4 + 1) + 6 * 4 + 2 +
         2 * 4 + 4 * 4 + 2 * 4 + 4 + kNumAchievements + 2 * 4 + 4;
}

std::string save_state(const State& state) {
  std::string out;
  out.reserve(saved_state_size());
  Writer w(out);
  visit(w, state);
  return out;
}

State load_state(std::string_view bytes) {
  if (bytes.size() != saved_state_size()) {
    bad("expected " + std::to_string(saved_state_size()) + " bytes (craftax 1.6.1 EnvState's tree leaves), got " +
        std::to_string(bytes.size()));
  }
  Reader r(bytes);
  State s;
  visit(r, s);
  check_live_on_map(s.melee_mobs, "melee_mobs.position");
  check_live_on_map(s.passive_mobs, "passive_mobs.position");
  check_live_on_map(s.ranged_mobs, "ranged_mobs.position");
  check_live_on_map(s.mob_projectiles, "mob_projectiles.position");
  check_live_on_map(s.player_projectiles, "player_projectiles.position");
  return s;
}

}  // namespace rlpool::craftax::full
