// Full Craftax's step: craftax 1.6.1's craftax/craftax/game_logic.py
// craftax_step (l.3006-3089) and the functions of the step that live here:
// is_game_over (l.4-9), update_player_intrinsics (l.1829-1976),
// update_plants (l.1978-2019), move_player (l.2021-2043), change_floor
// (l.2422-2496), shoot_projectile (l.2498-2537), cast_spell (l.2539-2592),
// drink_potion (l.2594-2691), read_book (l.2693-2724), enchant
// (l.2726-2828), boss_logic (l.2830-2843), calculate_inventory_achievements
// (l.2845-2968) and level_up_attributes (l.2970-3004). do_action,
// do_crafting, place_block (full_actions.cc), update_mobs (full_mobs.cc) and
// spawn_mobs (full_spawn.cc) are called in craftax's order with the keys
// craftax splits for them.
//
// Each function does what craftax's jitted code computes: craftax computes
// an effect and keeps or drops it with a select or a multiply by a bool,
// written here as the corresponding condition where that gives the same
// bits. Indices are read and written as JAX does (full_rules.h): e.g.
// change_floor reads up_ladders[level + 1] and down_ladders[level - 1] even
// when the player stays, and drink_potion writes potions[-1] (the last)
// when no potion is drunk. The jax.random draws of read_book and enchant
// happen on every step, whatever the action. Float32 arithmetic is plain
// float32 in craftax's order, except the reward's multiply-add, which XLA
// fuses into one fma.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "_core/env/jax_random.h"
#include "envs/craftax/full_game.h"
#include "envs/craftax/full_rules.h"
#include "envs/craftax/full_state.h"
#include "envs/craftax/full_utils.h"

namespace rlpool::craftax::full {

namespace {

// A bool as craftax's 0/1 int32 (1 * flag).
constexpr std::int32_t as_int(bool b) { return static_cast<std::int32_t>(b); }

// achievements.at[a].set(achievements[a] | flag).
void grant(State& s, std::int32_t achievement, bool flag) {
  auto& a = s.achievements[static_cast<std::size_t>(read_index(achievement, kNumAchievements))];
  a = a || flag;
}

// The number of live player projectiles on the player's level.
int player_projectile_count(const State& s) {
  int n = 0;
  for (const bool m : s.player_projectiles.mask[static_cast<std::size_t>(read_index(s.player_level, kNumLevels))]) {
    n += m ? 1 : 0;
  }
  return n;
}

// The player's position plus DIRECTIONS[player_direction].
Position facing_position(const State& s) {
  const auto& d = direction(s.player_direction);
  return {s.player_position[0] + d[0], s.player_position[1] + d[1]};
}

// change_floor(state, action, env_params, static_params): DESCEND on a down
// ladder of a cleared level (anywhere in god mode) moves to the next level's
// up ladder; ASCEND on an up ladder (anywhere in god mode) to the previous
// level's down ladder. The level's achievement is set and a first visit
// gives one xp (both also when staying on a level whose achievement is
// unset).
void change_floor(State& s, std::int32_t action, const Params& params) {
  const std::int32_t level = s.player_level;
  const std::int32_t item = item_at(s, level, s.player_position[0], s.player_position[1]);
  const bool on_down_ladder = item == kItemLadderDown;
  bool moving_down =
      action == kDescend &&
      (params.god_mode ||
       (on_down_ladder &&
        s.monsters_killed[static_cast<std::size_t>(read_index(level, kNumLevels))] >= kMonstersKilledToClearLevel));
  moving_down = moving_down && level < kNumLevels - 1;
  const auto& down_position = s.up_ladders[static_cast<std::size_t>(read_index(level + 1, kNumLevels))];

  const bool on_up_ladder = item == kItemLadderUp;
  bool moving_up = action == kAscend && (params.god_mode || on_up_ladder);
  moving_up = moving_up && level > 0;
  const auto& up_position = s.down_ladders[static_cast<std::size_t>(read_index(level - 1, kNumLevels))];

  const std::int32_t not_moving = as_int(!(moving_up || moving_down));
  const std::int32_t delta = as_int(moving_down) - as_int(moving_up);
  const Position position = {
      s.player_position[0] * not_moving + as_int(moving_down) * down_position[0] + as_int(moving_up) * up_position[0],
      s.player_position[1] * not_moving + as_int(moving_down) * down_position[1] + as_int(moving_up) * up_position[1]};

  const std::int32_t new_level = level + delta;
  const std::int32_t achievement =
      kLevelAchievementMap[static_cast<std::size_t>(read_index(new_level, kNumLevels))];
  const bool had_achievement = s.achievements[static_cast<std::size_t>(achievement)];
  const bool new_floor = new_level != 0 && !had_achievement;
  s.achievements[static_cast<std::size_t>(achievement)] = new_level != 0 || had_achievement;
  s.player_level = new_level;
  s.player_position = position;
  s.player_xp += as_int(new_floor);
}

// shoot_projectile(state, action, static_params): SHOOT_ARROW with a bow, an
// arrow and a free projectile slot fires an ARROW2 from the player's position
// the way the player faces.
void shoot_projectile(State& s, std::int32_t action) {
  const bool shooting = action == kShootArrow && s.inventory.bow >= 1 && s.inventory.arrows >= 1 &&
                        player_projectile_count(s) < kMaxPlayerProjectiles;
  const Position position = s.player_position;
  const auto& d = direction(s.player_direction);
  spawn_projectile(s, s.player_projectiles, s.player_projectile_directions, position, shooting, Position{d[0], d[1]},
                   kProjectileArrow2);
  grant(s, kFireBow, shooting);
  s.inventory.arrows -= as_int(shooting);
}

// cast_spell(state, action, static_params): CAST_FIREBALL / CAST_ICEBALL with
// the spell learned, 2 mana and a free projectile slot.
void cast_spell(State& s, std::int32_t action) {
  const bool can_cast = s.player_mana >= 2 && player_projectile_count(s) < kMaxPlayerProjectiles;
  const bool fireball = action == kCastFireball && can_cast && s.learned_spells[0];
  const bool iceball = action == kCastIceball && can_cast && s.learned_spells[1];
  const bool casting = fireball || iceball;
  const std::int32_t type = as_int(fireball) * kProjectileFireball + as_int(iceball) * kProjectileIceball;
  const Position position = s.player_position;
  const auto& d = direction(s.player_direction);
  spawn_projectile(s, s.player_projectiles, s.player_projectile_directions, position, casting, Position{d[0], d[1]},
                   type);
  // Achievement 0 (collect wood) or'ed with false when not casting.
  grant(s, as_int(fireball) * kCastFireballAch + as_int(iceball) * kCastIceballAch, casting);
  s.player_mana -= as_int(casting) * 2;
}

// drink_potion(state, action): DRINK_POTION_<colour> with such a potion
// drinks it; potion_mapping decides the effect (+8 / -3 health, mana or
// energy, unclipped here).
void drink_potion(State& s, std::int32_t action) {
  std::int32_t index = -1;
  bool drinking = false;
  for (int colour = 0; colour < 6; ++colour) {
    const bool this_one =
        action == kDrinkPotionRed + colour && s.inventory.potions[static_cast<std::size_t>(colour)] > 0;
    index = as_int(this_one) * colour + (1 - as_int(this_one)) * index;
    drinking = drinking || this_one;
  }
  const std::size_t slot = static_cast<std::size_t>(read_index(index, 6));
  const std::int32_t effect = s.potion_mapping[slot];
  const std::int32_t d = as_int(drinking);
  const std::int32_t delta_health = d * as_int(effect == 0) * 8 + d * as_int(effect == 1) * -3;
  const std::int32_t delta_mana = d * as_int(effect == 2) * 8 + d * as_int(effect == 3) * -3;
  const std::int32_t delta_energy = d * as_int(effect == 4) * 8 + d * as_int(effect == 5) * -3;
  grant(s, kDrinkPotion, drinking);
  s.inventory.potions[slot] -= d;  // index -1 writes the last slot back unchanged
  s.player_health = s.player_health + static_cast<float>(delta_health);
  s.player_mana += delta_mana;
  s.player_energy += delta_energy;
}

// read_book(rng, state, action): READ_BOOK with a book learns a spell not yet
// learned, chosen at random (jax.random.choice over the two with p = not
// learned / count: when both are learned p is NaN and the choice is 0).
void read_book(Key rng, State& s, std::int32_t action) {
  const bool reading = action == kReadBook && s.inventory.books > 0;
  const float to_learn[2] = {static_cast<float>(!s.learned_spells[0]), static_cast<float>(!s.learned_spells[1])};
  const float total = to_learn[0] + to_learn[1];
  const float p[2] = {to_learn[0] / total, to_learn[1] / total};
  const auto [next, sub] = jax_random::split2(rng);
  (void)next;
  std::int32_t spell = 0;
  jax_random::choice_p(sub, &spell, 1, p, 2);
  grant(s, spell != 0 ? kLearnIceball : kLearnFireball, reading);
  s.inventory.books -= as_int(reading);
  const std::size_t i = static_cast<std::size_t>(read_index(spell, 2));
  s.learned_spells[i] = s.learned_spells[i] || reading;
}

// enchant(rng, state, action): ENCHANT_SWORD / ENCHANT_BOW / ENCHANT_ARMOUR
// facing an enchantment table (fire: rubies, type 1; ice: sapphires, type 2)
// with 9 mana and a gem. The armour piece is drawn on every step: an
// unenchanted piece, else one enchanted with the other type.
void enchant(Key rng, State& s, std::int32_t action) {
  const Position target = facing_position(s);
  const std::int32_t block = block_at(s, target[0], target[1]);
  const bool is_table = block == kEnchantmentTableFire || block == kEnchantmentTableIce;
  const std::int32_t type = block == kEnchantmentTableFire ? 1 : 2;
  const std::int32_t gems = block == kEnchantmentTableFire ? s.inventory.ruby : s.inventory.sapphire;
  const bool could_enchant = s.player_mana >= 9 && is_table && gems >= 1;
  const bool bow = could_enchant && action == kEnchantBow && s.inventory.bow > 0;
  const bool sword = could_enchant && action == kEnchantSword && s.inventory.sword > 0;
  std::int32_t armour_sum = 0;
  for (const std::int32_t a : s.inventory.armour) armour_sum += a;
  const bool armour = could_enchant && action == kEnchantArmour && armour_sum > 0;

  const auto [next, sub] = jax_random::split2(rng);
  (void)next;
  bool unenchanted[4];
  int unenchanted_count = 0;
  for (int i = 0; i < 4; ++i) {
    unenchanted[i] = s.armour_enchantments[static_cast<std::size_t>(i)] == 0;
    unenchanted_count += unenchanted[i] ? 1 : 0;
  }
  float targets[4];
  for (int i = 0; i < 4; ++i) {
    const std::int32_t e = s.armour_enchantments[static_cast<std::size_t>(i)];
    const bool opposite = e != 0 && e != type;
    targets[i] = static_cast<float>(unenchanted[i] || (unenchanted_count == 0 && opposite));
  }
  std::int32_t armour_target = 0;
  jax_random::choice_p(sub, &armour_target, 1, targets, 4);

  const bool enchanting = sword || bow || armour;
  s.sword_enchantment = as_int(sword) * type + (1 - as_int(sword)) * s.sword_enchantment;
  s.bow_enchantment = as_int(bow) * type + (1 - as_int(bow)) * s.bow_enchantment;
  std::int32_t& piece = s.armour_enchantments[static_cast<std::size_t>(read_index(armour_target, 4))];
  piece = as_int(armour) * type + (1 - as_int(armour)) * piece;
  s.inventory.sapphire -= as_int(enchanting) * as_int(type == 2);
  s.inventory.ruby -= as_int(enchanting) * as_int(type == 1);
  s.player_mana -= 9 * as_int(enchanting);
  grant(s, kEnchantSwordAch, sword);
  grant(s, kEnchantArmourAch, armour);
}

// boss_logic(state, static_params): the necromancer is defeated once
// boss_progress reaches 8; on the boss level the wave countdown goes down.
void boss_logic(State& s) {
  grant(s, kDefeatNecromancer, has_beaten_boss(s));
  s.boss_timesteps_to_spawn_this_round -= as_int(is_fighting_boss(s));
}

// level_up_attributes(state, action, params): LEVEL_UP_* spends one xp on an
// attribute below max_attribute.
void level_up_attributes(State& s, std::int32_t action, const Params& params) {
  const bool can_level_up = s.player_xp >= 1;
  const bool dex = can_level_up && action == kLevelUpDexterity && s.player_dexterity < params.max_attribute;
  const bool str = can_level_up && action == kLevelUpStrength && s.player_strength < params.max_attribute;
  const bool intel = can_level_up && action == kLevelUpIntelligence && s.player_intelligence < params.max_attribute;
  s.player_dexterity += as_int(dex);
  s.player_strength += as_int(str);
  s.player_intelligence += as_int(intel);
  s.player_xp -= as_int(dex || str || intel);
}

// move_player(state, action, params): a move onto a block a land creature
// may enter (anywhere in god mode); any action with a direction turns the
// player.
void move_player(State& s, std::int32_t action, const Params& params) {
  const auto& d = direction(action);
  const Position proposed = {s.player_position[0] + d[0], s.player_position[1] + d[1]};
  const bool valid =
      is_position_in_bounds_not_in_mob_not_colliding(s, proposed, kCollisionLandCreature) || params.god_mode;
  s.player_position[0] += as_int(valid) * d[0];
  s.player_position[1] += as_int(valid) * d[1];
  const std::int32_t turn = as_int(std::abs(d[0]) + std::abs(d[1]) != 0);
  s.player_direction = s.player_direction * (1 - turn) + action * turn;
}

// update_plants(state, static_params): every plant ages (free slots reset to
// 0); one at age 600 or more turns its overworld block ripe, slot by slot.
void update_plants(State& s) {
  for (std::size_t i = 0; i < kMaxGrowingPlants; ++i) {
    s.growing_plants_age[i] = (s.growing_plants_age[i] + 1) * as_int(s.growing_plants_mask[i]);
  }
  for (std::size_t i = 0; i < kMaxGrowingPlants; ++i) {
    if (s.growing_plants_age[i] >= 600) {
      set_map(s, 0, s.growing_plants_positions[i][0], s.growing_plants_positions[i][1], kRipePlant);
    }
  }
}

// update_player_intrinsics(state, action, static_params): sleeping and
// resting, hunger, thirst, fatigue, health recovery and mana recovery (no
// food, drink or energy is lost and no health lost to needs while fighting
// the boss).
void update_player_intrinsics(State& s, std::int32_t action) {
  // Start sleeping? Wake up?
  const bool starting_sleep = action == kSleep && s.player_energy < get_max_energy(s);
  s.is_sleeping = s.is_sleeping || starting_sleep;
  const bool waking_up = s.player_energy >= get_max_energy(s) && s.is_sleeping;
  s.is_sleeping = s.is_sleeping && !waking_up;
  grant(s, kWakeUp, waking_up);

  // Start resting? Stop resting?
  const bool starting_rest = action == kRest && s.player_health < static_cast<float>(get_max_health(s));
  s.is_resting = s.is_resting || starting_rest;
  const bool stop_resting =
      s.is_resting &&
      (s.player_health >= static_cast<float>(get_max_health(s)) || s.player_food <= 0 || s.player_drink <= 0);
  s.is_resting = s.is_resting && !stop_resting;

  const std::int32_t not_boss = as_int(!is_fighting_boss(s));
  const float decay = 1.0f - 0.125f * static_cast<float>(s.player_dexterity - 1);

  // Hunger
  float hunger = s.player_hunger + (s.is_sleeping ? 0.5f : 1.0f) * decay;
  if (hunger > 25.0f) {
    s.player_food = std::max(s.player_food - not_boss, 0);
    hunger = 0.0f;
  }
  s.player_hunger = hunger;

  // Thirst
  float thirst = s.player_thirst + (s.is_sleeping ? 0.5f : 1.0f) * decay;
  if (thirst > 20.0f) {
    s.player_drink = std::max(s.player_drink - not_boss, 0);
    thirst = 0.0f;
  }
  s.player_thirst = thirst;

  // Fatigue
  float fatigue = s.is_sleeping ? std::min(s.player_fatigue - 1.0f, 0.0f) : s.player_fatigue + decay;
  std::int32_t energy = s.player_energy;
  if (fatigue > 30.0f) {
    energy = std::max(s.player_energy - not_boss, 0);
    fatigue = 0.0f;
  }
  if (fatigue < -10.0f) {
    energy = std::min(s.player_energy + 1, get_max_energy(s));
    fatigue = 0.0f;
  }
  s.player_fatigue = fatigue;
  s.player_energy = energy;

  // Health
  const bool all_necessities = s.player_food > 0 && s.player_drink > 0 && (s.player_energy > 0 || s.is_sleeping);
  const float recover_add = all_necessities ? (s.is_sleeping ? 2.0f : 1.0f)
                                            : (s.is_sleeping ? -0.5f : -1.0f) * static_cast<float>(not_boss);
  float recover = s.player_recover + recover_add;
  float health = s.player_health;
  if (recover > 25.0f) {
    health = std::min(s.player_health + 1.0f, static_cast<float>(get_max_health(s)));
    recover = 0.0f;
  }
  if (recover < -15.0f) {
    health = s.player_health - 1.0f;
    recover = 0.0f;
  }
  s.player_recover = recover;
  s.player_health = health;

  // Mana
  const float mana_coeff = 1.0f + 0.25f * static_cast<float>(s.player_intelligence - 1);
  float recover_mana = (s.is_sleeping ? s.player_recover_mana + 2.0f : s.player_recover_mana + 1.0f) * mana_coeff;
  if (recover_mana > 30.0f) {
    s.player_mana += 1;
    recover_mana = 0.0f;
  }
  s.player_recover_mana = recover_mana;
}

// calculate_inventory_achievements(state): the achievements an inventory
// shows (collected materials, found bow, made arrows/torches, tool levels).
void calculate_inventory_achievements(State& s) {
  const Inventory& inv = s.inventory;
  grant(s, kCollectWood, inv.wood > 0);
  grant(s, kCollectStone, inv.stone > 0);
  grant(s, kCollectCoal, inv.coal > 0);
  grant(s, kCollectIron, inv.iron > 0);
  grant(s, kCollectDiamond, inv.diamond > 0);
  grant(s, kCollectRuby, inv.ruby > 0);
  grant(s, kCollectSapphire, inv.sapphire > 0);
  grant(s, kCollectSapling, inv.sapling > 0);
  grant(s, kFindBow, inv.bow > 0);
  grant(s, kMakeArrowAch, inv.arrows > 0);
  grant(s, kMakeTorchAch, inv.torches > 0);
  grant(s, kMakeWoodPickaxeAch, inv.pickaxe >= 1);
  grant(s, kMakeStonePickaxeAch, inv.pickaxe >= 2);
  grant(s, kMakeIronPickaxeAch, inv.pickaxe >= 3);
  grant(s, kMakeDiamondPickaxeAch, inv.pickaxe >= 4);
  grant(s, kMakeWoodSwordAch, inv.sword >= 1);
  grant(s, kMakeStoneSwordAch, inv.sword >= 2);
  grant(s, kMakeIronSwordAch, inv.sword >= 3);
  grant(s, kMakeDiamondSwordAch, inv.sword >= 4);
}

}  // namespace

State craftax_step(Key rng, const State& state, std::int32_t action, const Params& params, float* reward) {
  State s = state;
  if (state.is_sleeping) action = kNoop;
  if (state.is_resting) action = kNoop;

  change_floor(s, action, params);
  do_crafting(s, action);
  {
    const auto [next, sub] = jax_random::split2(rng);
    rng = next;
    do_action(sub, s, action);
  }
  place_block(s, action);
  shoot_projectile(s, action);
  cast_spell(s, action);
  drink_potion(s, action);
  {
    const auto [next, sub] = jax_random::split2(rng);
    rng = next;
    read_book(sub, s, action);
  }
  {
    const auto [next, sub] = jax_random::split2(rng);
    rng = next;
    enchant(sub, s, action);
  }
  boss_logic(s);
  level_up_attributes(s, action, params);
  move_player(s, action, params);
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
  clip_inventory_and_intrinsics(s, params);
  calculate_inventory_achievements(s);

  // sum((achievements - initial) * ACHIEVEMENT_REWARD_MAP) (int32) plus
  // (health - initial health) * 0.1, the multiply fused into the add by XLA.
  std::int32_t achievement_reward = 0;
  for (int i = 0; i < kNumAchievements; ++i) {
    const auto k = static_cast<std::size_t>(i);
    achievement_reward += (as_int(s.achievements[k]) - as_int(state.achievements[k])) * kAchievementRewardMap[k];
  }
  if (reward != nullptr) {
    *reward = std::fma(s.player_health - state.player_health, 0.1f, static_cast<float>(achievement_reward));
  }

  const auto [next, sub] = jax_random::split2(rng);
  (void)next;
  s.timestep = s.timestep + 1;
  s.light_level = calculate_light_level(s.timestep, params);
  s.state_rng = sub;
  return s;
}

bool is_game_over(const State& state, const Params& params) {
  const bool done_steps = state.timestep >= params.max_timesteps;
  const bool is_dead = state.player_health <= 0.0f;
  return done_steps || is_dead || has_beaten_boss(state);
}

}  // namespace rlpool::craftax::full
