// FrozenLake, matching gymnasium 1.4 FrozenLakeEnv: the 4x4 / 8x8 maps, a
// custom `desc`, slippery ice with gymnasium's `success_rate`.
#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"
#include "envs/toy_text/sprites.h"
#include "envs/toy_text/toy_text.h"

namespace rlpool::toy_text {
namespace {

// gymnasium's MAPS, rows joined by commas as the `desc` option spells them.
constexpr std::string_view kMap4x4 = "SFFF,FHFH,FFFH,HFFG";
constexpr std::string_view kMap8x8 =
    "SFFFFFFF,FFFFFFFF,FFFHFFFF,FFFFFHFF,FFFHFFFF,FHHFFFHF,FHFFHFHF,FFFHFFFG";
constexpr std::size_t kMaxCells = 1 << 20;

enum Move : std::int64_t { kLeft = 0, kDown = 1, kRight = 2, kUp = 3 };

struct Lake {
  std::int64_t nrow = 0;
  std::int64_t ncol = 0;
  std::string cells;                // row-major letters
  std::vector<std::int64_t> starts;  // the 'S' cells: the start is uniform over them
};

// The character of `desc` that starts at byte `i`, whole: a non-ASCII letter is
// several UTF-8 bytes, and a message holding only its first byte would not
// decode in Python (UnicodeDecodeError instead of the ValueError meant).
std::string char_at(std::string_view desc, std::size_t i) {
  std::size_t end = i + 1;
  while (end < desc.size() && (static_cast<unsigned char>(desc[end]) & 0xC0) == 0x80) ++end;
  return std::string(desc.substr(i, end - i));
}

Lake parse_desc(std::string_view desc) {
  // Letters first, over the whole text: row lengths count bytes, which only
  // mean tiles once every character is one of the four letters.
  for (std::size_t i = 0; i < desc.size(); ++i) {
    const char c = desc[i];
    if (c != 'S' && c != 'F' && c != 'H' && c != 'G' && c != ',') {
      throw std::invalid_argument("FrozenLake desc may only hold the letters S, F, H, G (rows joined by ','), got '" +
                                  char_at(desc, i) + "' in '" + std::string(desc) + "'");
    }
  }
  Lake lake;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = std::min(desc.find(',', begin), desc.size());
    const std::string_view row = desc.substr(begin, end - begin);
    if (row.empty()) throw std::invalid_argument("FrozenLake desc has an empty row: '" + std::string(desc) + "'");
    if (lake.nrow == 0) lake.ncol = static_cast<std::int64_t>(row.size());
    if (static_cast<std::int64_t>(row.size()) != lake.ncol) {
      throw std::invalid_argument("FrozenLake desc rows must all have the same length: '" + std::string(desc) + "'");
    }
    lake.cells += row;
    ++lake.nrow;
    if (lake.cells.size() > kMaxCells) throw std::invalid_argument("FrozenLake desc has more than 2**20 cells");
    if (end == desc.size()) break;
    begin = end + 1;
  }
  for (std::size_t i = 0; i < lake.cells.size(); ++i) {
    if (lake.cells[i] == 'S') lake.starts.push_back(static_cast<std::int64_t>(i));
  }
  if (lake.starts.empty()) throw std::invalid_argument("FrozenLake desc needs a start tile 'S'");
  return lake;
}

// gymnasium: desc if given, else map_name. `size` (EnvPool's option: 4 or 8)
// picks a predefined map and overrides map_name.
Lake lake_of(const Config& config) {
  const std::string& desc = config.get_string("desc");
  if (!desc.empty()) return parse_desc(desc);
  const std::int64_t size = config.get_int("size");
  std::string name = config.get_string("map_name");
  if (size != 0) {
    if (size != 4 && size != 8) {
      throw std::invalid_argument("FrozenLake option 'size' must be 4 or 8 (or 0: use map_name), got " +
                                  std::to_string(size));
    }
    name = size == 4 ? "4x4" : "8x8";
  }
  if (name == "4x4") return parse_desc(kMap4x4);
  if (name == "8x8") return parse_desc(kMap8x8);
  throw std::invalid_argument("FrozenLake map_name must be '4x4' or '8x8' (or give desc), got '" + name + "'");
}

// gymnasium's window: 64 pixels a cell, at most 512 a side.
int window_side(std::int64_t cells) { return static_cast<int>(std::min<std::int64_t>(64 * cells, 512)); }

double success_rate_of(const Config& config) { return config.get_double_in("success_rate", 0.0, 1.0); }

EnvSpec make_spec(const Config& config) {
  const Lake lake = lake_of(config);
  success_rate_of(config);
  return EnvSpec{
      .obs = {discrete("obs", static_cast<std::int64_t>(lake.cells.size()))},
      .action = discrete("action", 4),
      .info = {prob_info()},
      .render_width = window_side(lake.ncol),
      .render_height = window_side(lake.nrow),
      .render_fps = 4,
  };
}

class FrozenLake final : public Env {
 public:
  explicit FrozenLake(const Config& config)
      : lake_(lake_of(config)),
        slippery_(config.get_bool("is_slippery")),
        success_(success_rate_of(config)),
        fail_((1.0 - success_) / 2.0),
        prob_(info_index(make_spec(config).info, "prob")),
        images_(config.get_string("_images")) {}

  void reset(Rng& rng, const Output& out) override {
    const auto& starts = lake_.starts;
    s_ = starts.size() == 1 ? starts[0] : starts[rng.integer(starts.size())];
    write(out, 1.0);
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    const char letter = lake_.cells[static_cast<std::size_t>(s_)];
    if (letter == 'G' || letter == 'H') {  // gymnasium's terminal states loop on themselves
      *out.terminated = true;
      write(out, 1.0);
      return;
    }
    const std::int64_t a = action.discrete();
    std::int64_t move = a;
    double p = 1.0;
    if (slippery_) {
      // gymnasium's order: (a - 1) % 4, a, (a + 1) % 4.
      const std::int64_t moves[3] = {(a + 3) % 4, a, (a + 1) % 4};
      const double probs[3] = {fail_, success_, fail_};
      const std::size_t i = categorical(probs, 3, rng.uniform());
      move = moves[i];
      p = probs[i];
    }
    std::int64_t row = s_ / lake_.ncol;
    std::int64_t col = s_ % lake_.ncol;
    switch (move) {
      case kLeft: col = std::max<std::int64_t>(col - 1, 0); break;
      case kDown: row = std::min(row + 1, lake_.nrow - 1); break;
      case kRight: col = std::min(col + 1, lake_.ncol - 1); break;
      default: row = std::max<std::int64_t>(row - 1, 0); break;
    }
    s_ = row * lake_.ncol + col;
    const char next = lake_.cells[static_cast<std::size_t>(s_)];
    *out.reward = next == 'G' ? 1.0 : 0.0;  // gymnasium's reward_schedule (1, 0, 0)
    *out.terminated = next == 'G' || next == 'H';
    write(out, p);
  }

  std::string get_state() const override { return pod_state(s_); }
  void set_state(std::string_view bytes) override {
    s_ = load_index_state(bytes, static_cast<std::int64_t>(lake_.cells.size()));
  }

  // gymnasium's FrozenLakeEnv._render_gui: its images (sprites.h) scaled as
  // pygame.transform.scale does and blitted tile by tile, each cell outlined.
  void render(const Frame& frame) override {
    const int ncol = static_cast<int>(lake_.ncol), nrow = static_cast<int>(lake_.nrow);
    const int cw = window_side(ncol) / ncol, ch = window_side(nrow) / nrow;
    draw::Image img(window_side(ncol), window_side(nrow));
    if (cw > 0 && ch > 0) draw_cells(img, cw, ch);
    img.write_rgb(frame.rgb);
  }

 private:
  void draw_cells(draw::Image& img, int cw, int ch) const {
    const auto tile = [&](const draw::Sprite& sprite) {
      return draw::scale_nearest(draw::load(images_, sprite), cw, ch);
    };
    // Overlays keep their proportions (drawn for a 64-pixel cell); Python's round() is half-even.
    const double scale = std::min(cw, ch) / 64.0;
    const auto overlay = [&](const draw::Sprite& sprite) {
      const draw::Pixels& image = draw::load(images_, sprite);
      const int w = std::max(1, static_cast<int>(std::nearbyint(image.width * scale)));
      const int h = std::max(1, static_cast<int>(std::nearbyint(image.height * scale)));
      return draw::scale_nearest(image, w, h);
    };
    const draw::Pixels ice = tile(sprites::kLakeIce), hole = tile(sprites::kLakeHole);
    const draw::Pixels cracks[2] = {tile(sprites::kLakeCrackA), tile(sprites::kLakeCrackB)};
    const draw::Pixels agent = overlay(sprites::kLakeAgent), flag = overlay(sprites::kLakeFlag);
    const draw::Pixels letter_s = overlay(sprites::kLakeLetterS), letter_g = overlay(sprites::kLakeLetterG);
    const int margin = static_cast<int>(std::nearbyint(cw * 0.06));
    const int flag_lift = static_cast<int>(std::nearbyint(ch * 0.12));
    // blit() of a float position truncates it.
    const auto centred_x = [&](int cx, const draw::Pixels& p) { return static_cast<int>(cx + (cw - p.width) / 2.0); };
    const std::uint32_t outline = draw::rgb(180, 200, 230);
    const int ncol = static_cast<int>(lake_.ncol), nrow = static_cast<int>(lake_.nrow);
    for (int y = 0; y < nrow; ++y) {
      for (int x = 0; x < ncol; ++x) {
        const int cx = x * cw, cy = y * ch;
        const char letter = lake_.cells[static_cast<std::size_t>(y) * ncol + x];
        if (letter == 'H') {
          draw::blit(img, hole, cx, cy);
        } else {
          draw::blit(img, ice, cx, cy);
          if (letter == 'F') {
            const int crack = (x * 3 + y * 5) % 7;  // gymnasium's fixed scatter of cracks
            if (crack < 2) draw::blit(img, cracks[crack], cx, cy);
          } else if (letter == 'S') {
            draw::blit(img, letter_s, cx + margin, cy + margin);
          } else if (letter == 'G') {
            draw::blit(img, flag, centred_x(cx, flag), cy + ch - flag.height - flag_lift);
            draw::blit(img, letter_g, cx + margin, cy + margin);
          }
        }
        // pygame.draw.rect(..., width=1): the cell's outline.
        draw::hline(img, cx, cx + cw - 1, cy, outline);
        draw::hline(img, cx, cx + cw - 1, cy + ch - 1, outline);
        draw::vline(img, cx, cy, cy + ch - 1, outline);
        draw::vline(img, cx + cw - 1, cy, cy + ch - 1, outline);
      }
    }
    const std::int64_t row = s_ / lake_.ncol, col = s_ % lake_.ncol;
    if (lake_.cells[static_cast<std::size_t>(s_)] != 'H') {  // an agent in a hole is hidden by it
      const int cx = static_cast<int>(col) * cw, cy = static_cast<int>(row) * ch;
      draw::blit(img, agent, centred_x(cx, agent), static_cast<int>(cy + (ch - agent.height) / 2.0));
    }
  }

  void write(const Output& out, double p) const {
    *out.obs_as<std::int64_t>() = s_;
    *out.info_as<double>(prob_) = p;
  }

  const Lake lake_;
  bool slippery_;
  double success_;
  double fail_;
  std::size_t prob_;  // info entry
  std::int64_t s_ = 0;  // gymnasium's env.unwrapped.s: row * ncol + col
  std::string images_;  // the _images option: where draw::load finds gymnasium's images
};

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "FrozenLake",
    .options =
        {
            {"map_name", std::string("4x4"), "predefined map: '4x4' or '8x8' (used when desc is empty)"},
            {"desc", std::string(""),
             "custom map, rows joined by commas, e.g. 'SFFF,FHFH,FFFH,HFFG' (S start, F frozen, H hole, G goal)"},
            {"size", std::int64_t{0}, "EnvPool's map choice: 4 or 8 picks that predefined map; 0 uses map_name"},
            {"is_slippery", true, "move in the intended direction with probability success_rate, else sideways"},
            {"success_rate", 1.0 / 3.0, "probability of the intended move on slippery ice"},
            {"_images", std::string(), "gymnasium's images, decoded (set by rlpool.images)"},
        },
    .spec = make_spec,
    .create = make_env<FrozenLake>(),
});

}  // namespace rlpool::toy_text
