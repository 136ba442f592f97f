// Blackjack, matching gymnasium 1.4 BlackjackEnv (Sutton & Barto, example
// 5.1): an infinite deck, the `natural` and `sab` rules, and the observation
// (player sum, dealer's showing card, usable ace) as a tuple of Discretes.

#include <string>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"
#include "envs/toy_text/toy_text.h"

namespace rlpool::toy_text {
namespace {

constexpr int kDeck[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};
// The largest raw sums a game can reach: the player hits from at most 21, the
// dealer draws from at most 16 (a card is worth at most 10).
constexpr int kMaxPlayerRaw = 31;
constexpr int kMaxDealerRaw = 26;
// Room for any hand reachable from a state set_state accepts: one more card
// than the most (aces) that fit in kMaxPlayerRaw.
constexpr int kMaxCards = kMaxPlayerRaw + 1;

struct Hand {
  std::uint8_t n = 0;
  std::uint8_t cards[kMaxCards] = {};

  int raw_sum() const {
    int sum = 0;
    for (int i = 0; i < n; ++i) sum += cards[i];
    return sum;
  }
  bool has_ace() const {
    for (int i = 0; i < n; ++i) {
      if (cards[i] == 1) return true;
    }
    return false;
  }
  bool usable_ace() const { return has_ace() && raw_sum() + 10 <= 21; }
  int total() const { return usable_ace() ? raw_sum() + 10 : raw_sum(); }  // gymnasium's sum_hand
  int score() const { return total() > 21 ? 0 : total(); }
  bool natural() const { return n == 2 && ((cards[0] == 1 && cards[1] == 10) || (cards[0] == 10 && cards[1] == 1)); }
  void draw(Rng& rng) { cards[n++] = static_cast<std::uint8_t>(kDeck[rng.integer(13)]); }
};

class Blackjack final : public Env {
 public:
  explicit Blackjack(const Config& config)
      : natural_(config.get_bool("natural")), sab_(config.get_bool("sab")), images_(config.get_string("_images")) {}

  void reset(Rng& rng, const Output& out) override {
    state_ = State{};
    // gymnasium's order: the dealer's two cards, then the player's.
    state_.dealer.draw(rng);
    state_.dealer.draw(rng);
    state_.player.draw(rng);
    state_.player.draw(rng);
    // How the dealer's face-up card looks (gymnasium draws these after the
    // deal, for render() only): its suit, and for a 10 which of J, Q, K.
    state_.suit = static_cast<std::uint8_t>(rng.integer(4));
    state_.face = state_.dealer.cards[0] == 10 ? static_cast<std::uint8_t>(rng.integer(3)) : 0;
    write(out);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    Hand& player = state_.player;
    Hand& dealer = state_.dealer;
    if (action.discrete() == 1) {  // hit
      player.draw(rng);
      const bool bust = player.total() > 21;
      *out.terminated = bust;
      *out.reward = bust ? -1.0 : 0.0;
    } else {  // stick: the dealer plays out their hand
      *out.terminated = true;
      while (dealer.total() < 17) dealer.draw(rng);
      const int mine = player.score();
      const int theirs = dealer.score();
      double reward = mine > theirs ? 1.0 : mine < theirs ? -1.0 : 0.0;
      if (sab_ && player.natural() && !dealer.natural()) {
        reward = 1.0;
      } else if (!sab_ && natural_ && player.natural() && reward == 1.0) {
        reward = 1.5;
      }
      *out.reward = reward;
    }
    write(out);
  }

  std::string get_state() const override { return pod_state(state_); }
  void set_state(std::string_view bytes) override {
    State state;
    load_pod_state(bytes, state);
    check_hand(state.player, "player", kMaxPlayerRaw);
    check_hand(state.dealer, "dealer", kMaxDealerRaw);
    if (state.suit > 3) throw std::invalid_argument("Blackjack dealer card suit must be 0..3 (C, D, H, S)");
    if (state.face > (state.dealer.cards[0] == 10 ? 2 : 0)) {
      throw std::invalid_argument("Blackjack dealer card face must be 0..2 (J, Q, K) for a 10, else 0");
    }
    state_ = state;
  }

 private:
  // Hands a game can reach (so every get_state round-trips): 1 or more cards
  // of 1..10 whose raw sum is at most `max_raw`; unused slots are 0.
  static void check_hand(const Hand& hand, const char* who, int max_raw) {
    const std::string name = std::string("Blackjack ") + who + " hand";
    if (hand.n < 1 || hand.n > max_raw) {
      throw std::invalid_argument(name + " must hold 1.." + std::to_string(max_raw) + " cards, got " +
                                  std::to_string(hand.n));
    }
    for (int i = 0; i < kMaxCards; ++i) {
      const int c = hand.cards[i];
      if (i < hand.n ? (c < 1 || c > 10) : c != 0) {
        throw std::invalid_argument(name + ": card " + std::to_string(i) + " is " + std::to_string(c) +
                                    "; cards are 1..10 and unused slots 0");
      }
    }
    if (hand.raw_sum() > max_raw) {
      throw std::invalid_argument(name + " has raw sum " + std::to_string(hand.raw_sum()) +
                                  ", more than a game reaches (" + std::to_string(max_raw) + ")");
    }
  }

  void write(const Output& out) const {
    *out.obs_as<std::int64_t>(0) = state_.player.total();
    *out.obs_as<std::int64_t>(1) = state_.dealer.cards[0];
    *out.obs_as<std::int64_t>(2) = state_.player.usable_ace() ? 1 : 0;
  }

  // gymnasium's draw_table: its images (gymnasium's img/blackjack, read from
  // the installed package) on the felt, at its positions.
  void render(const Frame& frame) override {
    constexpr int kWidth = 384, kHeight = 376, kArt = 4;  // SCREEN_SIZE; positions are multiples of ART_PIXEL
    draw::Image img(kWidth, kHeight);
    const auto image = [&](const std::string& name) -> const draw::Pixels& {
      const std::string file = "envs/toy_text/img/blackjack/" + name + ".png";
      return draw::load(images_, draw::Sprite{file.c_str()});
    };
    const auto digits = [&](int number, const char* size, int gap, int x, int y) {
      for (char c : std::to_string(number)) {
        const draw::Pixels& d = image(std::string("digit_") + size + "_" + c);
        draw::blit(img, d, x, y);
        x += d.width + gap;
      }
    };
    const auto centred_x = [](int width) { return (kWidth - width) / 2 / kArt * kArt; };
    img.fill(draw::rgb(196, 216, 158));  // FELT_COLOR
    const draw::Pixels& dealer_label = image("label_dealer");
    draw::blit(img, dealer_label, 40, 32);
    const int dealer_card = state_.dealer.cards[0];
    digits(dealer_card, "small", 4, 40 + dealer_label.width + 12, 32);
    const std::string value = dealer_card == 1 ? "A" : dealer_card == 10 ? std::string(1, "JQK"[state_.face])
                                                                          : std::to_string(dealer_card);
    draw::blit(img, image("card_" + value + "CDHS"[state_.suit]), 96, 72);
    draw::blit(img, image("card_back"), 208, 72);
    draw::blit(img, image("label_player"), 40, 208);
    const int sum = state_.player.total();
    const int n = static_cast<int>(std::to_string(sum).size());
    const int sum_width = n * image("digit_big_0").width + (n - 1) * 12;
    digits(sum, "big", 12, centred_x(sum_width), 248);
    if (state_.player.usable_ace()) {
      const draw::Pixels& ace = image("label_usable_ace");
      draw::blit(img, ace, centred_x(ace.width), 328);
    }
    img.write_rgb(frame.rgb);
  }

  // Byte layout for get_state/set_state: player (count, 32 cards), dealer,
  // then the look of the dealer's face-up card (suit 0..3; for a 10, J/Q/K 0..2).
  struct State {
    Hand player;
    Hand dealer;
    std::uint8_t suit = 0;
    std::uint8_t face = 0;
  };
  static_assert(sizeof(State) == 2 * (1 + kMaxCards) + 2);  // no padding: plain bytes
  bool natural_;
  bool sab_;
  std::string images_;  // the _images option: where draw::load finds gymnasium's images
  State state_;
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "Blackjack",
    .options =
        {
            {"natural", false, "a natural blackjack pays 1.5 (when sab is false)"},
            {"sab", true, "Sutton & Barto's rules: a natural beats any non-natural dealer hand (overrides natural)"},
            {"_images", std::string(), "gymnasium's images, decoded (set by rlpool.images)"},
        },
    .spec =
        [](const Config&) {
          return EnvSpec{
              .obs = {discrete("player_sum", 32), discrete("dealer_card", 11), discrete("usable_ace", 2)},
              .obs_kind = ObsKind::kTuple,
              .action = discrete("action", 2),
              .info = {},
              .render_width = 384,  // gymnasium's SCREEN_SIZE and render_fps
              .render_height = 376,
              .render_fps = 4.0,
          };
        },
    .create = make_env<Blackjack>(),
});

}  // namespace rlpool::toy_text
