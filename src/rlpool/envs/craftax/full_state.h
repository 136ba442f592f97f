// Full Craftax's game state, parameters, enums and world generation configs,
// as craftax 1.6.1 defines them (craftax/craftax/craftax_state.py: EnvState,
// Inventory, Mobs, EnvParams, StaticEnvParams; craftax/constants.py: BlockType,
// ItemType, MobType, Achievement l.27-139 and l.410-487;
// craftax/world_gen/world_gen_configs.py: SmoothGenConfig x 6 and
// DungeonConfig x 3).
//
// Field order, names, shapes and dtypes are craftax's, so that a state is the
// concatenation of jax.tree_util.tree_leaves(EnvState) as raw little-endian
// bytes (bools as one byte). Maps are indexed [level][x][y] (craftax's
// map[level, x, y]).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "_core/env/jax_random.h"

namespace rlpool::craftax::full {

using jax_random::Key;

constexpr int kMapSize = 48;  // StaticEnvParams.map_size (square)
constexpr int kNumLevels = 9;
constexpr int kMaxMeleeMobs = 3;
constexpr int kMaxPassiveMobs = 3;
constexpr int kMaxGrowingPlants = 10;
constexpr int kMaxRangedMobs = 2;
constexpr int kMaxMobProjectiles = 3;
constexpr int kMaxPlayerProjectiles = 3;
constexpr int kNumBlockTypes = 37;
constexpr int kNumItemTypes = 5;
constexpr int kNumActions = 43;
constexpr int kNumAchievements = 67;
constexpr std::int32_t kBossFightSpawnTurns = 7;  // BOSS_FIGHT_SPAWN_TURNS

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
  kWall = 17,
  kDarkness = 18,
  kWallMoss = 19,
  kStalagmite = 20,
  kSapphire = 21,
  kRuby = 22,
  kChest = 23,
  kFountain = 24,
  kFireGrass = 25,
  kIceGrass = 26,
  kGravel = 27,
  kFireTree = 28,
  kIceShrub = 29,
  kEnchantmentTableFire = 30,
  kEnchantmentTableIce = 31,
  kNecromancer = 32,
  kGrave = 33,
  kGrave2 = 34,
  kGrave3 = 35,
  kNecromancerVulnerable = 36,
};

enum Item : std::int32_t {
  kItemNone = 0,
  kItemTorch = 1,
  kItemLadderDown = 2,
  kItemLadderUp = 3,
  kItemLadderDownBlocked = 4,
};

enum MobType : std::int32_t {
  kMobPassive = 0,
  kMobMelee = 1,
  kMobRanged = 2,
  kMobProjectile = 3,
};

// Action values used by the state (player_direction is LEFT..DOWN).
enum Action : std::int32_t {
  kNoop = 0,
  kLeft = 1,
  kRight = 2,
  kUp = 3,
  kDown = 4,
};

// Achievement values (craftax's enum is declared out of value order; these
// are its values).
enum Achievement : int {
  kCollectWood = 0, kPlaceTableAch = 1, kEatCow = 2, kCollectSapling = 3, kCollectDrink = 4,
  kMakeWoodPickaxeAch = 5, kMakeWoodSwordAch = 6, kPlacePlantAch = 7, kDefeatZombie = 8, kCollectStone = 9,
  kPlaceStoneAch = 10, kEatPlant = 11, kDefeatSkeleton = 12, kMakeStonePickaxeAch = 13, kMakeStoneSwordAch = 14,
  kWakeUp = 15, kPlaceFurnaceAch = 16, kCollectCoal = 17, kCollectIron = 18, kCollectDiamond = 19,
  kMakeIronPickaxeAch = 20, kMakeIronSwordAch = 21, kMakeArrowAch = 22, kMakeTorchAch = 23, kPlaceTorchAch = 24,
  kMakeDiamondSwordAch = 25, kMakeIronArmourAch = 26, kMakeDiamondArmourAch = 27, kEnterGnomishMines = 28,
  kEnterDungeon = 29, kEnterSewers = 30, kEnterVault = 31, kEnterTrollMines = 32, kEnterFireRealm = 33,
  kEnterIceRealm = 34, kEnterGraveyard = 35, kDefeatGnomeWarrior = 36, kDefeatGnomeArcher = 37,
  kDefeatOrcSolider = 38, kDefeatOrcMage = 39, kDefeatLizard = 40, kDefeatKobold = 41, kDefeatTroll = 42,
  kDefeatDeepThing = 43, kDefeatPigman = 44, kDefeatFireElemental = 45, kDefeatFrostTroll = 46,
  kDefeatIceElemental = 47, kDamageNecromancer = 48, kDefeatNecromancer = 49, kEatBat = 50, kEatSnail = 51,
  kFindBow = 52, kFireBow = 53, kCollectSapphire = 54, kLearnFireball = 55, kCastFireballAch = 56,
  kLearnIceball = 57, kCastIceballAch = 58, kCollectRuby = 59, kMakeDiamondPickaxeAch = 60, kOpenChest = 61,
  kDrinkPotion = 62, kEnchantSwordAch = 63, kEnchantArmourAch = 64, kDefeatKnight = 65, kDefeatArcher = 66,
};

// craftax's Achievement names, lower case, indexed by value (info keys
// "Achievements/<name>").
inline constexpr std::array<std::string_view, kNumAchievements> kAchievementNames = {
    "collect_wood",         "place_table",         "eat_cow",              "collect_sapling",
    "collect_drink",        "make_wood_pickaxe",   "make_wood_sword",      "place_plant",
    "defeat_zombie",        "collect_stone",       "place_stone",          "eat_plant",
    "defeat_skeleton",      "make_stone_pickaxe",  "make_stone_sword",     "wake_up",
    "place_furnace",        "collect_coal",        "collect_iron",         "collect_diamond",
    "make_iron_pickaxe",    "make_iron_sword",     "make_arrow",           "make_torch",
    "place_torch",          "make_diamond_sword",  "make_iron_armour",     "make_diamond_armour",
    "enter_gnomish_mines",  "enter_dungeon",       "enter_sewers",         "enter_vault",
    "enter_troll_mines",    "enter_fire_realm",    "enter_ice_realm",      "enter_graveyard",
    "defeat_gnome_warrior", "defeat_gnome_archer", "defeat_orc_solider",   "defeat_orc_mage",
    "defeat_lizard",        "defeat_kobold",       "defeat_troll",         "defeat_deep_thing",
    "defeat_pigman",        "defeat_fire_elemental", "defeat_frost_troll", "defeat_ice_elemental",
    "damage_necromancer",   "defeat_necromancer",  "eat_bat",              "eat_snail",
    "find_bow",             "fire_bow",            "collect_sapphire",     "learn_fireball",
    "cast_fireball",        "learn_iceball",       "cast_iceball",         "collect_ruby",
    "make_diamond_pickaxe", "open_chest",          "drink_potion",         "enchant_sword",
    "enchant_armour",       "defeat_knight",       "defeat_archer",
};

// SmoothGenConfig (world_gen_configs.py l.9-35). The proximity strengths and
// maxima are kept as the values craftax stacks them into (int fields holding
// 1.5 become float32 arrays); all are exact in float32.
struct SmoothGenConfig {
  std::int32_t default_block;
  std::int32_t sea_block;
  std::int32_t coast_block;
  std::int32_t mountain_block;
  std::int32_t path_block;
  std::int32_t inner_mountain_block;
  std::array<std::int32_t, 5> ore_requirement_blocks;
  std::array<std::int32_t, 5> ores;
  std::array<float, 5> ore_chances;
  std::int32_t tree_requirement_block;
  std::int32_t tree;
  std::int32_t lava;
  std::int32_t player_spawn;
  std::int32_t valid_ladder;
  bool ladder_up;
  bool ladder_down;
  float player_proximity_map_water_strength;
  float player_proximity_map_water_max;
  float player_proximity_map_mountain_strength;
  float player_proximity_map_mountain_max;
  float default_light;
  float water_threshold;
  float sand_threshold;
  float tree_threshold_uniform;
  float tree_threshold_perlin;
};

// ALL_SMOOTHGEN_CONFIGS: OVERWORLD, GNOMISH_MINES, TROLL_MINES, FIRE_LEVEL,
// ICE_LEVEL, BOSS_LEVEL (l.37-259), in that order.
inline constexpr std::array<SmoothGenConfig, 6> kSmoothGenConfigs = {{
    {kGrass, kWater, kSand, kStone, kPath, kPath, {kStone, kStone, kStone, kStone, kStone},
     {kCoal, kIron, kDiamond, kOutOfBounds, kOutOfBounds}, {0.03f, 0.02f, 0.001f, 0.0f, 0.0f}, kGrass, kTree, kLava,
     kGrass, kPath, false, true, 5.0f, 1.0f, 5.0f, 1.0f, 1.0f, 0.7f, 0.6f, 0.8f, 0.5f},
    {kPath, kWater, kPath, kStone, kStone, kStone, {kStone, kStone, kStone, kStone, kStone},
     {kCoal, kIron, kDiamond, kSapphire, kRuby}, {0.04f, 0.02f, 0.005f, 0.0025f, 0.0025f}, kPath, kStalagmite, kLava,
     kPath, kPath, true, true, 5.0f, 1.0f, 17.0f, 1.5f, 0.0f, 0.7f, 0.6f, 0.8f, 0.5f},
    {kPath, kWater, kPath, kStone, kStone, kStone, {kStone, kStone, kStone, kStone, kStone},
     {kCoal, kIron, kDiamond, kSapphire, kRuby}, {0.04f, 0.03f, 0.01f, 0.01f, 0.01f}, kPath, kStalagmite, kLava,
     kPath, kPath, true, true, 5.0f, 1.0f, 17.0f, 1.5f, 0.0f, 0.7f, 0.6f, 0.8f, 0.5f},
    {kFireGrass, kLava, kSand, kStone, kStone, kStone, {kStone, kStone, kStone, kStone, kStone},
     {kCoal, kIron, kDiamond, kSapphire, kRuby}, {0.05f, 0.0f, 0.0f, 0.0f, 0.025f}, kFireGrass, kFireTree, kLava,
     kFireGrass, kFireGrass, true, true, 5.0f, 1.0f, 5.0f, 1.0f, 1.0f, 0.5f, 0.6f, 0.8f, 0.5f},
    {kIceGrass, kWater, kIceGrass, kStone, kStone, kStone, {kStone, kStone, kStone, kStone, kStone},
     {kCoal, kIron, kDiamond, kSapphire, kRuby}, {0.0f, 0.0f, 0.005f, 0.02f, 0.0f}, kIceGrass, kIceShrub, kWater,
     kIceGrass, kIceGrass, true, true, 5.0f, 1.0f, 17.0f, 1.5f, 0.0f, 0.5f, 0.6f, 0.4f, 0.5f},
    {kPath, kPath, kPath, kWall, kWall, kWall, {kWall, kGrave, kGrave, kWall, kWall},
     {kWallMoss, kGrave2, kGrave3, kSapphire, kRuby}, {0.1f, 0.333f, 0.5f, 0.0f, 0.0f}, kPath, kGrave, kWall,
     kNecromancer, kPath, false, false, 5.0f, 1.0f, 10.0f, 10.0f, 0.0f, 0.7f, 0.6f, 0.95f, -1.0f},
}};

// DungeonConfig (l.263-295): DUNGEON, SEWER, VAULTS.
struct DungeonConfig {
  std::int32_t special_block;
  std::int32_t fountain_block;
  std::int32_t rare_path_replacement_block;
};
inline constexpr std::array<DungeonConfig, 3> kDungeonConfigs = {{
    {kPath, kFountain, kPath},
    {kEnchantmentTableIce, kWater, kWater},
    {kEnchantmentTableFire, kFountain, kPath},
}};

// Levels of the smoothgen and dungeon floors (generate_world's stack order
// s0, d0, s1, d1, d2, s2, s3, s4, s5).
inline constexpr std::array<int, 6> kSmoothGenLevels = {0, 2, 5, 6, 7, 8};
inline constexpr std::array<int, 3> kDungeonLevels = {1, 3, 4};

struct Inventory {
  std::int32_t wood = 0;
  std::int32_t stone = 0;
  std::int32_t coal = 0;
  std::int32_t iron = 0;
  std::int32_t diamond = 0;
  std::int32_t sapling = 0;
  std::int32_t pickaxe = 0;
  std::int32_t sword = 0;
  std::int32_t bow = 0;
  std::int32_t arrows = 0;
  std::array<std::int32_t, 4> armour{};
  std::int32_t torches = 0;
  std::int32_t ruby = 0;
  std::int32_t sapphire = 0;
  std::array<std::int32_t, 6> potions{};
  std::int32_t books = 0;
};

// craftax's Mobs with N slots per level: position (9, N, 2), health (9, N)
// float32, mask (9, N), attack_cooldown (9, N), type_id (9, N).
template <int N>
struct Mobs {
  std::array<std::array<std::array<std::int32_t, 2>, N>, kNumLevels> position{};
  std::array<std::array<float, N>, kNumLevels> health{};
  std::array<std::array<bool, N>, kNumLevels> mask{};
  std::array<std::array<std::int32_t, N>, kNumLevels> attack_cooldown{};
  std::array<std::array<std::int32_t, N>, kNumLevels> type_id{};
};

template <typename T>
using LevelMaps = std::array<std::array<std::array<T, kMapSize>, kMapSize>, kNumLevels>;

struct State {
  LevelMaps<std::int32_t> map{};       // a Block
  LevelMaps<std::int32_t> item_map{};  // an Item
  LevelMaps<bool> mob_map{};
  LevelMaps<float> light_map{};
  std::array<std::array<std::int32_t, 2>, kNumLevels> down_ladders{};
  std::array<std::array<std::int32_t, 2>, kNumLevels> up_ladders{};
  std::array<bool, kNumLevels> chests_opened{};
  std::array<std::int32_t, kNumLevels> monsters_killed{};
  std::array<std::int32_t, 2> player_position{};
  std::int32_t player_level = 0;
  std::int32_t player_direction = 0;
  float player_health = 0.0f;
  std::int32_t player_food = 0;
  std::int32_t player_drink = 0;
  std::int32_t player_energy = 0;
  std::int32_t player_mana = 0;
  bool is_sleeping = false;
  bool is_resting = false;
  float player_recover = 0.0f;
  float player_hunger = 0.0f;
  float player_thirst = 0.0f;
  float player_fatigue = 0.0f;
  float player_recover_mana = 0.0f;
  std::int32_t player_xp = 0;
  std::int32_t player_dexterity = 0;
  std::int32_t player_strength = 0;
  std::int32_t player_intelligence = 0;
  Inventory inventory;
  Mobs<kMaxMeleeMobs> melee_mobs;
  Mobs<kMaxPassiveMobs> passive_mobs;
  Mobs<kMaxRangedMobs> ranged_mobs;
  Mobs<kMaxMobProjectiles> mob_projectiles;
  std::array<std::array<std::array<std::int32_t, 2>, kMaxMobProjectiles>, kNumLevels> mob_projectile_directions{};
  Mobs<kMaxPlayerProjectiles> player_projectiles;
  std::array<std::array<std::array<std::int32_t, 2>, kMaxPlayerProjectiles>, kNumLevels>
      player_projectile_directions{};
  std::array<std::array<std::int32_t, 2>, kMaxGrowingPlants> growing_plants_positions{};
  std::array<std::int32_t, kMaxGrowingPlants> growing_plants_age{};
  std::array<bool, kMaxGrowingPlants> growing_plants_mask{};
  std::array<std::int32_t, 6> potion_mapping{};
  std::array<bool, 2> learned_spells{};
  std::int32_t sword_enchantment = 0;
  std::int32_t bow_enchantment = 0;
  std::array<std::int32_t, 4> armour_enchantments{};
  std::int32_t boss_progress = 0;
  std::int32_t boss_timesteps_to_spawn_this_round = 0;
  float light_level = 0.0f;
  std::array<bool, kNumAchievements> achievements{};
  Key state_rng{};
  std::int32_t timestep = 0;
};

// EnvParams (the options; defaults are craftax's).
struct Params {
  std::int32_t max_timesteps = 100000;
  std::int32_t day_length = 300;
  bool always_diamond = false;
  std::int32_t mob_despawn_distance = 14;
  std::int32_t max_attribute = 5;
  bool god_mode = false;
};

// world_gen.py generate_world(rng, params, static_params) (full_worldgen.cc):
// the initial state of an episode. The envs' reset_env first splits its key
// and passes the second half.
State generate_world(Key rng, const Params& params);

}  // namespace rlpool::craftax::full
