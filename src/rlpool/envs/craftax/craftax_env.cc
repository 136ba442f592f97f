// Craftax-Classic as rlpool envs: craftax 1.6.1's
// CraftaxClassicSymbolicEnv / CraftaxClassicPixelsEnv
// (craftax/craftax_classic/envs/craftax_symbolic_env.py and
// craftax_pixels_env.py: reset_env, step_env, get_obs, is_terminal, discount;
// envs/common.py compute_score; environment_base/environment_bases.py
// EnvironmentAutoReset.step l.19-45), keyed as EnvPool 1.2.7's Craftax envs
// key them, so that a pool gives EnvPool's (and craftax's) episodes:
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
//
// The keys, the info entries, the shared textures and render()'s frame are
// craftax_common.h's, as full Craftax's (full_env.cc).
//
// The game itself is classic_game.h's functions (world gen, step, mobs,
// symbolic observation, score), with the parameters of craftax's EnvParams
// taken from the options under EnvPool's names. Observations: Symbolic, the
// 1345 float32 of render_craftax_symbolic; Pixels, renderer.py's 63 x 63 x 3
// frame / 255 as float32. terminated is craftax's done (is_game_over: dead,
// in lava, or timestep >= 10000); the engine's time limit truncates.
// Info: craftax's log_achievements_to_info keys, Achievements/<name> (22
// float32 in craftax's Achievement order, achievement * done * 100), score
// and discount (0 when done, else 1).
//
// Pixels and render(): the textures come from the file
// rlpool/envs/craftax/textures.py builds from craftax's wheel, whose path the
// hidden option _textures_file holds (set by the registration where pixels
// are needed); envs of one process share one copy. render() draws the pixel
// observation as uint8 (x * 255 rounded), for Symbolic envs too.
//
// State (get_state/set_state): classic_state.cc's bytes of craftax's EnvState
// (tree_leaves order) followed by the env's key (two little-endian uint32).
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"
#include "envs/craftax/classic_game.h"
#include "envs/craftax/classic_render.h"
#include "envs/craftax/classic_state.h"
#include "envs/craftax/craftax_common.h"

namespace rlpool::craftax::classic {

namespace {

// craftax's EnvParams from the options (EnvPool's names), each checked.
Params read_params(const Config& config) {
  Params p;
  p.day_length = static_cast<std::int32_t>(config.get_int_in("day_length", 1, kInt32Max));
  p.always_diamond = config.get_bool("always_diamond");
  p.zombie_health = static_cast<std::int32_t>(config.get_int_in("zombie_health", 1, kInt32Max));
  p.cow_health = static_cast<std::int32_t>(config.get_int_in("cow_health", 1, kInt32Max));
  p.skeleton_health = static_cast<std::int32_t>(config.get_int_in("skeleton_health", 1, kInt32Max));
  p.mob_despawn_distance = static_cast<std::int32_t>(config.get_int_in("mob_despawn_distance", 0, kInt32Max));
  // float32 values, as EnvPool's config holds them (0.1f, ...).
  p.spawn_cow_chance = f32(config.get_double_in("spawn_cow_chance", 0.0, 1.0));
  p.spawn_zombie_base_chance = f32(config.get_double_in("spawn_zombie_base_chance", 0.0, 1.0));
  p.spawn_zombie_night_chance = f32(config.get_double_in("spawn_zombie_night_chance", 0.0, 1.0));
  p.spawn_skeleton_chance = f32(config.get_double_in("spawn_skeleton_chance", 0.0, 1.0));
  return p;
}

// The textures in `path`, shared by the envs of the process.
std::shared_ptr<const Textures> textures_at(const std::string& path) {
  return shared_textures(path, "Craftax-Classic", &load_textures);
}

std::vector<ArraySpec> classic_info_spec() { return info_spec(kAchievementNames, true); }

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
  spec.info = classic_info_spec();
  // The pixel observation as a frame (craftax's play script shows it; 10 frames a second is rlpool's choice).
  spec.render_width = kPixelCols;
  spec.render_height = kPixelRows;
  spec.render_fps = 10.0;
  return spec;
}

class CraftaxClassic : public Env {
 public:
  CraftaxClassic(const Config& config, bool pixels)
      : params_(read_params(config)),
        auto_reset_(config.get_bool("auto_reset")),
        pixels_(pixels),
        textures_file_(config.get_string("_textures_file")) {
    if (pixels_) textures_ = textures_at(textures_file_);
    const std::vector<ArraySpec> info = classic_info_spec();
    achievements_at_ = info_index(info, "Achievements/" + std::string(kAchievementNames[0]));  // 22 in a row
    score_at_ = info_index(info, "score");
    discount_at_ = info_index(info, "discount");
  }

  void reset(Rng& rng, const Output& out) override {
    state_ = generate_world(keys_.for_reset(rng, auto_reset_, done_ || out.time_limit_hit), params_);
    done_ = false;
    write(out, false);
  }

  void step(const rlpool::Action& action, Rng& /*rng*/, const Output& out) override {
    const Key k = keys_.for_step(auto_reset_);
    float reward = 0.0f;
    state_ = craftax_step(k, state_, static_cast<std::int32_t>(action.discrete()), params_, &reward);
    done_ = is_game_over(state_, params_);
    *out.reward = static_cast<double>(reward);
    *out.terminated = done_;
    write(out, done_);
  }

  void render(const Frame& frame) override {
    if (frame.width != kPixelCols || frame.height != kPixelRows) {
      throw std::logic_error("Craftax-Classic draws 63 x 63 frames only");
    }
    if (!textures_) textures_ = textures_at(textures_file_);
    std::vector<float> pixels(kPixelObsSize);
    render_pixels(state_, *textures_, pixels.data());
    to_frame(pixels, frame.rgb);
  }

  std::string get_state() const override {
    std::string bytes = save_state(state_);
    keys_.append_to(bytes);
    return bytes;
  }

  void set_state(std::string_view bytes) override {
    const std::size_t expected = saved_state_size() + EnvKeys::kBytes;
    if (bytes.size() != expected) {
      throw std::invalid_argument("Craftax-Classic state has " + std::to_string(bytes.size()) + " bytes, expected " +
                                  std::to_string(expected));
    }
    const State loaded = load_state(bytes.substr(0, saved_state_size()));  // checks every field first
    state_ = loaded;
    keys_.read_from(bytes);
    done_ = false;
  }

 private:
  void write(const Output& out, bool done) const {
    if (pixels_) {
      render_pixels(state_, *textures_, out.obs_as<float>());
    } else {
      render_symbolic(state_, out.obs_as<float>());
    }
    for (std::size_t a = 0; a < kNumAchievements; ++a) {
      *out.info_as<float>(achievements_at_ + a) = state_.achievements[a] && done ? 100.0f : 0.0f;
    }
    *out.info_as<float>(score_at_) = compute_score(state_, done);
    *out.info_as<float>(discount_at_) = done ? 0.0f : 1.0f;
  }

  Params params_;
  bool auto_reset_;
  bool pixels_;
  std::string textures_file_;
  std::shared_ptr<const Textures> textures_;  // pixels, or once render() was called
  State state_{};
  EnvKeys keys_;
  bool done_ = false;  // the last step ended the game (craftax's done)
  std::size_t achievements_at_ = 0;
  std::size_t score_at_ = 0;
  std::size_t discount_at_ = 0;
};

// craftax's EnvParams defaults; the chances as EnvPool writes them (0.1f, ...: read_params rounds to float32).
std::vector<Option> options() {
  const Params d;
  return {
      {"day_length", std::int64_t{d.day_length}, "Steps of a day-night cycle (craftax's EnvParams.day_length)."},
      {"always_diamond", d.always_diamond, "World generation places at least one diamond."},
      {"zombie_health", std::int64_t{d.zombie_health}, "A zombie's health when it spawns."},
      {"cow_health", std::int64_t{d.cow_health}, "A cow's health when it spawns."},
      {"skeleton_health", std::int64_t{d.skeleton_health}, "A skeleton's health when it spawns."},
      {"mob_despawn_distance", std::int64_t{d.mob_despawn_distance},
       "Mobs farther than this from the player (Manhattan distance) may despawn."},
      {"spawn_cow_chance", 0.1, "Chance per step that a cow spawns (taken as float32)."},
      {"spawn_zombie_base_chance", 0.02,
       "Chance per step that a zombie spawns in daylight (taken as float32)."},
      {"spawn_zombie_night_chance", 0.1,
       "Extra zombie spawn chance at full darkness, scaled by (1 - light)^2 (taken as float32)."},
      {"spawn_skeleton_chance", 0.05,
       "Chance per step that a skeleton spawns in a tunnel (taken as float32)."},
      {"auto_reset", false,
       "craftax's EnvironmentAutoReset keys (the -AutoReset- ids): a step steps with split(k)[0] of its key k "
       "and the reset after an ended episode uses split(k)[1]."},
      {"_textures_file", std::string(), "The texture file of the pixel renderer (set by the registration)."},
  };
}

}  // namespace

static const bool kRegistered =
    register_env_type({
        .name = "CraftaxClassicSymbolic",
        .options = options(),
        .spec = [](const Config& config) { return craftax_spec(config, false); },
        .create = make_env<CraftaxClassic>(false),
    }) &&
    register_env_type({
        .name = "CraftaxClassicPixels",
        .options = options(),
        .spec = [](const Config& config) { return craftax_spec(config, true); },
        .create = make_env<CraftaxClassic>(true),
    });

}  // namespace rlpool::craftax::classic
