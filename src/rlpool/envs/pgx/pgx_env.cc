// PgxEnv (pgx_env.h): pgx's Env.step around a game's rules -- the illegal-move
// penalty, the terminal mask, and the per-player outputs.
#include "envs/pgx/pgx_env.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace rlpool::pgx {

namespace {

// The header of a state blob, before the game's own bytes.
// No implicit padding: every byte of a saved state is defined.
struct Header {
  std::array<double, kMaxPlayers> rewards;
  std::int32_t current_player;
  std::uint8_t terminated;
  std::uint8_t truncated;
  std::array<std::uint8_t, 2> unused;
};
static_assert(sizeof(Header) == 8 * kMaxPlayers + 8);

}  // namespace

void check_range(long long value, long long low, long long high, const char* field, const char* verb) {
  if (value < low || value > high) {
    throw std::invalid_argument(std::string("state's ") + field + " " + verb + " " + std::to_string(value) +
                                ", expected " + std::to_string(low) + ".." + std::to_string(high));
  }
}

EnvSpec game_spec(const GameShape& shape) {
  if (shape.num_players < 1 || shape.num_players > kMaxPlayers) {
    throw std::logic_error("a pgx game has 1.." + std::to_string(kMaxPlayers) + " players");
  }
  EnvSpec spec;
  std::vector<std::int64_t> obs_shape = shape.obs_shape;
  if (shape.num_players > 1) obs_shape.insert(obs_shape.begin(), shape.num_players);
  const bool flags = shape.obs_dtype == DType::kBool;
  spec.obs = {ArraySpec{.name = "obs",
                        .dtype = shape.obs_dtype,
                        .shape = obs_shape,
                        .low = flags ? std::vector<double>{0.0} : std::vector<double>{},
                        .high = flags ? std::vector<double>{1.0} : std::vector<double>{}}};
  spec.action = ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {double(shape.num_actions - 1)}};
  spec.info = {ArraySpec{.name = "current_player", .dtype = DType::kInt32},
               ArraySpec{.name = "legal_action_mask", .dtype = DType::kBool, .shape = {shape.num_actions}}};
  spec.info.insert(spec.info.end(), shape.extra_info.begin(), shape.extra_info.end());
  if (shape.num_players > 1) {
    spec.num_agents = shape.num_players;
    spec.turn_based = true;
  }
  return spec;
}

PgxEnv::PgxEnv(GameShape shape)
    : shape_(std::move(shape)), legal_(std::make_unique<bool[]>(static_cast<std::size_t>(shape_.num_actions))) {
  std::int64_t n = 1;
  for (auto d : shape_.obs_shape) n *= d;
  obs_player_bytes_ = static_cast<std::size_t>(n) * dtype_size(shape_.obs_dtype);
}

void PgxEnv::refresh_mask() {
  if (terminated_) {
    std::fill_n(legal_.get(), num_actions(), true);
  } else {
    legal_actions(legal_.get());
  }
}

void PgxEnv::reset(Rng& rng, const Output& out) {
  rewards_.fill(0.0);
  terminated_ = truncated_ = false;
  new_game(rng);
  refresh_mask();
  write(out);
}

void PgxEnv::step(const Action& action, Rng& rng, const Output& out) {
  const auto a = action.discrete();
  const int mover = current_player_;
  rewards_.fill(0.0);
  if (terminated_ || truncated_) {
    // pgx returns the same state with zero rewards (the engine resets a finished
    // game before stepping it, so only a restored terminal state gets here).
  } else if (!legal_[a]) {
    play_illegal(static_cast<int>(a), rng);
    const double penalty = illegal_action_penalty();
    for (int p = 0; p < num_players(); ++p) rewards_[p] = -penalty * (num_players() - 1);
    rewards_[mover] = penalty;
    terminated_ = true;
  } else {
    play(static_cast<int>(a), rng);
  }
  refresh_mask();
  write(out);
}

void PgxEnv::write(const Output& out) const {
  auto* obs = static_cast<std::uint8_t*>(out.obs[0]);
  for (int p = 0; p < num_players(); ++p) observe(p, obs + static_cast<std::size_t>(p) * obs_player_bytes_);
  for (int p = 0; p < num_players(); ++p) {
    out.reward[p] = rewards_[p];
    out.terminated[p] = terminated_;
    if (out.truncated != nullptr) out.truncated[p] = truncated_ && !terminated_;
  }
  *out.info_as<std::int32_t>(0) = current_player_;
  std::copy_n(legal_.get(), num_actions(), out.info_as<bool>(1));
  write_info(out);
}

std::string PgxEnv::get_state() const {
  const Header h{rewards_, current_player_, terminated_, truncated_, {}};
  return pod_state(h) + save();
}

void PgxEnv::set_state(std::string_view state) {
  if (state.size() < sizeof(Header)) {
    throw std::invalid_argument("state has " + std::to_string(state.size()) + " bytes, expected at least " +
                                std::to_string(sizeof(Header)));
  }
  Header h{};
  std::memcpy(&h, state.data(), sizeof(Header));
  if (h.current_player < 0 || h.current_player >= num_players()) {
    throw std::invalid_argument("state's current_player is " + std::to_string(h.current_player) + ", expected 0.." +
                                std::to_string(num_players() - 1));
  }
  if (h.terminated > 1 || h.truncated > 1) throw std::invalid_argument("state's terminated/truncated is not a bool");
  for (double r : h.rewards) {
    if (!std::isfinite(r)) throw std::invalid_argument("state's rewards are not finite");
  }
  load(state.substr(sizeof(Header)));  // checks and throws before changing anything
  current_player_ = h.current_player;
  terminated_ = h.terminated != 0;
  truncated_ = h.truncated != 0;
  rewards_ = h.rewards;
  refresh_mask();
}

}  // namespace rlpool::pgx
