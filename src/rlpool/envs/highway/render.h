// Rendering of the highway family: a software rasterizer that draws a road (its lanes' side lines), its
// objects and its vehicles into an RGB frame exactly as highway-env's EnvViewer does with pygame in
// rgb_array mode (offscreen), and the GrayscaleObservation built from such frames.
//
// Follows highway_env/envs/common/graphics.py (EnvViewer.display/get_image, ObservationGraphics),
// highway_env/road/graphics.py (WorldSurface, LaneGraphics, RoadGraphics, RoadObjectGraphics),
// highway_env/vehicle/graphics.py (VehicleGraphics) and GrayscaleObservation in
// highway_env/envs/common/observation.py (highway-env 1.12.1). The drawing primitives reproduce pygame-ce
// 2.5's algorithms (draw.rect / draw.line / draw.lines, transform.rotate's fixed-point nearest-neighbour
// rotation, math.Vector2.rotate, Surface.blit with per-pixel alpha) so that frames equal highway-env's pixel
// for pixel; all coordinate arithmetic is double in Python's order.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "envs/highway/geometry.h"

namespace rlpool::highway {

class Road;
class RoadObject;
class Vehicle;

// The viewer's part of highway-env's config (EnvViewer's config keys).
struct RenderConfig {
  int screen_width = 600;   // [px]
  int screen_height = 150;  // [px]
  double scaling = 5.5;     // [px/m]
  std::array<double, 2> centering_position{0.3, 0.5};
  // config["simulation_frequency"]: the spacing of the trajectory history drawn when the road records it
  // (show_trajectories).
  int simulation_frequency = 15;
};

// What ObservationGraphics draws over the frame when the env's observation type is a LidarObservation: the
// lidar's origin (the observer's position at its last observe), its cell count, maximum_range, and its
// grid[:, 0] (float32 distances, one per cell) as the last observe left them.
struct LidarOverlay {
  Vec2 origin{0.0, 0.0};
  int cells = 0;
  double maximum_range = 0.0;
  std::vector<float> distances;
};

// env.render() in rgb_array mode: draws the road, objects and vehicles centred on `focus` (the viewer's
// observer vehicle, else the env's first controlled vehicle; null centres on the world origin) into `rgb`,
// screen_height x screen_width x 3 uint8 (gymnasium's H x W x C), as EnvViewer.display() then get_image().
void render_rgb(const Road& road, const Vehicle* focus, const RenderConfig& config, std::uint8_t* rgb,
                const LidarOverlay* lidar = nullptr);

// GrayscaleObservation's viewer config: the env's, with the observation's shape as screen size and its own
// scaling / centering_position where given (Python's `scaling or config["scaling"]`: nullopt or 0 keeps the
// env's; an empty centering keeps the env's).
RenderConfig grayscale_viewer_config(const RenderConfig& env_config, int observation_width,
                                     int observation_height, std::optional<double> scaling = std::nullopt,
                                     std::optional<std::array<double, 2>> centering_position = std::nullopt);

// GrayscaleObservation._render_to_grayscale: one frame at `viewer` (its screen_width x screen_height) turned
// to gray with `weights` (np.dot(rgb, weights).clip(0, 255).astype(uint8)), written W x H (Python's
// observation axes: out[x * H + y] is the pixel at column x, row y).
void grayscale_frame(const Road& road, const Vehicle* observer, const RenderConfig& viewer,
                     const std::array<double, 3>& weights, std::uint8_t* out);

// GrayscaleObservation.observe: rolls the stack (stack_size x W x H uint8, the observation array) one frame
// back (np.roll(obs, -1, axis=0)) and writes a new frame last. highway-env makes a new observation at every
// reset, so the stack starts from zeros there: clear it before the reset's observe.
void grayscale_observe(const Road& road, const Vehicle* observer, const RenderConfig& viewer,
                       const std::array<double, 3>& weights, int stack_size, std::uint8_t* stack);

// ---------------------------------------------------------------------------------------------------------
// The pygame-like raster layer the frames are drawn with (render_raster.cc).
namespace raster {

// An SDL surface of 32-bit ARGB8888 pixels (0xAARRGGBB). The screen surface ignores the alpha byte (pygame's
// plain Surface, XRGB8888); vehicle and object sprites use it (pygame.SRCALPHA). It is a surface of
// _core/gfx/surface.h (width, height, row, band_rows) for the shared pygame.draw primitives.
struct Surface {
  Surface() = default;
  Surface(int w, int h, std::uint32_t fill = 0) : w(w), h(h), px(static_cast<std::size_t>(w) * h, fill) {}
  int w = 0;
  int h = 0;
  std::vector<std::uint32_t> px;
  std::uint32_t& at(int x, int y) { return px[static_cast<std::size_t>(y) * w + x]; }
  std::uint32_t at(int x, int y) const { return px[static_cast<std::size_t>(y) * w + x]; }
  int width() const { return w; }
  int height() const { return h; }
  std::uint32_t* row(int y) { return y >= 0 && y < h ? px.data() + static_cast<std::size_t>(y) * w : nullptr; }
  void band_rows(int& from, int& to) const {
    from = 0;
    to = h - 1;
  }
};

struct Color {
  int r = 0;
  int g = 0;
  int b = 0;
  int a = 255;
};
inline std::uint32_t map_rgba(const Color& c) {
  return (static_cast<std::uint32_t>(c.a) << 24) | (static_cast<std::uint32_t>(c.r) << 16) |
         (static_cast<std::uint32_t>(c.g) << 8) | static_cast<std::uint32_t>(c.b);
}

// pygame.draw.rect(surface, color, (x, y, w, h), width) without rounded corners.
void draw_rect(Surface& surface, const Color& color, int x, int y, int w, int h, int width = 0);
// pygame.draw.line(surface, color, start, end, width).
void draw_line(Surface& surface, const Color& color, int x1, int y1, int x2, int y2, int width = 1);
// pygame.draw.lines(surface, color, closed, points, width).
void draw_lines(Surface& surface, const Color& color, bool closed, const std::vector<std::array<int, 2>>& points,
                int width = 1);
// pygame.transform.rotate(surface, angle): angle is what Python passes (a C float once parsed).
Surface rotate(const Surface& surface, float angle);
// surface.blit(image, (x, y)) with per-pixel alpha (pygame's blend for an alpha destination, SDL's for an
// opaque one: both `d + (((s - d) * a + s) >> 8)`); dst_alpha says whether `dst` keeps alpha (SRCALPHA).
void blit(Surface& dst, const Surface& src, int x, int y, bool dst_alpha);
// pygame.math.Vector2(x, y).rotate(angle_degrees).
Vec2 vector2_rotate(const Vec2& v, double angle_degrees);
// highway-env's blit_rotate(surf, image, pos, angle) (VehicleGraphics / RoadObjectGraphics): rotates `image`
// about its centre by `angle` degrees and blits it so that its centre lands at `pos`.
void blit_rotate(Surface& surf, const Surface& image, const std::array<double, 2>& pos, double angle,
                 bool dst_alpha);

}  // namespace raster
}  // namespace rlpool::highway
