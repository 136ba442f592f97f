// Craftax-Classic's game state, parameters and constants, as craftax 1.6.1
// defines them (craftax/craftax_classic/envs/craftax_state.py: EnvState,
// Inventory, Mobs, EnvParams, StaticEnvParams; craftax_classic/constants.py:
// BlockType, Action, Achievement, DIRECTIONS, CLOSE_BLOCKS, SOLID_BLOCKS).
//
// Field order, names, shapes and dtypes are craftax's, so that a state is the
// concatenation of jax.tree_util.tree_leaves(EnvState) as raw little-endian
// bytes (bools as one byte): what set_state takes and get_state gives
// (classic_state.cc). Positions are (row, column) of the 64 x 64 map, as
// craftax indexes map[x, y].
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "_core/env/jax_random.h"

namespace rlpool::craftax::classic {

constexpr int kMapSize = 64;  // StaticEnvParams.map_size (square)
constexpr int kObsRows = 7;   // OBS_DIM: rows (x) and columns (y) of the local view
constexpr int kObsCols = 9;
constexpr int kMaxZombies = 3;
constexpr int kMaxCows = 3;
constexpr int kMaxSkeletons = 2;
constexpr int kMaxArrows = 3;
constexpr int kMaxGrowingPlants = 10;
constexpr int kNumBlockTypes = 17;
constexpr int kNumActions = 17;
constexpr int kNumAchievements = 22;
constexpr int kSymbolicObsSize = 1345;  // 7 * 9 * (17 + 4) + 12 + 4 + 4 + 2

enum Block : std::int32_t {
  kInvalid = 0,
  kOutOfBounds = 1,
  kGrass = 2,
  kWater = 3,
  kStone = 4,
  kTree = 5,
  kWood = 6,
  kPath = 7,
  kCoal = 8,
  kIron = 9,
  kDiamond = 10,
  kCraftingTable = 11,
  kFurnace = 12,
  kSand = 13,
  kLava = 14,
  kPlant = 15,
  kRipePlant = 16,
};

enum Action : std::int32_t {
  kNoop = 0,
  kLeft = 1,
  kRight = 2,
  kUp = 3,
  kDown = 4,
  kDo = 5,
  kSleep = 6,
  kPlaceStone = 7,
  kPlaceTable = 8,
  kPlaceFurnace = 9,
  kPlacePlant = 10,
  kMakeWoodPickaxe = 11,
  kMakeStonePickaxe = 12,
  kMakeIronPickaxe = 13,
  kMakeWoodSword = 14,
  kMakeStoneSword = 15,
  kMakeIronSword = 16,
};

enum Achievement : int {
  kCollectWood = 0,
  kPlaceTableAch = 1,
  kEatCow = 2,
  kCollectSapling = 3,
  kCollectDrink = 4,
  kMakeWoodPickaxeAch = 5,
  kMakeWoodSwordAch = 6,
  kPlacePlantAch = 7,
  kDefeatZombie = 8,
  kCollectStone = 9,
  kPlaceStoneAch = 10,
  kEatPlant = 11,
  kDefeatSkeleton = 12,
  kMakeStonePickaxeAch = 13,
  kMakeStoneSwordAch = 14,
  kWakeUp = 15,
  kPlaceFurnaceAch = 16,
  kCollectCoal = 17,
  kCollectIron = 18,
  kCollectDiamond = 19,
  kMakeIronPickaxeAch = 20,
  kMakeIronSwordAch = 21,
};

// craftax's Achievement names, lower case, in enum order (info keys
// "Achievements/<name>").
extern const std::array<std::string_view, kNumAchievements> kAchievementNames;

// SOLID_BLOCKS: what nothing walks through.
constexpr bool is_solid(std::int32_t block) {
  return block == kWater || block == kStone || block == kTree || block == kCoal || block == kIron ||
         block == kDiamond || block == kCraftingTable || block == kFurnace || block == kPlant || block == kRipePlant;
}

struct Inventory {
  std::int32_t wood = 0;
  std::int32_t stone = 0;
  std::int32_t coal = 0;
  std::int32_t iron = 0;
  std::int32_t diamond = 0;
  std::int32_t sapling = 0;
  std::int32_t wood_pickaxe = 0;
  std::int32_t stone_pickaxe = 0;
  std::int32_t iron_pickaxe = 0;
  std::int32_t wood_sword = 0;
  std::int32_t stone_sword = 0;
  std::int32_t iron_sword = 0;
};

// craftax's Mobs with N slots: position (N, 2), health (N,), mask (N,),
// attack_cooldown (N,).
template <int N>
struct Mobs {
  std::array<std::array<std::int32_t, 2>, N> position{};
  std::array<std::int32_t, N> health{};
  std::array<bool, N> mask{};
  std::array<std::int32_t, N> attack_cooldown{};
};

struct State {
  std::array<std::array<std::int32_t, kMapSize>, kMapSize> map{};  // map[x][y]: a Block
  std::array<std::array<bool, kMapSize>, kMapSize> mob_map{};
  std::array<std::int32_t, 2> player_position{};
  std::int32_t player_direction = 0;  // an Action (LEFT..DOWN)
  std::int32_t player_health = 0;
  std::int32_t player_food = 0;
  std::int32_t player_drink = 0;
  std::int32_t player_energy = 0;
  bool is_sleeping = false;
  float player_recover = 0.0f;
  float player_hunger = 0.0f;
  float player_thirst = 0.0f;
  float player_fatigue = 0.0f;
  Inventory inventory;
  Mobs<kMaxZombies> zombies;
  Mobs<kMaxCows> cows;
  Mobs<kMaxSkeletons> skeletons;
  Mobs<kMaxArrows> arrows;
  std::array<std::array<std::int32_t, 2>, kMaxArrows> arrow_directions{};
  std::array<std::array<std::int32_t, 2>, kMaxGrowingPlants> growing_plants_positions{};
  std::array<std::int32_t, kMaxGrowingPlants> growing_plants_age{};
  std::array<bool, kMaxGrowingPlants> growing_plants_mask{};
  float light_level = 0.0f;
  std::array<bool, kNumAchievements> achievements{};
  jax_random::Key state_rng{};
  std::int32_t timestep = 0;
};

// EnvParams (the options; defaults are craftax's).
struct Params {
  std::int32_t max_timesteps = 10000;
  std::int32_t day_length = 300;
  bool always_diamond = true;
  std::int32_t zombie_health = 5;
  std::int32_t cow_health = 3;
  std::int32_t skeleton_health = 3;
  std::int32_t mob_despawn_distance = 14;
  float spawn_cow_chance = 0.1f;
  float spawn_zombie_base_chance = 0.02f;
  float spawn_zombie_night_chance = 0.1f;
  float spawn_skeleton_chance = 0.05f;
};

// The state as tree_leaves bytes (see the header) and back; load checks sizes
// and value ranges (blocks, directions, positions on the map) and throws
// std::invalid_argument naming the field.
std::string save_state(const State& s);
State load_state(std::string_view bytes);
// Bytes of a saved state.
std::size_t saved_state_size();

}  // namespace rlpool::craftax::classic
