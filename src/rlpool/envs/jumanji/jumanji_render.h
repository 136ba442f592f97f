// Drawing for Jumanji's pictures (render_mode="rgb_array"): jumanji's viewers
// (jumanji/environments/**/viewer.py) are matplotlib figures, which cannot be
// matched pixel for pixel, so each env draws a documented picture of its
// state here instead -- the elements jumanji's viewer shows, in its viewer's
// flat colours -- with these few primitives: filled rectangles, a grid of
// cells, discs, lines and digits (a 3 x 5 block font of rlpool's own).
// Everything is clipped to the frame; a Canvas only writes the Frame it wraps.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "_core/env/env.h"

namespace rlpool::jumanji {

struct Rgb {
  std::uint8_t r, g, b;
};

class Canvas {
 public:
  explicit Canvas(const Frame& frame) : f_(frame) {}

  int width() const { return f_.width; }
  int height() const { return f_.height; }

  void pixel(int x, int y, Rgb c) const {
    if (x < 0 || y < 0 || x >= f_.width || y >= f_.height) return;
    std::uint8_t* p = f_.rgb + (static_cast<std::size_t>(y) * f_.width + x) * 3;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }

  // The rectangle [x0, x1) x [y0, y1).
  void rect(int x0, int y0, int x1, int y1, Rgb c) const {
    x0 = std::max(x0, 0);
    y0 = std::max(y0, 0);
    x1 = std::min(x1, f_.width);
    y1 = std::min(y1, f_.height);
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) pixel(x, y, c);
    }
  }

  void fill(Rgb c) const { rect(0, 0, f_.width, f_.height, c); }

  // A disc of radius r (pixels) centred on (cx, cy); nothing where a coordinate is not finite.
  void disc(double cx, double cy, double r, Rgb c) const {
    if (!std::isfinite(cx) || !std::isfinite(cy) || !std::isfinite(r)) return;
    const int x0 = static_cast<int>(std::floor(cx - r));
    const int x1 = static_cast<int>(std::ceil(cx + r));
    const int y0 = static_cast<int>(std::floor(cy - r));
    const int y1 = static_cast<int>(std::ceil(cy + r));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const double dx = x + 0.5 - cx;
        const double dy = y + 0.5 - cy;
        if (dx * dx + dy * dy <= r * r) pixel(x, y, c);
      }
    }
  }

  // A line from (x0, y0) to (x1, y1), `thickness` pixels wide (square pen); nothing where a coordinate is
  // not finite, and at most the frame's size in steps.
  void line(double x0, double y0, double x1, double y1, Rgb c, int thickness = 1) const {
    if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) return;
    // Liang-Barsky: the part of the segment within the frame (grown by the pen), so a line's steps stay few.
    const double grow = thickness + 1.0;
    const double dx = x1 - x0;
    const double dy = y1 - y0;
    double t0 = 0.0;
    double t1 = 1.0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x0 + grow, f_.width + grow - x0, y0 + grow, f_.height + grow - y0};
    for (int k = 0; k < 4; ++k) {
      if (p[k] == 0.0) {
        if (q[k] < 0.0) return;
        continue;
      }
      const double r = q[k] / p[k];
      if (p[k] < 0.0) {
        t0 = std::max(t0, r);
      } else {
        t1 = std::min(t1, r);
      }
    }
    if (t0 > t1) return;
    x1 = x0 + dx * t1;
    y1 = y0 + dy * t1;
    x0 += dx * t0;
    y0 += dy * t0;
    const double steps = std::max({std::abs(x1 - x0), std::abs(y1 - y0), 1.0});
    const int half = thickness / 2;
    for (int i = 0; i <= static_cast<int>(steps); ++i) {
      const double t = i / steps;
      const int x = static_cast<int>(std::lround(x0 + (x1 - x0) * t));
      const int y = static_cast<int>(std::lround(y0 + (y1 - y0) * t));
      rect(x - half, y - half, x - half + thickness, y - half + thickness, c);
    }
  }

  // Decimal digit d (0-9) as a 3 x 5 block glyph with its top-left at (x, y),
  // each block `scale` pixels square.
  void digit(int x, int y, int d, int scale, Rgb c) const {
    // Rows top to bottom, three bits each (left bit first).
    static constexpr std::uint8_t kGlyphs[10][5] = {
        {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
        {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 2, 2, 2}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
    };
    if (d < 0 || d > 9) return;
    for (int row = 0; row < 5; ++row) {
      for (int col = 0; col < 3; ++col) {
        if (kGlyphs[d][row] & (4 >> col)) {
          rect(x + col * scale, y + row * scale, x + (col + 1) * scale, y + (row + 1) * scale, c);
        }
      }
    }
  }

  // A non-negative number in decimal, its digits one block apart, centred on (cx, cy).
  void number(double cx, double cy, long value, int scale, Rgb c) const {
    char text[24];
    int n = 0;
    value = std::max(value, 0L);
    do {
      text[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value > 0 && n < 20);
    const int w = (4 * n - 1) * scale;
    const int x = static_cast<int>(std::lround(cx - w / 2.0));
    const int y = static_cast<int>(std::lround(cy - 2.5 * scale));
    for (int i = 0; i < n; ++i) digit(x + 4 * scale * i, y, text[n - 1 - i] - '0', scale, c);
  }

 private:
  Frame f_;
};

// The block font's scale for `value` in a cell `cell` pixels wide: a tenth of
// the cell, less where the digits would take more than 4/5 of its width; 0
// (no number) where they do not fit.
inline int number_scale(int cell, long value) {
  int digits = 1;
  for (long v = value; v >= 10; v /= 10) ++digits;
  return std::min(cell / 10, 4 * cell / (5 * (4 * digits - 1)));
}

// A board of rows x cols square cells filling the frame from its top-left
// corner (cell = the frame's size over the board's, the smaller of the two):
// cell(r, c) gives the pixel rectangle of a cell.
struct Board {
  int rows, cols, cell;

  Board(const Frame& frame, int rows_, int cols_)
      : rows(rows_), cols(cols_), cell(std::max(1, std::min(frame.width / std::max(cols_, 1),
                                                            frame.height / std::max(rows_, 1)))) {}

  int x0(int c) const { return c * cell; }
  int y0(int r) const { return r * cell; }
  double cx(int c) const { return (c + 0.5) * cell; }
  double cy(int r) const { return (r + 0.5) * cell; }

  // Cell (r, c) filled, less a `gap`-pixel border (grid lines in the background colour).
  void paint(const Canvas& canvas, int r, int c, Rgb colour, int gap = 0) const {
    canvas.rect(x0(c) + gap, y0(r) + gap, x0(c) + cell - gap, y0(r) + cell - gap, colour);
  }
};

}  // namespace rlpool::jumanji
