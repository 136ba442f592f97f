// Full Craftax's game constants, as craftax 1.6.1 defines them in
// craftax/craftax/constants.py l.15-21 (OBS_DIM) and l.95-594 (Action,
// ProjectileType, the floor and mob tables, the solid and item-placement
// block sets, the achievement reward and achievement maps), and JAX's
// indexing of the [level][x][y] maps at indices that may be off them. The
// block, item, mob class and achievement enums are full_state.h's;
// DIRECTIONS and CLOSE_BLOCKS are common_rules.h's.
//
// Actions: full_state.h's `Action` holds the movement values kNoop..kDown
// (0-4), the only ones a state stores (player_direction). The other 38
// actions are the enum `ActionId` below (kDo = 5 ... kEnchantBow = 42), with
// craftax's names in CamelCase; both convert to std::int32_t.
//
// Float tables hold the float32 values jnp.array(..., dtype=float32) holds
// (the nearest float32 of each Python literal, e.g. 0.1f).
//
// JAX indexing (common_rules.h) treats each axis on its own: map[level, x, y]
// wraps/clamps the level, x and y separately, and a write is dropped when any
// axis is off. Craftax reads and writes the maps at positions one step off the
// map (a mob or projectile at the border): the *_at readers and set_* writers
// below do what JAX does there.
#pragma once

#include <array>
#include <cstdint>

#include "envs/craftax/common_rules.h"
#include "envs/craftax/full_state.h"

namespace rlpool::craftax::full {

// OBS_DIM (l.15): rows (x) and columns (y) of the local view; MAX_OBS_DIM.
constexpr int kObsRows = 9;
constexpr int kObsCols = 11;
constexpr int kMaxObsDim = 11;
constexpr int kInventoryObsHeight = 4;  // INVENTORY_OBS_HEIGHT

// Action (l.95-138) values 5-42 (0-4 are full_state.h's Action).
enum ActionId : std::int32_t {
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
  kRest = 17,
  kDescend = 18,
  kAscend = 19,
  kMakeDiamondPickaxe = 20,
  kMakeDiamondSword = 21,
  kMakeIronArmour = 22,
  kMakeDiamondArmour = 23,
  kShootArrow = 24,
  kMakeArrow = 25,
  kCastFireball = 26,
  kCastIceball = 27,
  kPlaceTorch = 28,
  kDrinkPotionRed = 29,
  kDrinkPotionGreen = 30,
  kDrinkPotionBlue = 31,
  kDrinkPotionPink = 32,
  kDrinkPotionCyan = 33,
  kDrinkPotionYellow = 34,
  kReadBook = 35,
  kEnchantSword = 36,
  kEnchantArmour = 37,
  kMakeTorch = 38,
  kLevelUpDexterity = 39,
  kLevelUpStrength = 40,
  kLevelUpIntelligence = 41,
  kEnchantBow = 42,
};

// ProjectileType (l.133-141).
enum ProjectileType : std::int32_t {
  kProjectileArrow = 0,
  kProjectileDagger = 1,
  kProjectileFireball = 2,
  kProjectileIceball = 3,
  kProjectileArrow2 = 4,
  kProjectileSlimeball = 5,
  kProjectileFireball2 = 6,
  kProjectileIceball2 = 7,
};

constexpr int kNumMobTypes = 8;  // type_id values per mob class (MOB_ACHIEVEMENT_MAP's columns)

// FLOOR_MOB_MAPPING (l.142-157): [level][passive, melee, ranged] -> type_id.
inline constexpr std::array<std::array<std::int32_t, 3>, kNumLevels> kFloorMobMapping = {{
    {0, 0, 0},
    {2, 2, 2},
    {1, 1, 1},
    {2, 3, 3},
    {2, 4, 4},
    {1, 5, 5},
    {1, 6, 6},
    {1, 7, 7},
    {0, 0, 0},
}};

// FLOOR_MOB_SPAWN_CHANCE (l.159-174): [level][passive, melee, ranged,
// melee-night], float32.
inline constexpr std::array<std::array<float, 4>, kNumLevels> kFloorMobSpawnChance = {{
    {0.1f, 0.02f, 0.05f, 0.1f},
    {0.1f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f},
    {0.0f, 0.06f, 0.05f, 0.0f},
    {0.1f, 0.06f, 0.05f, 0.0f},
}};

// MOB_TYPE_COLLISION_MAPPING (l.176-259): [type_id][mob class (passive,
// melee, ranged, projectile)][ground, water, lava] (craftax's int32 0/1; the
// first index is a type_id although craftax's comments say floor).
using Collision = std::array<bool, 3>;
inline constexpr Collision kCollisionLandCreature = {false, true, true};
inline constexpr Collision kCollisionFlying = {false, false, false};
inline constexpr Collision kCollisionAquatic = {true, false, true};
inline constexpr Collision kCollisionAmphibian = {false, false, true};
inline constexpr std::array<std::array<Collision, 4>, 9> kMobTypeCollisionMapping = {{
    {{kCollisionLandCreature, kCollisionLandCreature, kCollisionLandCreature, kCollisionFlying}},
    {{kCollisionFlying, kCollisionLandCreature, kCollisionLandCreature, kCollisionFlying}},
    {{kCollisionLandCreature, kCollisionLandCreature, kCollisionLandCreature, kCollisionFlying}},
    {{kCollisionLandCreature, kCollisionAmphibian, kCollisionLandCreature, kCollisionFlying}},
    {{kCollisionLandCreature, kCollisionLandCreature, kCollisionLandCreature, kCollisionFlying}},
    {{kCollisionLandCreature, kCollisionLandCreature, kCollisionAquatic, kCollisionFlying}},
    {{kCollisionLandCreature, kCollisionLandCreature, kCollisionFlying, kCollisionFlying}},
    {{kCollisionLandCreature, kCollisionLandCreature, kCollisionFlying, kCollisionFlying}},
    {{kCollisionLandCreature, kCollisionLandCreature, kCollisionLandCreature, kCollisionFlying}},
}};

// MOB_TYPE_DAMAGE_MAPPING (l.261-275): [type_id (melee) or projectile type]
// [mob class][physical, fire, ice], float32. Only the melee (1) and
// projectile (3) columns are non-zero.
using DamageVector = std::array<float, 3>;
inline constexpr DamageVector kNoDamage = {0.0f, 0.0f, 0.0f};
inline constexpr std::array<std::array<DamageVector, 4>, 8> kMobTypeDamageMapping = {{
    {{kNoDamage, {2.0f, 0.0f, 0.0f}, kNoDamage, {2.0f, 0.0f, 0.0f}}},  // zombie, arrow
    {{kNoDamage, {4.0f, 0.0f, 0.0f}, kNoDamage, {4.0f, 0.0f, 0.0f}}},  // gnome, dagger
    {{kNoDamage, {3.0f, 0.0f, 0.0f}, kNoDamage, {0.0f, 3.0f, 0.0f}}},  // orc, fireball
    {{kNoDamage, {5.0f, 0.0f, 0.0f}, kNoDamage, {0.0f, 0.0f, 3.0f}}},  // lizard, iceball
    {{kNoDamage, {6.0f, 0.0f, 0.0f}, kNoDamage, {5.0f, 0.0f, 0.0f}}},  // knight, arrow2
    {{kNoDamage, {6.0f, 1.0f, 1.0f}, kNoDamage, {4.0f, 3.0f, 3.0f}}},  // troll, slimeball
    {{kNoDamage, {3.0f, 5.0f, 0.0f}, kNoDamage, {3.0f, 5.0f, 0.0f}}},  // pigman, fireball2
    {{kNoDamage, {4.0f, 0.0f, 5.0f}, kNoDamage, {4.0f, 0.0f, 5.0f}}},  // ice troll, iceball2
}};

// MOB_TYPE_HEALTH_MAPPING (l.277-291): [type_id][mob class] initial health.
inline constexpr std::array<std::array<float, 4>, 9> kMobTypeHealthMapping = {{
    {3.0f, 5.0f, 3.0f, 0.0f},
    {4.0f, 7.0f, 5.0f, 0.0f},
    {6.0f, 9.0f, 6.0f, 0.0f},
    {8.0f, 11.0f, 8.0f, 0.0f},
    {0.0f, 12.0f, 12.0f, 0.0f},
    {0.0f, 20.0f, 4.0f, 0.0f},
    {0.0f, 20.0f, 14.0f, 0.0f},
    {0.0f, 24.0f, 16.0f, 0.0f},
    {0.0f, 0.0f, 0.0f, 0.0f},
}};

// MOB_TYPE_DEFENSE_MAPPING (l.293-322): [type_id][mob class][physical, fire,
// ice] defence, float32.
inline constexpr std::array<std::array<DamageVector, 4>, 9> kMobTypeDefenseMapping = {{
    {{kNoDamage, kNoDamage, kNoDamage, kNoDamage}},
    {{kNoDamage, kNoDamage, kNoDamage, kNoDamage}},
    {{kNoDamage, kNoDamage, kNoDamage, kNoDamage}},
    {{kNoDamage, kNoDamage, kNoDamage, kNoDamage}},
    {{kNoDamage, {0.5f, 0.0f, 0.0f}, {0.5f, 0.0f, 0.0f}, kNoDamage}},
    {{kNoDamage, {0.2f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}, kNoDamage}},
    {{kNoDamage, {0.9f, 1.0f, 0.0f}, {0.9f, 1.0f, 0.0f}, kNoDamage}},
    {{kNoDamage, {0.9f, 0.0f, 1.0f}, {0.9f, 0.0f, 1.0f}, kNoDamage}},
    {{kNoDamage, kNoDamage, kNoDamage, kNoDamage}},
}};

// RANGED_MOB_TYPE_TO_PROJECTILE_TYPE_MAPPING (l.324-335): ranged type_id ->
// ProjectileType.
inline constexpr std::array<std::int32_t, 8> kRangedMobTypeToProjectileType = {
    kProjectileArrow,  kProjectileArrow,     kProjectileFireball,  kProjectileDagger,
    kProjectileArrow2, kProjectileSlimeball, kProjectileFireball2, kProjectileIceball2,
};

constexpr std::int32_t kMonstersKilledToClearLevel = 8;  // MONSTERS_KILLED_TO_CLEAR_LEVEL
constexpr float kBossFightExtraDamage = 0.5f;            // BOSS_FIGHT_EXTRA_DAMAGE

// SOLID_BLOCK_MAPPING (l.365-394): blocks nothing walks through, by Block.
inline constexpr std::array<bool, kNumBlockTypes> kSolidBlockMapping = [] {
  std::array<bool, kNumBlockTypes> m{};
  for (const Block b : {kStone, kTree, kCoal, kIron, kDiamond, kCraftingTable, kFurnace, kPlant, kRipePlant, kWall,
                        kWallMoss, kStalagmite, kRuby, kSapphire, kChest, kFountain, kFireTree, kEnchantmentTableFire,
                        kEnchantmentTableIce, kGrave, kGrave2, kGrave3, kNecromancer}) {
    m[static_cast<std::size_t>(b)] = true;
  }
  return m;
}();

// CAN_PLACE_ITEM_MAPPING (l.396-406): blocks a torch or ladder can go on.
inline constexpr std::array<bool, kNumBlockTypes> kCanPlaceItemMapping = [] {
  std::array<bool, kNumBlockTypes> m{};
  for (const Block b : {kGrass, kSand, kPath, kFireGrass, kIceGrass}) m[static_cast<std::size_t>(b)] = true;
  return m;
}();

// SOLID_BLOCK_MAPPING[b] / CAN_PLACE_ITEM_MAPPING[b] as JAX reads them.
constexpr bool is_solid(std::int32_t block) { return kSolidBlockMapping[read_index(block, kNumBlockTypes)]; }
constexpr bool can_place_item(std::int32_t block) { return kCanPlaceItemMapping[read_index(block, kNumBlockTypes)]; }

// ACHIEVEMENT_REWARD_MAP (l.521-537): 1 for values <= 24, 3 intermediate,
// 8 very advanced, 5 otherwise (int32).
inline constexpr std::array<std::int32_t, kNumAchievements> kAchievementRewardMap = [] {
  std::array<std::int32_t, kNumAchievements> m{};
  for (int i = 0; i < kNumAchievements; ++i) m[static_cast<std::size_t>(i)] = i <= 24 ? 1 : 5;
  for (const int a : {kCollectSapphire, kCollectRuby, kMakeDiamondPickaxeAch, kMakeDiamondSwordAch, kMakeIronArmourAch,
                      kMakeDiamondArmourAch, kEnterGnomishMines, kEnterDungeon, kDefeatGnomeWarrior, kDefeatGnomeArcher,
                      kDefeatOrcSolider, kDefeatOrcMage, kEatBat, kEatSnail, kFindBow, kFireBow, kOpenChest,
                      kDrinkPotion}) {
    if (a > 24) m[static_cast<std::size_t>(a)] = 3;
  }
  for (const int a : {kEnterFireRealm, kEnterIceRealm, kEnterGraveyard, kDefeatPigman, kDefeatFireElemental,
                      kDefeatFrostTroll, kDefeatIceElemental, kDamageNecromancer, kDefeatNecromancer}) {
    m[static_cast<std::size_t>(a)] = 8;
  }
  return m;
}();

// LEVEL_ACHIEVEMENT_MAP (l.539-551): the achievement for entering a level
// (level 0 maps to 0, COLLECT_WOOD, as in craftax).
inline constexpr std::array<std::int32_t, kNumLevels> kLevelAchievementMap = {
    0,         kEnterDungeon,   kEnterGnomishMines, kEnterSewers,    kEnterVault,
    kEnterTrollMines, kEnterFireRealm, kEnterIceRealm, kEnterGraveyard,
};

// MOB_ACHIEVEMENT_MAP (l.553-590): [mob class (passive, melee, ranged)]
// [type_id] -> the achievement for killing (eating) it.
inline constexpr std::array<std::array<std::int32_t, kNumMobTypes>, 3> kMobAchievementMap = {{
    {kEatCow, kEatBat, kEatSnail, 0, 0, 0, 0, 0},
    {kDefeatZombie, kDefeatGnomeWarrior, kDefeatOrcSolider, kDefeatLizard, kDefeatKnight, kDefeatTroll, kDefeatPigman,
     kDefeatFrostTroll},
    {kDefeatSkeleton, kDefeatGnomeArcher, kDefeatOrcMage, kDefeatKobold, kDefeatArcher, kDefeatDeepThing,
     kDefeatFireElemental, kDefeatIceElemental},
}};

// state.map[level, x, y] (and item_map, mob_map, light_map) as JAX reads them.
inline std::int32_t map_at(const State& s, std::int32_t level, std::int32_t x, std::int32_t y) {
  return s.map[read_index(level, kNumLevels)][read_index(x, kMapSize)][read_index(y, kMapSize)];
}
inline std::int32_t item_at(const State& s, std::int32_t level, std::int32_t x, std::int32_t y) {
  return s.item_map[read_index(level, kNumLevels)][read_index(x, kMapSize)][read_index(y, kMapSize)];
}
inline bool mob_at(const State& s, std::int32_t level, std::int32_t x, std::int32_t y) {
  return s.mob_map[read_index(level, kNumLevels)][read_index(x, kMapSize)][read_index(y, kMapSize)];
}
inline float light_at(const State& s, std::int32_t level, std::int32_t x, std::int32_t y) {
  return s.light_map[read_index(level, kNumLevels)][read_index(x, kMapSize)][read_index(y, kMapSize)];
}

// maps.at[level, x, y].set(v) as JAX writes it (dropped when any index is off).
template <typename T>
inline void set_at(LevelMaps<T>& m, std::int32_t level, std::int32_t x, std::int32_t y, T v) {
  const int l = write_index(level, kNumLevels);
  const int i = write_index(x, kMapSize);
  const int j = write_index(y, kMapSize);
  if (l >= 0 && i >= 0 && j >= 0) m[l][i][j] = v;
}
inline void set_map(State& s, std::int32_t level, std::int32_t x, std::int32_t y, std::int32_t v) {
  set_at(s.map, level, x, y, v);
}
inline void set_item(State& s, std::int32_t level, std::int32_t x, std::int32_t y, std::int32_t v) {
  set_at(s.item_map, level, x, y, v);
}
inline void set_mob(State& s, std::int32_t level, std::int32_t x, std::int32_t y, bool v) {
  set_at(s.mob_map, level, x, y, v);
}
inline void set_light(State& s, std::int32_t level, std::int32_t x, std::int32_t y, float v) {
  set_at(s.light_map, level, x, y, v);
}

// The current level's map at a position (state.map[state.player_level][x, y]).
inline std::int32_t block_at(const State& s, std::int32_t x, std::int32_t y) { return map_at(s, s.player_level, x, y); }

}  // namespace rlpool::craftax::full
