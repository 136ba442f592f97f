// Craftax-Classic's step: the game logic of one environment step, ported from
// craftax 1.6.1's craftax_classic/game_logic.py: craftax_step (l.1655-1710)
// and the functions it calls that live here, do_action (l.69-383),
// is_near_block and do_crafting (l.385-547), add_new_growing_plant and
// place_block (l.549-746), update_player_intrinsics (l.1237-1333),
// update_plants (l.1335-1372), move_player (l.1374-1398), cap_inventory and
// update_health (l.1632-1652), get_player_attack_damage and
// update_plants_with_eat (l.43-66), calculate_light_level (l.581-583) and
// is_game_over (l.5-13). update_mobs and spawn_mobs are classic_mobs.cc's.
//
// Each function does what craftax's jitted code computes, selects included:
// craftax computes an effect and then keeps or drops it with jax.lax.select
// (e.g. do_action's effects are dropped unless the action is DO, and block
// effects are dropped when the block in front is off the map), which is
// written here as the corresponding condition. Positions one step off the map
// are read and written as JAX does (classic_rules.h). Float32 arithmetic
// follows XLA's: the reward's multiply-add and the light level's cube are
// fused multiply-adds, everything else plain float32 operations in craftax's
// order.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "_core/env/jax_random.h"
#include "envs/craftax/classic_game.h"
#include "envs/craftax/classic_rules.h"
#include "envs/craftax/classic_state.h"

namespace rlpool::craftax::classic {

namespace {

// get_player_attack_damage(state).
std::int32_t player_attack_damage(const State& s) {
  return std::max({1, 2 * s.inventory.wood_sword, 3 * s.inventory.stone_sword, 5 * s.inventory.iron_sword});
}

// The attack part of do_action for one mob kind: the first live mob standing
// on (x, y) loses the player's damage; then every slot's mask becomes
// health > 0 (as craftax recomputes it). Returns whether a mob was attacked;
// *killed is craftax's did_kill (the targeted slot, slot 0 when none, went
// from live to dead).
template <int N>
bool attack_mobs(Mobs<N>& mobs, std::int32_t x, std::int32_t y, std::int32_t damage, bool* killed) {
  int target = 0;
  bool attacking = false;
  for (int i = 0; i < N; ++i) {
    if (mobs.position[i][0] == x && mobs.position[i][1] == y && mobs.mask[i]) {
      target = i;
      attacking = true;
      break;
    }
  }
  mobs.health[target] += -damage * static_cast<std::int32_t>(attacking);
  const bool old_mask = mobs.mask[target];
  for (int i = 0; i < N; ++i) mobs.mask[i] = mobs.health[i] > 0;
  *killed = old_mask && !mobs.mask[target];
  return attacking;
}

// do_action(rng, state, action, static_params): attacking, mining, collecting
// a sapling, drinking, eating a ripe plant. Nothing changes unless the
// action is DO.
void do_action(Key rng, State& s, std::int32_t action) {
  if (action != kDo) return;
  const auto& dir = direction(s.player_direction);
  const std::int32_t bx = s.player_position[0] + dir[0];
  const std::int32_t by = s.player_position[1] + dir[1];

  // Mobs: zombies, then cows, then skeletons, each with the damage of the
  // state as it is then (the inventory does not change in between).
  bool killed_zombie = false;
  const bool attacking_zombie = attack_mobs(s.zombies, bx, by, player_attack_damage(s), &killed_zombie);
  s.achievements[kDefeatZombie] = s.achievements[kDefeatZombie] || killed_zombie;

  bool killed_cow = false;
  const bool attacking_cow = attack_mobs(s.cows, bx, by, player_attack_damage(s), &killed_cow);
  s.achievements[kEatCow] = s.achievements[kEatCow] || killed_cow;
  if (killed_cow) {
    s.player_food = std::min(9, s.player_food + 6);
    s.player_hunger = 0.0f;
  }

  bool killed_skeleton = false;
  const bool attacking_skeleton = attack_mobs(s.skeletons, bx, by, player_attack_damage(s), &killed_skeleton);
  s.achievements[kDefeatSkeleton] = s.achievements[kDefeatSkeleton] || killed_skeleton;

  const bool attacked_mob = attacking_zombie || attacking_cow || attacking_skeleton;
  const bool killed_mob = killed_zombie || killed_cow || killed_skeleton;
  set_mob(s, bx, by, mob_at(s, bx, by) && !killed_mob);

  // Blocks: kept only when the block in front is on the map and no mob was
  // attacked; then the writes and reads below are all at (bx, by).
  if (!in_bounds(bx, by) || attacked_mob) return;
  std::int32_t& cell = s.map[bx][by];
  const std::int32_t block = cell;
  Inventory& inv = s.inventory;
  auto& ach = s.achievements;
  switch (block) {
    case kTree:
      cell = kGrass;
      inv.wood += 1;
      ach[kCollectWood] = true;
      break;
    case kStone:
      if (inv.wood_pickaxe != 0) {
        cell = kPath;
        inv.stone += 1;
        ach[kCollectStone] = true;
      }
      break;
    case kCoal:
      if (inv.wood_pickaxe != 0) {
        cell = kPath;
        inv.coal += 1;
        ach[kCollectCoal] = true;
      }
      break;
    case kIron:
      if (inv.stone_pickaxe != 0) {
        cell = kPath;
        inv.iron += 1;
        ach[kCollectIron] = true;
      }
      break;
    case kDiamond:
      if (inv.iron_pickaxe != 0) {
        cell = kPath;
        inv.diamond += 1;
        ach[kCollectDiamond] = true;
      }
      break;
    case kGrass: {
      // rng, _rng = split(rng); uniform(_rng) < 0.1: only its outcome on
      // grass is ever kept, so it is drawn only there.
      const auto [next, sub] = jax_random::split2(rng);
      (void)next;
      if (jax_random::uniform1(sub) < 0.1f) {
        inv.sapling += 1;
        ach[kCollectSapling] = true;
      }
      break;
    }
    case kWater:
      s.player_drink = std::min(9, s.player_drink + 1);
      s.player_thirst = 0.0f;
      ach[kCollectDrink] = true;
      break;
    case kRipePlant: {
      cell = kPlant;
      s.player_food = std::min(9, s.player_food + 4);
      s.player_hunger = 0.0f;
      ach[kEatPlant] = true;
      // update_plants_with_eat: the first slot at this position (slot 0 when
      // none), whatever its mask, restarts.
      int index = 0;
      for (int i = 0; i < kMaxGrowingPlants; ++i) {
        if (s.growing_plants_positions[i][0] == bx && s.growing_plants_positions[i][1] == by) {
          index = i;
          break;
        }
      }
      s.growing_plants_age[index] = 0;
      break;
    }
    default:
      break;
  }
}

// is_near_block(state, block_type): one of the 8 neighbours on the map is it.
bool is_near_block(const State& s, std::int32_t block) {
  for (const auto& d : kCloseBlocks) {
    const std::int32_t x = s.player_position[0] + d[0];
    const std::int32_t y = s.player_position[1] + d[1];
    if (in_bounds(x, y) && map_at(s, x, y) == block) return true;
  }
  return false;
}

// do_crafting(state, action): the six tools, in craftax's order.
void do_crafting(State& s, std::int32_t action) {
  if (action < kMakeWoodPickaxe || action > kMakeIronSword) return;
  const bool at_table = is_near_block(s, kCraftingTable);
  const bool at_furnace = is_near_block(s, kFurnace);
  Inventory& inv = s.inventory;
  auto& ach = s.achievements;
  switch (action) {
    case kMakeWoodPickaxe:
      if (inv.wood >= 1 && at_table) {
        inv.wood -= 1;
        inv.wood_pickaxe += 1;
        ach[kMakeWoodPickaxeAch] = true;
      }
      break;
    case kMakeStonePickaxe:
      if (inv.wood >= 1 && inv.stone >= 1 && at_table) {
        inv.stone -= 1;
        inv.wood -= 1;
        inv.stone_pickaxe += 1;
        ach[kMakeStonePickaxeAch] = true;
      }
      break;
    case kMakeIronPickaxe:
      if (inv.wood >= 1 && inv.stone >= 1 && inv.iron >= 1 && inv.coal >= 1 && at_furnace && at_table) {
        inv.iron -= 1;
        inv.wood -= 1;
        inv.stone -= 1;
        inv.coal -= 1;
        inv.iron_pickaxe += 1;
        ach[kMakeIronPickaxeAch] = true;
      }
      break;
    case kMakeWoodSword:
      if (inv.wood >= 1 && at_table) {
        inv.wood -= 1;
        inv.wood_sword += 1;
        ach[kMakeWoodSwordAch] = true;
      }
      break;
    case kMakeStoneSword:
      if (inv.stone >= 1 && inv.wood >= 1 && at_table) {
        inv.wood -= 1;
        inv.stone -= 1;
        inv.stone_sword += 1;
        ach[kMakeStoneSwordAch] = true;
      }
      break;
    case kMakeIronSword:
      if (inv.iron >= 1 && inv.wood >= 1 && inv.stone >= 1 && inv.coal >= 1 && at_furnace && at_table) {
        inv.wood -= 1;
        inv.iron -= 1;
        inv.stone -= 1;
        inv.coal -= 1;
        inv.iron_sword += 1;
        ach[kMakeIronSwordAch] = true;
      }
      break;
    default:
      break;
  }
}

// add_new_growing_plant(state, position, True, static_params): the first
// free slot, if any, gets the plant at age 0.
void add_new_growing_plant(State& s, std::int32_t x, std::int32_t y) {
  for (int i = 0; i < kMaxGrowingPlants; ++i) {
    if (!s.growing_plants_mask[i]) {
      s.growing_plants_positions[i] = {x, y};
      s.growing_plants_age[i] = 0;
      s.growing_plants_mask[i] = true;
      return;
    }
  }
}

// place_block(state, action, static_params): table, furnace, stone, sapling
// on the block in front, kept only when that block is on the map and holds
// neither a mob nor the player.
void place_block(State& s, std::int32_t action) {
  if (action < kPlaceStone || action > kPlacePlant) return;
  const auto& dir = direction(s.player_direction);
  const std::int32_t x = s.player_position[0] + dir[0];
  const std::int32_t y = s.player_position[1] + dir[1];
  if (!in_bounds(x, y) || is_in_mob(s, x, y)) return;
  std::int32_t& cell = s.map[x][y];
  Inventory& inv = s.inventory;
  auto& ach = s.achievements;
  switch (action) {
    case kPlaceTable:
      if (!is_solid(cell) && inv.wood >= 2) {
        cell = kCraftingTable;
        inv.wood -= 2;
        ach[kPlaceTableAch] = true;
      }
      break;
    case kPlaceFurnace:
      if (!is_solid(cell) && inv.stone > 0) {
        cell = kFurnace;
        inv.stone -= 1;
        ach[kPlaceFurnaceAch] = true;
      }
      break;
    case kPlaceStone:
      if ((cell == kWater || !is_solid(cell)) && inv.stone > 0) {
        cell = kStone;
        inv.stone -= 1;
        ach[kPlaceStoneAch] = true;
      }
      break;
    case kPlacePlant:
      if (cell == kGrass && inv.sapling > 0) {
        cell = kPlant;
        inv.sapling -= 1;
        ach[kPlacePlantAch] = true;
        add_new_growing_plant(s, x, y);
      }
      break;
    default:
      break;
  }
}

// move_player(state, action): a move onto a free block or onto lava; any
// action with a direction turns the player.
void move_player(State& s, std::int32_t action) {
  const auto& dir = direction(action);
  const std::int32_t x = s.player_position[0] + dir[0];
  const std::int32_t y = s.player_position[1] + dir[1];
  const bool valid = is_free(s, x, y) || map_at(s, x, y) == kLava;
  const std::int32_t v = static_cast<std::int32_t>(valid);
  s.player_position[0] += v * dir[0];
  s.player_position[1] += v * dir[1];
  const std::int32_t turn = static_cast<std::int32_t>(std::abs(dir[0]) + std::abs(dir[1]) != 0);
  s.player_direction = s.player_direction * (1 - turn) + action * turn;
}

// update_plants(state, static_params): every plant ages (free slots reset to
// 0); one at age 600 or more turns its block ripe, slot by slot.
void update_plants(State& s) {
  for (int i = 0; i < kMaxGrowingPlants; ++i) {
    s.growing_plants_age[i] = (s.growing_plants_age[i] + 1) * static_cast<std::int32_t>(s.growing_plants_mask[i]);
  }
  for (int i = 0; i < kMaxGrowingPlants; ++i) {
    if (s.growing_plants_age[i] >= 600) {
      set_map(s, s.growing_plants_positions[i][0], s.growing_plants_positions[i][1], kRipePlant);
    }
  }
}

// update_player_intrinsics(state, action): sleep, hunger, thirst, fatigue and
// health recovery.
void update_player_intrinsics(State& s, std::int32_t action) {
  // Start sleeping? Wake up?
  const bool starting_sleep = action == kSleep && s.player_energy < 9;
  s.is_sleeping = s.is_sleeping || starting_sleep;
  const bool waking_up = s.player_energy >= 9 && s.is_sleeping;
  s.is_sleeping = s.is_sleeping && !waking_up;
  s.achievements[kWakeUp] = s.achievements[kWakeUp] || waking_up;

  // Hunger
  float hunger = s.player_hunger + (s.is_sleeping ? 0.5f : 1.0f);
  if (hunger > 25.0f) {
    s.player_food = std::max(s.player_food - 1, 0);
    hunger = 0.0f;
  }
  s.player_hunger = hunger;

  // Thirst
  float thirst = s.player_thirst + (s.is_sleeping ? 0.5f : 1.0f);
  if (thirst > 20.0f) {
    s.player_drink = std::max(s.player_drink - 1, 0);
    thirst = 0.0f;
  }
  s.player_thirst = thirst;

  // Fatigue
  float fatigue = s.is_sleeping ? std::min(s.player_fatigue - 1.0f, 0.0f) : s.player_fatigue + 1.0f;
  std::int32_t energy = s.player_energy;
  if (fatigue > 30.0f) {
    energy = std::max(s.player_energy - 1, 0);
    fatigue = 0.0f;
  }
  if (fatigue < -10.0f) {
    energy = std::min(s.player_energy + 1, 9);
    fatigue = 0.0f;
  }
  s.player_fatigue = fatigue;
  s.player_energy = energy;

  // Health
  const bool all_necessities = s.player_food > 0 && s.player_drink > 0 && (s.player_energy > 0 || s.is_sleeping);
  const float recover_add = all_necessities ? (s.is_sleeping ? 2.0f : 1.0f) : (s.is_sleeping ? -0.5f : -1.0f);
  float recover = s.player_recover + recover_add;
  std::int32_t health = s.player_health;
  if (recover > 25.0f) {
    health = std::min(s.player_health + 1, 9);
    recover = 0.0f;
  }
  if (recover < -15.0f) {
    health = s.player_health - 1;
    recover = 0.0f;
  }
  s.player_recover = recover;
  s.player_health = health;
}

// cap_inventory(state): every count at most 9.
void cap_inventory(State& s) {
  Inventory& inv = s.inventory;
  for (std::int32_t* v : {&inv.wood, &inv.stone, &inv.coal, &inv.iron, &inv.diamond, &inv.sapling, &inv.wood_pickaxe,
                          &inv.stone_pickaxe, &inv.iron_pickaxe, &inv.wood_sword, &inv.stone_sword, &inv.iron_sword}) {
    *v = std::min(*v, 9);
  }
}

// update_health(state): lava kills; health is at least 0.
void update_health(State& s) {
  if (map_at(s, s.player_position[0], s.player_position[1]) == kLava) s.player_health = 0;
  s.player_health = std::max(0, s.player_health);
}

// state.achievements.astype(float32).sum().
float achievement_count(const State& s) {
  float n = 0.0f;
  for (const bool a : s.achievements) n += static_cast<float>(a);
  return n;
}

}  // namespace

State craftax_step(Key rng, const State& state, std::int32_t action, const Params& params, float* reward) {
  State s = state;
  if (s.is_sleeping) action = kNoop;

  do_crafting(s, action);
  {
    const auto [next, sub] = jax_random::split2(rng);
    rng = next;
    do_action(sub, s, action);
  }
  place_block(s, action);
  move_player(s, action);
  {
    const auto [next, sub] = jax_random::split2(rng);
    rng = next;
    update_mobs(sub, s, params);
  }
  {
    const auto [next, sub] = jax_random::split2(rng);
    rng = next;
    spawn_mobs(s, sub, params);
  }
  update_plants(s);
  update_player_intrinsics(s, action);
  cap_inventory(s);
  update_health(s);

  // (achievements' sum - initial sum) + (health - initial health) * 0.1, as
  // XLA fuses it.
  const float achievement_reward = achievement_count(s) - achievement_count(state);
  const float health_delta = static_cast<float>(s.player_health - state.player_health);
  if (reward != nullptr) *reward = std::fma(health_delta, 0.1f, achievement_reward);

  const auto [next, sub] = jax_random::split2(rng);
  (void)next;
  s.timestep = state.timestep + 1;
  s.light_level = calculate_light_level(s.timestep, params);
  s.state_rng = sub;
  return s;
}

bool is_game_over(const State& state, const Params& params) {
  const bool done_steps = state.timestep >= params.max_timesteps;
  const bool in_lava = map_at(state, state.player_position[0], state.player_position[1]) == kLava;
  const bool is_dead = state.player_health <= 0;
  return done_steps || in_lava || is_dead;
}

float calculate_light_level(std::int32_t timestep, const Params& params) {
  // (timestep / day_length) % 1 + 0.3, a true float32 division (day_length
  // is a run-time value), and jnp's floored remainder.
  float progress = static_cast<float>(timestep) / static_cast<float>(params.day_length);
  float r = std::fmod(progress, 1.0f);
  if (r < 0.0f) r += 1.0f;
  progress = r + 0.3f;
  // 1 - |cos(pi * progress)|^3, the cube's last multiply fused into the
  // subtraction.
  const float c = std::fabs(std::cos(std::numbers::pi_v<float> * progress));
  return std::fma(-(c * c), c, 1.0f);
}

}  // namespace rlpool::craftax::classic
