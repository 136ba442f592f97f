// Full Craftax's player actions on the block in front: craftax 1.6.1
// craftax/craftax/game_logic.py update_plants_with_eat (l.12-23),
// add_items_from_chest (l.25-165), do_action (l.167-517), do_crafting
// (l.520-793), add_new_growing_plant (l.796-825) and place_block
// (l.828-1088). The shared rules (attack_mob, is_near_block, the block
// tables, JAX's off-map indexing) are full_utils.h / full_rules.h.
//
// Each function does what craftax's jitted code computes, selects included:
// craftax computes every effect and then keeps or drops it with
// jax.lax.select, which is written here as the corresponding condition.
// do_action changes nothing unless the action is DO; its block effects
// (mining, drinking, eating, chest loot, achievements) are kept only when the
// block in front is on the map and no mob was attacked, but the chest's
// chests_opened flag and the necromancer's boss progress are not: they follow
// the block as JAX reads it (one step off the map reads a wrapped or clamped
// position) even then. place_block's effects are kept only when the block in
// front is on the map and holds neither a mob nor the player.
//
// jax.random draws: do_action splits its key for the sapling's uniform and
// again for the chest, whose loot takes 14 draws in craftax's order; a draw
// whose result craftax drops is not made (do_action's key is not passed on).
// Float32: the torch's light (TORCH_LIGHT_MAP + light, clipped, then
// light * placing + old * (1 - placing)) is computed as XLA does, also when
// nothing is placed (that rewrites -0 as +0 and flushes denormals in the 9 x 9
// window in front of the player).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "_core/env/jax_random.h"
#include "envs/craftax/full_game.h"
#include "envs/craftax/full_rules.h"
#include "envs/craftax/full_state.h"
#include "envs/craftax/full_utils.h"

namespace rlpool::craftax::full {

namespace {

// rng, _rng = jax.random.split(rng): returns _rng and advances rng.
Key split_off(Key& rng) {
  const auto [next, sub] = jax_random::split2(rng);
  rng = next;
  return sub;
}

// jax.random.choice(key, values, shape=(), p=p) with float32 p: the index.
template <std::size_t N>
std::int32_t choice_index(Key key, const std::array<float, N>& p) {
  std::int32_t index = 0;
  jax_random::choice_p(key, &index, 1, p.data(), N);
  return index;
}

// The block in front of the player: player_position + DIRECTIONS[direction].
Position front_position(const State& s) {
  const auto& d = direction(s.player_direction);
  return {s.player_position[0] + d[0], s.player_position[1] + d[1]};
}

// update_plants_with_eat(state, plant_position, static_params): the first
// growing plant slot at that position (slot 0 when none), whatever its mask,
// restarts at age 0.
void update_plants_with_eat(State& s, const Position& p) {
  std::size_t index = 0;
  for (std::size_t i = 0; i < kMaxGrowingPlants; ++i) {
    if (s.growing_plants_positions[i][0] == p[0] && s.growing_plants_positions[i][1] == p[1]) {
      index = i;
      break;
    }
  }
  s.growing_plants_age[index] = 0;
}

// add_items_from_chest(rng, state, inventory, True): the loot of an opened
// chest added to `inv`. `was_opened` is chests_opened[player_level] before
// this chest (the bow on level 1 and the book on levels 3 and 4 come only
// from a level's first chest).
void add_items_from_chest(Key rng, const State& s, bool was_opened, Inventory& inv) {
  // Torches (60%): 4-7.
  const bool looting_torch = jax_random::uniform1(split_off(rng)) < 0.6f;
  const std::int32_t torch_amount = jax_random::randint1(split_off(rng), 4, 8) * static_cast<std::int32_t>(looting_torch);

  // Ores (60%): one of coal, iron, diamond, sapphire, ruby, the amounts
  // drawn from one key.
  const bool looting_ore = jax_random::uniform1(split_off(rng)) < 0.6f;
  const std::int32_t ore = choice_index(split_off(rng), std::array<float, 5>{0.3f, 0.3f, 0.15f, 0.125f, 0.125f});
  const Key ore_key = split_off(rng);
  const auto ore_amount = [&](int id, std::int32_t maxval) {
    return ore == id && looting_ore ? jax_random::randint1(ore_key, 1, maxval) : 0;
  };
  const std::int32_t coal_amount = ore_amount(0, 4);
  const std::int32_t iron_amount = ore_amount(1, 3);
  const std::int32_t diamond_amount = ore_amount(2, 2);
  const std::int32_t sapphire_amount = ore_amount(3, 2);
  const std::int32_t ruby_amount = ore_amount(4, 2);

  // A potion (50%): 1-2 of one of the six.
  const bool looting_potion = jax_random::uniform1(split_off(rng)) < 0.5f;
  const std::int32_t potion_index = jax_random::randint1(split_off(rng), 0, 6);
  const std::int32_t potion_amount = jax_random::randint1(split_off(rng), 1, 3);

  // Arrows (25%): 1-4.
  const bool looting_arrows = jax_random::uniform1(split_off(rng)) < 0.25f;
  const std::int32_t arrows_amount =
      jax_random::randint1(split_off(rng), 1, 5) * static_cast<std::int32_t>(looting_arrows);

  // A tool (20%): a pickaxe or a sword of level 1-4, kept if better.
  const bool looting_tool = jax_random::uniform1(split_off(rng)) < 0.2f;
  const std::int32_t tool_id = jax_random::randint1(split_off(rng), 0, 2);
  constexpr std::array<float, 4> kToolLevelP = {0.4f, 0.3f, 0.2f, 0.1f};
  const std::int32_t pickaxe_level = choice_index(split_off(rng), kToolLevelP) + 1;
  const std::int32_t sword_level = choice_index(split_off(rng), kToolLevelP) + 1;
  if (looting_tool && tool_id == 0) inv.pickaxe = std::max(pickaxe_level, inv.pickaxe);
  if (looting_tool && tool_id == 1) inv.sword = std::max(sword_level, inv.sword);

  // The special first chests: a bow on level 1, a book on levels 3 and 4.
  if (s.player_level == 1 && !was_opened) inv.bow = 1;
  const std::int32_t book = !was_opened && (s.player_level == 3 || s.player_level == 4) ? 1 : 0;

  inv.torches += torch_amount;
  inv.coal += coal_amount;
  inv.iron += iron_amount;
  inv.diamond += diamond_amount;
  inv.sapphire += sapphire_amount;
  inv.ruby += ruby_amount;
  inv.arrows += arrows_amount;
  auto& potion = inv.potions[static_cast<std::size_t>(potion_index)];
  potion += potion_amount * static_cast<std::int32_t>(looting_potion);
  inv.books += book;
}

// add_new_growing_plant(state, position, True, static_params): the first
// free slot, if any, gets the plant at age 0.
void add_new_growing_plant(State& s, const Position& p) {
  for (std::size_t i = 0; i < kMaxGrowingPlants; ++i) {
    if (!s.growing_plants_mask[i]) {
      s.growing_plants_positions[i] = p;
      s.growing_plants_age[i] = 0;
      s.growing_plants_mask[i] = true;
      return;
    }
  }
}

// place_block's light update around an on-map position p of the player's
// level: the 9 x 9 window centred on p (its cells on the map) becomes
// clip(TORCH_LIGHT_MAP + light, 0, 1) * placing + light * (1 - placing).
void update_torch_light(State& s, const Position& p, bool placing) {
  const auto& torch = torch_light_map();
  auto& light = s.light_map[static_cast<std::size_t>(s.player_level)];
  for (int i = 0; i < 9; ++i) {
    const int x = p[0] - 4 + i;
    if (x < 0 || x >= kMapSize) continue;
    for (int j = 0; j < 9; ++j) {
      const int y = p[1] - 4 + j;
      if (y < 0 || y >= kMapSize) continue;
      float& cell = light[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)];
      const float old = jax_random::detail::ftz(cell);
      const float sum = jax_random::detail::ftz(torch[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] + old);
      const float lit = std::min(jax_random::detail::xla_max(sum, 0.0f), 1.0f);
      // x * 1 + y * 0 or x * 0 + y * 1 (both terms are exact).
      cell = placing ? lit + old * 0.0f : lit * 0.0f + old;
    }
  }
}

}  // namespace

void do_action(Key rng, State& s, std::int32_t action) {
  if (action != kDo) return;
  const Position p = front_position(s);
  const AttackResult attack = attack_mob(s, p, get_player_damage_vector(s), true);

  const std::int32_t level = s.player_level;
  const std::int32_t block = block_at(s, p[0], p[1]);
  const bool was_opened = s.chests_opened[static_cast<std::size_t>(read_index(level, kNumLevels))];

  // Kept whatever the position and attack: the chest flag and the boss.
  if (block == kChest && write_index(level, kNumLevels) >= 0) {
    s.chests_opened[static_cast<std::size_t>(write_index(level, kNumLevels))] = true;
  }
  const bool damaging_boss = block == kNecromancer && is_boss_vulnerable(s) && is_fighting_boss(s);
  if (damaging_boss) {
    s.boss_progress += 1;
    s.boss_timesteps_to_spawn_this_round = kBossFightSpawnTurns;
  }

  // Block effects: kept only on the map and when no mob was attacked; then
  // every read and write is at p.
  if (!in_bounds(p) || attack.did_attack_mob) return;
  std::int32_t& cell = s.map[static_cast<std::size_t>(level)][static_cast<std::size_t>(p[0])][static_cast<std::size_t>(p[1])];
  Inventory& inv = s.inventory;
  auto& ach = s.achievements;
  const auto mine = [&](bool can_mine, std::int32_t replacement, std::int32_t& count) {
    if (!can_mine) return;
    cell = replacement;
    count += 1;
  };
  // The two splits: rng -> (rng, sapling key) -> (rng, chest key).
  const Key sapling_key = split_off(rng);
  switch (block) {
    case kTree:
      mine(true, kGrass, inv.wood);
      break;
    case kFireTree:
      mine(true, kFireGrass, inv.wood);
      break;
    case kIceShrub:
      mine(true, kIceGrass, inv.wood);
      break;
    case kStone:
    case kStalagmite:
      mine(inv.pickaxe >= 1, kPath, inv.stone);
      break;
    case kFurnace:
    case kCraftingTable:
      cell = kPath;
      break;
    case kCoal:
      mine(inv.pickaxe >= 1, kPath, inv.coal);
      break;
    case kIron:
      mine(inv.pickaxe >= 2, kPath, inv.iron);
      break;
    case kDiamond:
      mine(inv.pickaxe >= 3, kPath, inv.diamond);
      break;
    case kSapphire:
      mine(inv.pickaxe >= 4, kPath, inv.sapphire);
      break;
    case kRuby:
      mine(inv.pickaxe >= 4, kPath, inv.ruby);
      break;
    case kGrass:
      if (jax_random::uniform1(sapling_key) < 0.1f) inv.sapling += 1;
      break;
    case kWater:
    case kFountain:
      s.player_drink = std::min(get_max_drink(s), s.player_drink + 1);
      s.player_thirst = 0.0f;
      ach[kCollectDrink] = true;
      break;
    case kRipePlant:
      cell = kPlant;
      s.player_food = std::min(get_max_food(s), s.player_food + 4);
      s.player_hunger = 0.0f;
      ach[kEatPlant] = true;
      update_plants_with_eat(s, p);
      break;
    case kChest:
      cell = kPath;
      add_items_from_chest(split_off(rng), s, was_opened, inv);
      ach[kOpenChest] = true;
      break;
    case kNecromancer:
      if (damaging_boss) ach[kDamageNecromancer] = true;
      break;
    default:
      break;
  }
}

void do_crafting(State& s, std::int32_t action) {
  switch (action) {
    case kMakeWoodPickaxe:
    case kMakeStonePickaxe:
    case kMakeIronPickaxe:
    case kMakeDiamondPickaxe:
    case kMakeWoodSword:
    case kMakeStoneSword:
    case kMakeIronSword:
    case kMakeDiamondSword:
    case kMakeIronArmour:
    case kMakeDiamondArmour:
    case kMakeArrow:
    case kMakeTorch:
      break;
    default:
      return;
  }
  const bool at_table = is_near_block(s, kCraftingTable);
  const bool at_furnace = is_near_block(s, kFurnace);
  Inventory& inv = s.inventory;
  auto& ach = s.achievements;
  // The first armour slot below `level`, or -1 when none is.
  const auto armour_slot = [&](std::int32_t level) {
    for (std::size_t i = 0; i < inv.armour.size(); ++i) {
      if (inv.armour[i] < level) return static_cast<int>(i);
    }
    return -1;
  };
  switch (action) {
    case kMakeWoodPickaxe:
      if (inv.wood >= 1 && at_table && inv.pickaxe < 1) {
        inv.wood -= 1;
        inv.pickaxe = 1;
      }
      break;
    case kMakeStonePickaxe:
      if (inv.wood >= 1 && inv.stone >= 1 && at_table && inv.pickaxe < 2) {
        inv.stone -= 1;
        inv.wood -= 1;
        inv.pickaxe = 2;
      }
      break;
    case kMakeIronPickaxe:
      if (inv.wood >= 1 && inv.stone >= 1 && inv.iron >= 1 && inv.coal >= 1 && at_furnace && at_table &&
          inv.pickaxe < 3) {
        inv.iron -= 1;
        inv.wood -= 1;
        inv.stone -= 1;
        inv.coal -= 1;
        inv.pickaxe = 3;
      }
      break;
    case kMakeDiamondPickaxe:
      if (inv.wood >= 1 && inv.diamond >= 3 && at_table && inv.pickaxe < 4) {
        inv.diamond -= 3;
        inv.wood -= 1;
        inv.pickaxe = 4;
      }
      break;
    case kMakeWoodSword:
      if (inv.wood >= 1 && at_table && inv.sword < 1) {
        inv.wood -= 1;
        inv.sword = 1;
      }
      break;
    case kMakeStoneSword:
      if (inv.stone >= 1 && inv.wood >= 1 && at_table && inv.sword < 2) {
        inv.wood -= 1;
        inv.stone -= 1;
        inv.sword = 2;
      }
      break;
    case kMakeIronSword:
      if (inv.iron >= 1 && inv.wood >= 1 && inv.stone >= 1 && inv.coal >= 1 && at_furnace && at_table &&
          inv.sword < 3) {
        inv.wood -= 1;
        inv.iron -= 1;
        inv.stone -= 1;
        inv.coal -= 1;
        inv.sword = 3;
      }
      break;
    case kMakeDiamondSword:
      if (inv.diamond >= 2 && inv.wood >= 1 && at_table && inv.sword < 4) {
        inv.wood -= 1;
        inv.diamond -= 2;
        inv.sword = 4;
      }
      break;
    case kMakeIronArmour: {
      const int slot = armour_slot(1);
      if (slot >= 0 && inv.iron >= 3 && inv.coal >= 3 && at_table && at_furnace) {
        inv.iron -= 3;
        inv.coal -= 3;
        inv.armour[static_cast<std::size_t>(slot)] = 1;
        ach[kMakeIronArmourAch] = true;
      }
      break;
    }
    case kMakeDiamondArmour: {
      const int slot = armour_slot(2);
      if (slot >= 0 && inv.diamond >= 3 && at_table) {
        inv.diamond -= 3;
        inv.armour[static_cast<std::size_t>(slot)] = 2;
        ach[kMakeDiamondArmourAch] = true;
      }
      break;
    }
    case kMakeArrow:
      if (inv.stone >= 1 && inv.wood >= 1 && at_table && inv.arrows < 99) {
        inv.wood -= 1;
        inv.stone -= 1;
        inv.arrows += 2;
      }
      break;
    case kMakeTorch:
      if (inv.coal >= 1 && inv.wood >= 1 && at_table && inv.torches < 99) {
        inv.wood -= 1;
        inv.coal -= 1;
        inv.torches += 4;
      }
      break;
    default:
      break;
  }
}

void place_block(State& s, std::int32_t action) {
  const Position p = front_position(s);
  if (!in_bounds(p) || is_in_mob(s, p)) return;
  const auto level = static_cast<std::size_t>(s.player_level);
  const auto x = static_cast<std::size_t>(p[0]);
  const auto y = static_cast<std::size_t>(p[1]);
  std::int32_t& cell = s.map[level][x][y];
  std::int32_t& item = s.item_map[level][x][y];
  Inventory& inv = s.inventory;
  auto& ach = s.achievements;
  const bool blocked = is_solid(cell) || item != kItemNone;
  bool placing_torch = false;
  switch (action) {
    case kPlaceTable:
      if (!blocked && inv.wood >= 2) {
        cell = kCraftingTable;
        inv.wood -= 2;
        ach[kPlaceTableAch] = true;
      }
      break;
    case kPlaceFurnace:
      if (!blocked && inv.stone > 0) {
        cell = kFurnace;
        inv.stone -= 1;
        ach[kPlaceFurnaceAch] = true;
      }
      break;
    case kPlaceStone:
      if ((cell == kWater || !blocked) && inv.stone > 0) {
        cell = kStone;
        inv.stone -= 1;
        ach[kPlaceStoneAch] = true;
      }
      break;
    case kPlaceTorch:
      if (can_place_item(cell) && item == kItemNone && inv.torches > 0) {
        placing_torch = true;
        item = kItemTorch;
        inv.torches -= 1;
        ach[kPlaceTorchAch] = true;
      }
      break;
    case kPlacePlant:
      if (cell == kGrass && inv.sapling > 0 && item == kItemNone) {
        cell = kPlant;
        inv.sapling -= 1;
        ach[kPlacePlantAch] = true;
        add_new_growing_plant(s, p);
      }
      break;
    default:
      break;
  }
  update_torch_light(s, p, placing_torch);
}

}  // namespace rlpool::craftax::full
