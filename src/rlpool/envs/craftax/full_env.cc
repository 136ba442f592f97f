// Full Craftax as rlpool envs: craftax 1.6.1's CraftaxSymbolicEnv /
// CraftaxPixelsEnv (craftax/craftax/envs/craftax_symbolic_env.py and
// craftax_pixels_env.py: reset_env, step_env, get_obs, is_terminal, discount;
// envs/common.py log_achievements_to_info; environment_base/
// environment_bases.py EnvironmentAutoReset.step l.19-45), keyed as EnvPool
// 1.2.7's Craftax envs key them, as Craftax-Classic's envs are
// (craftax_env.cc):
//
// - env i of a pool seeded with s starts from jax.random.PRNGKey(s + i): its
//   first reset is reset_env(PRNGKey(s + i)) and that key is the env's key.
//   The engine seeds env i's Rng with s + i; the env reads the seed back with
//   seed_of (_core/env/rng_seed.h), and a reset with a new seed (gymnasium's
//   reset(seed=...)) starts from PRNGKey(seed) again. PRNGKey keeps the low
//   32 bits of a seed (jax with x64 off).
// - each step: key, k = split(key); state = craftax_step(k, state, action).
// - a reset without a new seed: key, k = split(key); reset_env(k).
// - auto_reset (the -AutoReset- ids, EnvPool's `auto_reset`): the step key k
//   goes to EnvironmentAutoReset.step(k): step with split(k)[0], and the reset
//   that follows an ended episode (the game's end or the time limit) uses
//   split(k)[1] of the ending step. With autoreset_mode="SameStep" that reset
//   happens within the ending step, as craftax's and EnvPool's do.
// - reset_env(k) differs between craftax's two envs: the symbolic one
//   generates the world from split(k)[1], the pixel one from k itself.
//
// The keys, the info entries, the shared textures and render()'s frame are
// craftax_common.h's, as Craftax-Classic's.
//
// The game is full_game.h's functions (world generation, step, symbolic
// observation) with craftax's EnvParams taken from the options under
// EnvPool's names (day_length, always_diamond, mob_despawn_distance,
// max_attribute, god_mode; max_timesteps stays craftax's 100,000, as in
// EnvPool). Observations: Symbolic, the 8268 float32 of
// render_craftax_symbolic; Pixels, renderer.py's 130 x 110 x 3 frame / 255 as
// float32 (full_render.h). terminated is craftax's done (is_game_over: dead,
// the necromancer defeated, or timestep >= 100,000); the engine's time limit
// truncates.
// A reset's symbolic observation is reset_env's: XLA folds the constants of
// that program, and the intrinsics of a new world are constants (health,
// food, drink, energy and mana 9, xp 0, attributes 1), so their
// observation is x / 10 divided exactly (9 / 10 = 0.9f), not x * 0.1f as a
// step's (0.90000004f). A reset's pixel observation is reset_env's too:
// XLA compiles the daylight blend of that program with other fma choices
// (full_render.cc, Program::kReset). EnvPool 1.2.7 draws a reset's frame as
// a step's, so its reset frames differ from rlpool's (and craftax's) in the
// last bit of about 1 in 7 map values.
// Info: craftax's log_achievements_to_info keys, Achievements/<name> (67
// float32 in craftax's Achievement order, achievement * done * 100), and
// discount (0 when done, else 1); full Craftax has no score.
//
// Pixels and render(): the textures come from the file
// rlpool/envs/craftax/textures.py builds from craftax's wheel, whose path the
// hidden option _textures_file holds (set by the registration where pixels
// are needed); envs of one process share one copy. render() draws the pixel
// observation as uint8 (x * 255 rounded), for Symbolic envs too.
//
// State (get_state/set_state): full_state.cc's bytes of craftax's EnvState
// (tree_leaves order) followed by the env's key (two little-endian uint32).
#include <array>
#include <cstdint>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "_core/env/env.h"
#include "_core/env/jax_random.h"
#include "envs/craftax/craftax_common.h"
#include "envs/craftax/full_game.h"
#include "envs/craftax/full_render.h"
#include "envs/craftax/full_state.h"
#include "envs/craftax/full_state_io.h"

namespace rlpool::craftax::full {

namespace {

static_assert(std::is_trivially_destructible_v<State>, "a state's buffer is reused without its destructor");

// The symbolic observation's 9 intrinsics (health, food, drink, energy, mana, xp, dexterity, strength,
// intelligence) follow the 9 x 11 x 83 map view, 16 inventory values and 6 potions.
constexpr int kIntrinsicsAt = 9 * 11 * 83 + 16 + 6;

// craftax's EnvParams from the options (EnvPool's names), each checked.
Params read_params(const Config& config) {
  Params p;
  p.day_length = static_cast<std::int32_t>(config.get_int_in("day_length", 1, kInt32Max));
  p.always_diamond = config.get_bool("always_diamond");
  p.mob_despawn_distance = static_cast<std::int32_t>(config.get_int_in("mob_despawn_distance", 0, kInt32Max));
  // Attributes count up to it; it bounds the max intrinsics (8 + strength, ...), far from overflow here.
  p.max_attribute = static_cast<std::int32_t>(config.get_int_in("max_attribute", 0, 1 << 20));
  p.god_mode = config.get_bool("god_mode");
  return p;
}

// The textures in `path`, shared by the envs of the process.
std::shared_ptr<const Textures> textures_at(const std::string& path) {
  return shared_textures(path, "Craftax", &load_textures);
}

std::vector<ArraySpec> full_info_spec() { return info_spec(kAchievementNames, false); }

EnvSpec craftax_spec(const Config& config, bool pixels) {
  read_params(config);  // refuses bad option values before any env is built
  EnvSpec spec;
  if (pixels) {
    spec.obs = {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {kPixelRows, kPixelCols, 3},
                          .low = {0.0}, .high = {1.0}}};
  } else {
    spec.obs = {ArraySpec{.name = "obs", .dtype = DType::kFloat32, .shape = {kSymbolicObsSize}, .low = {0.0},
                          .high = {1.0}}};
  }
  spec.action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {kNumActions - 1}};
  spec.info = full_info_spec();
  // The pixel observation as a frame (craftax's play script shows it; 10 frames a second is rlpool's choice).
  spec.render_width = kPixelCols;
  spec.render_height = kPixelRows;
  spec.render_fps = 10.0;
  return spec;
}

class Craftax : public Env {
 public:
  Craftax(const Config& config, bool pixels)
      : params_(read_params(config)),
        auto_reset_(config.get_bool("auto_reset")),
        pixels_(pixels),
        textures_file_(config.get_string("_textures_file")),
        state_(std::make_unique<State>()),
        spare_(std::make_unique<State>()) {
    if (pixels_) textures_ = textures_at(textures_file_);
    const std::vector<ArraySpec> info = full_info_spec();
    achievements_at_ = info_index(info, "Achievements/" + std::string(kAchievementNames[0]));  // 67 in a row
    discount_at_ = info_index(info, "discount");
  }

  void reset(Rng& rng, const Output& out) override {
    const Key k = keys_.for_reset(rng, auto_reset_, done_ || out.time_limit_hit);
    // reset_env: the symbolic env splits its key first, the pixel env does not.
    *state_ = generate_world(pixels_ ? k : jax_random::split2(k).second, params_);
    done_ = false;
    write(out, false, Program::kReset);
    if (!pixels_) {
      // reset_env's constants, divided exactly (see the top of this file).
      const State& s = *state_;
      float* obs = out.obs_as<float>() + kIntrinsicsAt;
      const std::array<float, 9> intrinsics = {
          s.player_health,
          static_cast<float>(s.player_food),
          static_cast<float>(s.player_drink),
          static_cast<float>(s.player_energy),
          static_cast<float>(s.player_mana),
          static_cast<float>(s.player_xp),
          static_cast<float>(s.player_dexterity),
          static_cast<float>(s.player_strength),
          static_cast<float>(s.player_intelligence)};
      for (std::size_t i = 0; i < intrinsics.size(); ++i) obs[i] = intrinsics[i] / 10.0f;
    }
  }

  void step(const rlpool::Action& action, Rng& /*rng*/, const Output& out) override {
    const Key k = keys_.for_step(auto_reset_);
    float reward = 0.0f;
    // The next state is built in the spare buffer (no copy of 270 kB back), then the two swap.
    ::new (static_cast<void*>(spare_.get()))
        State(craftax_step(k, *state_, static_cast<std::int32_t>(action.discrete()), params_, &reward));
    std::swap(state_, spare_);
    done_ = is_game_over(*state_, params_);
    *out.reward = static_cast<double>(reward);
    *out.terminated = done_;
    write(out, done_, Program::kStep);
  }

  void render(const Frame& frame) override {
    if (frame.width != kPixelCols || frame.height != kPixelRows) {
      throw std::logic_error("Craftax draws 130 x 110 frames only");
    }
    if (!textures_) textures_ = textures_at(textures_file_);
    std::vector<float> pixels(kPixelObsSize);
    render_pixels(*state_, *textures_, pixels.data(), Program::kStep);
    to_frame(pixels, frame.rgb);
  }

  std::string get_state() const override {
    std::string bytes = save_state(*state_);
    keys_.append_to(bytes);
    return bytes;
  }

  void set_state(std::string_view bytes) override {
    const std::size_t expected = saved_state_size() + EnvKeys::kBytes;
    if (bytes.size() != expected) {
      throw std::invalid_argument("Craftax state has " + std::to_string(bytes.size()) + " bytes, expected " +
                                  std::to_string(expected) + " (craftax 1.6.1 EnvState's tree leaves and the key)");
    }
    auto loaded = std::make_unique<State>(load_state(bytes.substr(0, saved_state_size())));  // checks every field
    state_ = std::move(loaded);
    keys_.read_from(bytes);
    done_ = false;
  }

 private:
  // The observation and info of the current state; `program`: the reset's
  // frame or a step's (see the top of this file).
  void write(const Output& out, bool done, Program program) const {
    if (pixels_) {
      render_pixels(*state_, *textures_, out.obs_as<float>(), program);
    } else {
      render_symbolic(*state_, out.obs_as<float>());
    }
    for (std::size_t a = 0; a < kNumAchievements; ++a) {
      *out.info_as<float>(achievements_at_ + a) = state_->achievements[a] && done ? 100.0f : 0.0f;
    }
    *out.info_as<float>(discount_at_) = done ? 0.0f : 1.0f;
  }

  Params params_;
  bool auto_reset_;
  bool pixels_;
  std::string textures_file_;
  std::shared_ptr<const Textures> textures_;  // pixels, or once render() was called
  std::unique_ptr<State> state_;              // 270 kB: on the heap
  std::unique_ptr<State> spare_;              // the buffer the next step's state is built in
  EnvKeys keys_;
  bool done_ = false;  // the last step ended the game (craftax's done)
  std::size_t achievements_at_ = 0;
  std::size_t discount_at_ = 0;
};

// craftax's EnvParams defaults.
std::vector<Option> options() {
  const Params d;
  return {
      {"day_length", std::int64_t{d.day_length}, "Steps of a day-night cycle (craftax's EnvParams.day_length)."},
      {"always_diamond", d.always_diamond, "World generation places at least one diamond on the overworld."},
      {"mob_despawn_distance", std::int64_t{d.mob_despawn_distance},
       "Mobs farther than this from the player (Manhattan distance) may despawn."},
      {"max_attribute", std::int64_t{d.max_attribute},
       "The most points each of dexterity, strength and intelligence can reach."},
      {"god_mode", d.god_mode,
       "craftax's god mode: a full inventory at the start, health never below 9, moves through anything and "
       "takes ladders without clearing a floor."},
      {"auto_reset", false,
       "craftax's EnvironmentAutoReset keys (the -AutoReset- ids): a step steps with split(k)[0] of its key k "
       "and the reset after an ended episode uses split(k)[1]."},
      {"_textures_file", std::string(), "The texture file of the pixel renderer (set by the registration)."},
  };
}

}  // namespace

static const bool kRegistered =
    register_env_type({
        .name = "CraftaxSymbolic",
        .options = options(),
        .spec = [](const Config& config) { return craftax_spec(config, false); },
        .create = make_env<Craftax>(false),
    }) &&
    register_env_type({
        .name = "CraftaxPixels",
        .options = options(),
        .spec = [](const Config& config) { return craftax_spec(config, true); },
        .create = make_env<Craftax>(true),
    });

}  // namespace rlpool::craftax::full
