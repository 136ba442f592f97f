// Pixel observations (pixels.h): the spec of a from_pixels env and the
// PixelObservation wrapper that renders, transposes and stacks its frames.
#include "_core/gfx/pixels.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "_core/gfx/resize.h"

namespace rlpool {

namespace {

constexpr int kDefaultSize = 84;  // EnvPool's and DrQ's pixel observation size

struct PixelConfig {
  int width, height, stack, camera;

  explicit PixelConfig(const Config& c)
      : width(c.has("render_width") && c.get_int("render_width") > 0 ? static_cast<int>(c.get_int("render_width"))
                                                                     : kDefaultSize),
        height(c.has("render_height") && c.get_int("render_height") > 0
                   ? static_cast<int>(c.get_int("render_height"))
                   : kDefaultSize),
        stack(static_cast<int>(c.get_int_in("frame_stack", 1, 64))),
        camera(c.has("render_camera_id") ? static_cast<int>(c.get_int("render_camera_id")) : -1) {}

  std::size_t frame_bytes() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3; }
};

EnvSpec pixel_spec(EnvSpec spec, const PixelConfig& p) {
  // Only envs that draw at any size (MuJoCo's renderer) take from_pixels: the
  // wrapper's render() hands the inner env frames of the pixel size.
  if (spec.render_width <= 0 || spec.render_height <= 0 || !spec.render_any_size) {
    throw std::invalid_argument("from_pixels needs an env that renders at any size");
  }
  // An array observation stays one array ("obs"); a dict one becomes a dict
  // holding only "pixels", as dm_control's pixels wrapper with pixels_only.
  const char* name = spec.obs_kind == ObsKind::kArray ? "obs" : "pixels";
  spec.obs = {ArraySpec{.name = name,
                        .dtype = DType::kUInt8,
                        .shape = {3 * p.stack, p.height, p.width},
                        .low = {0},
                        .high = {255}}};
  if (spec.obs_kind == ObsKind::kTuple) spec.obs_kind = ObsKind::kDict;
  // render() draws what the env observes unless told another size.
  spec.render_width = p.width;
  spec.render_height = p.height;
  return spec;
}

class PixelObservation final : public Env {
 public:
  PixelObservation(std::unique_ptr<Env> inner, const EnvSpec& inner_spec, const PixelConfig& p)
      : inner_(std::move(inner)),
        p_(p),
        direct_(inner_spec.render_any_size ||
                (inner_spec.render_width == p.width && inner_spec.render_height == p.height)),
        native_{inner_spec.render_width, inner_spec.render_height},
        frame_(p.frame_bytes()),
        stack_(p.frame_bytes() * static_cast<std::size_t>(p.stack)) {
    for (const auto& entry : inner_spec.obs) {
      scratch_.emplace_back(entry.num_bytes());
      scratch_ptrs_.push_back(scratch_.back().data());
    }
    if (!direct_) native_frame_.resize(static_cast<std::size_t>(native_[0]) * native_[1] * 3);
  }

  void reset(Rng& rng, const Output& out) override {
    inner_->reset(rng, redirected(out));
    draw();
    // The stack starts full of the first frame (gymnasium's FrameStackObservation).
    for (int s = 0; s < p_.stack; ++s) std::memcpy(plane(s), transposed_.data(), p_.frame_bytes());
    std::memcpy(out.obs[0], stack_.data(), stack_.size());
  }

  void step(const Action& action, Rng& rng, const Output& out) override {
    inner_->step(action, rng, redirected(out));
    draw();
    std::memmove(plane(0), plane(1), p_.frame_bytes() * static_cast<std::size_t>(p_.stack - 1));
    std::memcpy(plane(p_.stack - 1), transposed_.data(), p_.frame_bytes());
    std::memcpy(out.obs[0], stack_.data(), stack_.size());
  }

  void close() override { inner_->close(); }
  void render(const Frame& frame) override { inner_->render(frame); }
  // The simulator's state; the frames on the stack are redrawn from it as it goes on.
  std::string get_state() const override { return inner_->get_state(); }
  void set_state(std::string_view state) override { inner_->set_state(state); }

 private:
  Output redirected(const Output& out) const {
    Output o = out;
    o.obs = scratch_ptrs_.data();
    return o;
  }

  std::uint8_t* plane(int s) { return stack_.data() + p_.frame_bytes() * static_cast<std::size_t>(s); }

  // The current frame, height x width x 3, into transposed_ as 3 x height x width.
  void draw() {
    if (direct_) {
      inner_->render(Frame{p_.width, p_.height, p_.camera, frame_.data()});
    } else {
      inner_->render(Frame{native_[0], native_[1], p_.camera, native_frame_.data()});
      resize_rgb(native_frame_.data(), native_[0], native_[1], frame_.data(), p_.width, p_.height);
    }
    transposed_.resize(frame_.size());
    const std::size_t n = static_cast<std::size_t>(p_.width) * static_cast<std::size_t>(p_.height);
    for (std::size_t i = 0; i < n; ++i) {
      transposed_[i] = frame_[3 * i];
      transposed_[n + i] = frame_[3 * i + 1];
      transposed_[2 * n + i] = frame_[3 * i + 2];
    }
  }

  std::unique_ptr<Env> inner_;
  const PixelConfig p_;
  const bool direct_;
  const int native_[2];
  std::vector<std::vector<std::uint8_t>> scratch_;  // the inner env's observation, unused
  std::vector<void*> scratch_ptrs_;
  std::vector<std::uint8_t> frame_, native_frame_, transposed_, stack_;
};

}  // namespace

std::vector<Option> pixel_options() {
  return {
      {"from_pixels", false,
       "observe rendered frames, uint8 (3 * frame_stack, render_height, render_width), 84 x 84 unless given"},
      {"frame_stack", std::int64_t{1}, "frames stacked on the channel axis of a pixel observation"},
  };
}

EnvType with_pixel_observations(EnvType type) {
  const bool has = std::any_of(type.options.begin(), type.options.end(),
                               [](const Option& o) { return o.name == "from_pixels"; });
  if (!has) return type;
  auto spec = type.spec;
  auto create = type.create;
  type.spec = [spec](const Config& c) {
    EnvSpec s = spec(c);
    return c.get_bool("from_pixels") ? pixel_spec(std::move(s), PixelConfig(c)) : s;
  };
  type.create = [spec, create](const Config& c) -> std::unique_ptr<Env> {
    if (!c.get_bool("from_pixels")) return create(c);
    return std::make_unique<PixelObservation>(create(c), spec(c), PixelConfig(c));
  };
  if (type.create_at) {
    auto create_at = type.create_at;
    type.create_at = [spec, create_at](const Config& c, int i) -> std::unique_ptr<Env> {
      if (!c.get_bool("from_pixels")) return create_at(c, i);
      return std::make_unique<PixelObservation>(create_at(c, i), spec(c), PixelConfig(c));
    };
  }
  return type;
}

}  // namespace rlpool
