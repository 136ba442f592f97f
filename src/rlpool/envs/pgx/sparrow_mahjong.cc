// SparrowMahjong, as pgx 2.6.0 plays it (pgx/sparrow_mahjong.py): three
// players, 44 tiles (bamboo 1..9 and the green and red dragons, four of each;
// tile id t is of type t / 4; one of each bamboo is a red dora, id 4k, and all
// four red dragons are). pgx shuffles the seating (a uniform permutation of
// the players: seat 0 deals) and the wall (a uniform permutation of the 44
// ids); seats 0, 1, 2 get wall[0..5), [5..10), [10..15), the dealer draws
// wall[15], the dora is wall[43]'s type. pgx redeals while the dealer's six
// tiles are a complete hand (no tenhou); rlpool draws both permutations from
// its rng (Fisher-Yates) and redeals the same way, so its deals follow pgx's
// distribution. The wall is the only chance and is drawn at the start.
//
// A move discards a tile type from the mover's hand (11 actions; legal: the
// types in hand). After the discard another player whose hand the tile
// completes (two sets: triplets, or bamboo runs) wins by ron unless the tile
// is in their own river (furiten) or the hand scores under 5; otherwise, when
// the wall is down to its dora the game is a draw, and otherwise the next seat
// draws and wins at once by tsumo with a complete hand. Scores (pgx's
// BASE_SCORES and YAKU_SCORES tables by the hand's index in WIN_HANDS, doras,
// red doras, the dealer's +2) are paid to/by the players and divided by 26
// (in float32, times the reciprocal, as pgx's XLA computes it).
//
// pgx's own quirks, kept: the dealer's first drawn tile never counts as a red
// dora; pgx's tsumo check reads the hand of seat min(turn, 2) (a JAX gather
// clamps the index), so after the first round only seat 2 wins by tsumo; the
// discarder's own hand is excluded from ron by furiten.
//
// Observation (11 tile types x 15 features, bool), from the player's seat:
// hand counts >= 1..4, has a red dora of the type, the dora, the types in the
// own, next and after-next seats' rivers, the next seat's last three
// discards, the after-next seat's last three. An illegal discard (a type not
// in hand) is played as pgx's _step plays it before the penalty -- the count
// goes to -1, the river takes the tile, and the game goes on to the ron check
// and the next draw -- so the state it shows is pgx's.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "envs/pgx/pgx_env.h"

namespace rlpool::pgx {

namespace {

constexpr int kPlayers = 3;
constexpr int kTiles = 44;
constexpr int kTypes = 11;
constexpr int kRiver = 10;
constexpr int kFeatures = 15;
constexpr int kMaxScore = 26;

// pgx's WIN_HANDS: the complete six-tile hands as base-5 numbers (type 0 the
// most significant digit), ascending; BASE_SCORES and YAKU_SCORES by index.
constexpr std::array<std::int32_t, 160> kWinHands = {
18, 78, 90, 378, 390, 450, 778, 790, 850, 1150,
    1550, 1878, 1890, 1950, 2250, 2650, 3878, 3890, 3950, 4250,
    4650, 5750, 7750, 9378, 9390, 9450, 9750, 10150, 11250, 13250,
    19378, 19390, 19450, 19750, 20150, 21250, 23250, 28750, 38750, 46878,
    46890, 46950, 47250, 47650, 48750, 50750, 56250, 66250, 96878, 96890,
    96950, 97250, 97650, 98750, 100750, 106250, 116250, 143750, 193750, 234378,
    234390, 234450, 234750, 235150, 236250, 238250, 243750, 253750, 281250, 331250,
    484378, 484390, 484450, 484750, 485150, 486250, 488250, 493750, 503750, 531250,
    581250, 718750, 968750, 1171878, 1171890, 1171950, 1172250, 1172650, 1173750, 1175750,
    1181250, 1191250, 1218750, 1268750, 1406250, 1656250, 2421878, 2421890, 2421950, 2422250,
    2422650, 2423750, 2425750, 2431250, 2441250, 2468750, 2518750, 2656250, 2906250, 3593750,
    4843750, 5859378, 5859390, 5859450, 5859750, 5860150, 5861250, 5863250, 5868750, 5878750,
    5906250, 5956250, 6093750, 6343750, 7031250, 8281250, 12109378, 12109390, 12109450, 12109750,
    12110150, 12111250, 12113250, 12118750, 12128750, 12156250, 12206250, 12343750, 12593750, 13281250,
    14531250, 17968750, 24218750, 29296878, 29296890, 29296950, 29297250, 29297650, 29298750, 29300750,
    29306250, 29316250, 29343750, 29393750, 29531250, 29781250, 30468750, 31718750, 35156250, 41406250
};
constexpr std::array<std::int8_t, 160> kBaseScores = {
    4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 2, 4, 4, 4, 4, 3, 3, 3, 3, 3, 2, 3, 2, 4, 4, 4, 4, 3, 4, 3, 3, 3, 3, 3, 2, 3, 2, 3, 2, 4,
    4, 4, 4, 3, 4, 3, 4, 3, 3, 3, 3, 3, 2, 3, 2, 3, 2, 3, 2, 4, 4, 4, 4, 3, 4, 3, 4, 3, 4, 3, 3, 3, 3, 3, 2, 3, 2, 3, 2, 3,
    2, 3, 2, 4, 4, 4, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 3, 3, 3, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 4, 4, 4, 4, 3, 4, 3, 4, 3,
    4, 3, 4, 3, 4, 3, 3, 3, 3, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 4, 4, 4, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3
};
constexpr std::array<std::int8_t, 160> kYakuScores = {
    15, 15, 15, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 10, 0, 10, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 0,
    0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 0, 10, 0, 10, 0, 1, 1, 10, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1,
    1, 1, 1, 0, 10, 0, 10, 0, 1, 1, 10, 1, 1, 1, 10, 1, 0, 10, 0, 10, 0, 1, 1, 10, 1, 1, 1, 10, 1, 10, 10, 0, 10, 0, 10, 0, 1, 1, 10, 1,
    1, 1, 10, 1, 10, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15, 15, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

constexpr std::array<std::int32_t, kTypes> kPow5 = {9765625, 1953125, 390625, 78125, 15625, 3125, 625, 125, 25, 5, 1};

constexpr bool is_red(int tile) { return (tile % 4 == 0 && tile != 36) || tile >= 40; }

// The index of `hand` in kWinHands, or -1 when it is not a complete hand.
int win_index(const std::int8_t* hand) {
  std::int32_t code = 0;
  for (int t = 0; t < kTypes; ++t) code += hand[t] * kPow5[t];
  const auto* it = std::lower_bound(kWinHands.begin(), kWinHands.end(), code);
  return it != kWinHands.end() && *it == code ? static_cast<int>(it - kWinHands.begin()) : -1;
}

class SparrowMahjong final : public PgxEnv {
 public:
  explicit SparrowMahjong(const Config& /*config*/) : PgxEnv(shape()) {}

  static GameShape shape() {
    return {.num_players = kPlayers, .num_actions = kTypes, .obs_dtype = DType::kBool, .obs_shape = {kTypes, kFeatures}};
  }

 protected:
  void new_game(Rng& rng) override {
    do {
      deal(rng);
    } while (tsumo_seat() >= 0);  // pgx redeals a tenhou
    current_player_ = s_.seats[0];
  }

  void play(int action, Rng& /*rng*/) override {
    const int seat = s_.turn % kPlayers;
    auto& hand = s_.hands[seat];
    auto& red = s_.n_red[seat];
    --hand[action];
    if (hand[action] < red[action]) --red[action];
    s_.rivers[seat][s_.turn / kPlayers] = static_cast<std::int8_t>(action);
    s_.last_discard = static_cast<std::int8_t>(action);

    // Ron: every other seat the tile completes, outside furiten, scoring 5 or more.
    std::array<int, kPlayers> scores{};
    bool ron = false;
    for (int i = 0; i < kPlayers; ++i) {
      if (in_river(i, action)) continue;  // furiten (the discarder always: the tile is in its river)
      std::array<std::int8_t, kTypes> with = s_.hands[i];
      ++with[action];
      const int ix = win_index(with.data());
      if (ix < 0) continue;
      const int score = hand_score(i);
      if (score < 5) continue;
      scores[i] = score + (i == 0 ? 2 : 0);
      ron = true;
    }
    if (ron) {
      scores[seat] = -(scores[0] + scores[1] + scores[2]);
      pay(scores);
      terminated_ = true;
      return;
    }
    if (s_.draw_ix >= kTiles - 1) {  // a draw: only the dora is left
      terminated_ = true;
      return;
    }
    // The next seat draws.
    ++s_.turn;
    const int next = s_.turn % kPlayers;
    current_player_ = s_.seats[next];
    const int tile = s_.wall[s_.draw_ix++];
    ++s_.hands[next][tile / 4];
    if (is_red(tile)) ++s_.n_red[next][tile / 4];
    const int winner = tsumo_seat();
    if (winner >= 0) {
      const int won = hand_score(winner) + (winner == 0 ? 2 : 0);
      const int loss = (won + kPlayers - 2) / (kPlayers - 1);  // ceil(won / 2)
      std::array<int, kPlayers> paid{};
      paid.fill(-loss);
      paid[next] = loss * (kPlayers - 1);
      pay(paid);
      terminated_ = true;
    }
  }

  // pgx's _step discards a type not in hand too (its count goes to -1).
  void play_illegal(int action, Rng& rng) override { play(action, rng); }

  void legal_actions(bool* mask) const override {
    const auto& hand = s_.hands[s_.turn % kPlayers];
    for (int t = 0; t < kTypes; ++t) mask[t] = hand[t] > 0;
  }

  void observe(int player, void* dst) const override {
    int seat = 0;
    while (s_.seats[seat] != player) ++seat;
    std::array<std::array<bool, kTypes>, kFeatures> f{};
    const auto& hand = s_.hands[seat];
    for (int t = 0; t < kTypes; ++t) {
      for (int k = 0; k < 4; ++k) f[k][t] = hand[t] >= k + 1;
      f[4][t] = s_.n_red[seat][t] >= 1;
    }
    f[5][s_.dora] = true;
    for (int r = 0; r < kPlayers; ++r) {
      const auto& river = s_.rivers[(seat + r) % kPlayers];
      int n = 0;
      for (; n < kRiver && river[n] >= 0; ++n) f[6 + r][river[n]] = true;
      if (r == 0) continue;
      const int base = r == 1 ? 9 : 12;
      for (int k = 0; k < 3 && n - 1 - k >= 0; ++k) f[base + k][river[n - 1 - k]] = true;
    }
    auto* out = static_cast<bool*>(dst);
    for (int t = 0; t < kTypes; ++t) {
      for (int k = 0; k < kFeatures; ++k) out[t * kFeatures + k] = f[k][t];
    }
  }

  std::string save() const override { return pod_state(s_); }

  void load(std::string_view bytes) override {
    State s{};
    load_pod_state(bytes, s);
    auto check = [](int value, int low, int high, const char* field) { check_range(value, low, high, field, "holds"); };
    // -1: a type discarded by an illegal move (the game is over then).
    for (const auto& hand : s.hands) {
      for (auto n : hand) check(n, -1, 4, "hands");
    }
    for (const auto& red : s.n_red) {
      for (auto n : red) check(n, -1, 4, "n_red");
    }
    for (const auto& river : s.rivers) {
      bool open = true;
      for (auto t : river) {
        check(t, -1, kTypes - 1, "rivers");
        if (t >= 0 && !open) throw std::invalid_argument("state's rivers have a gap, expected each one filled from the start");
        open = open && t >= 0;
      }
    }
    std::array<bool, kTiles> seen{};
    for (auto tile : s.wall) {
      check(tile, 0, kTiles - 1, "wall");
      if (seen[tile]) throw std::invalid_argument("state's wall holds tile " + std::to_string(tile) + " twice");
      seen[tile] = true;
    }
    std::array<bool, kPlayers> seated{};
    for (auto p : s.seats) {
      check(p, 0, kPlayers - 1, "seats");
      if (seated[p]) throw std::invalid_argument("state's seats hold player " + std::to_string(p) + " twice");
      seated[p] = true;
    }
    check(s.turn, 0, kTiles - 1 - kPlayers * 5 - 1, "turn");
    check(s.draw_ix, s.turn + kPlayers * 5 + 1, s.turn + kPlayers * 5 + 1, "draw_ix");  // one draw a turn
    check(s.last_discard, -1, kTypes - 1, "last_discard");
    check(s.dora, s.wall[kTiles - 1] / 4, s.wall[kTiles - 1] / 4, "dora");  // the last tile's type
    s_ = s;
  }

 private:
  void deal(Rng& rng) {
    s_ = State{};
    for (int i = 0; i < kPlayers; ++i) s_.seats[i] = static_cast<std::int8_t>(i);
    for (int i = kPlayers - 1; i > 0; --i) std::swap(s_.seats[i], s_.seats[rng.integer(static_cast<std::uint64_t>(i + 1))]);
    for (int i = 0; i < kTiles; ++i) s_.wall[i] = static_cast<std::int8_t>(i);
    for (int i = kTiles - 1; i > 0; --i) std::swap(s_.wall[i], s_.wall[rng.integer(static_cast<std::uint64_t>(i + 1))]);
    s_.dora = static_cast<std::int8_t>(s_.wall[kTiles - 1] / 4);
    for (int i = 0; i < kPlayers * 5; ++i) {
      const int tile = s_.wall[i];
      ++s_.hands[i / 5][tile / 4];
      if (is_red(tile)) ++s_.n_red[i / 5][tile / 4];
    }
    ++s_.hands[0][s_.wall[kPlayers * 5] / 4];  // pgx counts the dealer's first draw, but never as a red dora
    s_.draw_ix = kPlayers * 5 + 1;
  }

  bool in_river(int seat, int type) const {
    for (auto t : s_.rivers[seat]) {
      if (t == type) return true;
    }
    return false;
  }

  // The seat that wins by tsumo now, or -1: pgx checks seat min(turn, 2).
  int tsumo_seat() const {
    const int seat = std::min<int>(s_.turn, kPlayers - 1);
    return win_index(s_.hands[seat].data()) >= 0 && hand_score(seat) >= 0 ? seat : -1;
  }

  // pgx's _hands_to_score for one seat: a five-tile hand takes the last discard
  // (index -1 wraps to the last type, as JAX's does).
  int hand_score(int seat) const {
    std::array<std::int8_t, kTypes> hand = s_.hands[seat];
    int tiles = 0;
    for (auto n : hand) tiles += n;
    if (tiles == 5) ++hand[(s_.last_discard + kTypes) % kTypes];
    // pgx takes the nearest complete hand (argmin, the first of equals): the
    // hand itself, as only complete ones get here; the scan is a fallback.
    int ix = win_index(hand.data());
    if (ix < 0) {
      std::int32_t code = 0;
      for (int t = 0; t < kTypes; ++t) code += hand[t] * kPow5[t];
      ix = 0;
      for (int i = 1; i < static_cast<int>(kWinHands.size()); ++i) {
        if (std::abs(kWinHands[i] - code) < std::abs(kWinHands[ix] - code)) ix = i;
      }
    }
    const int base = kBaseScores[ix];
    int yaku = kYakuScores[ix];
    int reds = 0;
    for (auto n : s_.n_red[seat]) reds += n;
    if (reds >= 6) yaku = 20;  // "super red"
    return yaku >= 10 ? base + yaku : base + yaku + hand[s_.dora] + reds;
  }

  // Seat scores -> rewards by player, over pgx's MAX_SCORE in float32 (XLA
  // divides by a constant as a product with its float32 reciprocal).
  void pay(const std::array<int, kPlayers>& scores) {
    constexpr float kScale = 1.0f / static_cast<float>(kMaxScore);
    for (int i = 0; i < kPlayers; ++i) rewards_[s_.seats[i]] = static_cast<double>(static_cast<float>(scores[i]) * kScale);
  }

  struct State {
    std::array<std::array<std::int8_t, kTypes>, kPlayers> hands{};  // by seat (0 deals): tiles of each type
    std::array<std::array<std::int8_t, kTypes>, kPlayers> n_red{};  // red doras among them
    std::array<std::array<std::int8_t, kRiver>, kPlayers> rivers = {{
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
        {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
    }};  // discarded types in order, -1 after the last
    std::array<std::int8_t, kTiles> wall{};  // tile ids 0..43
    std::array<std::int8_t, kPlayers> seats{0, 1, 2};  // the player in each seat (pgx's _shuffled_players)
    std::int8_t turn = 0;                  // discards so far; seat turn % 3 moves
    std::int8_t last_discard = -1;         // type, -1 before the first discard
    std::int8_t draw_ix = kPlayers * 5 + 1;  // the next tile of the wall
    std::int8_t dora = 0;                  // the dora's type
  };
  State s_;
};

const bool registered = register_game<SparrowMahjong>("SparrowMahjong");

}  // namespace

}  // namespace rlpool::pgx
