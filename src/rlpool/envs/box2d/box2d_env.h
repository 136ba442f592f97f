// What the Box2D envs share: one Box2D world per env, Box2D's assertion
// failures as C++ exceptions, an env-owned random generator, and saved state
// as a replay.
//
// Saved state. Box2D keeps more than body positions and velocities between
// steps (contact manifolds and their warm-start impulses, the broad-phase
// tree, sleep timers), and none of it can be set from outside. So the state of
// a Box2D env is the episode's recipe: the words of the env's own generator at
// the start of the episode (every draw -- terrain, initial push, engine
// dispersion, track -- comes from it) and the actions taken since. set_state
// rebuilds the world from the words and replays the actions, which gives the
// bitwise-identical world, and the generator where it was, so a restored env
// goes on exactly as the original does. A state costs 8 bytes per step per
// action element; restoring costs one step per step taken.
#pragma once

#include <Box2D/Box2D.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "_core/env/env.h"
#include "_core/gfx/draw.h"

namespace rlpool::box2d {

// The message of the last failed b2Assert on this thread (python_shim/Python.h).
std::string take_assert_message();

// Runs f(); a failed Box2D assertion inside becomes a std::runtime_error
// (a RuntimeError in Python) that names it, instead of an unknown exception.
template <class F>
decltype(auto) guarded(F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (const b2AssertException&) {
    throw std::runtime_error("Box2D assertion failed: " + take_assert_message());
  }
}

// A Python float handed to Box2D through pybox2d: rounded to float32.
inline b2Vec2 vec(double x, double y) { return b2Vec2(static_cast<float32>(x), static_cast<float32>(y)); }

// pybox2d's `vector * SCALE` in gymnasium's render: a float32 product.
inline b2Vec2 scaled(const b2Vec2& v, double scale = 30.0) { return static_cast<float32>(scale) * v; }

// The corners of a body's (first) polygon fixture as gymnasium's render
// takes them, `trans * v * SCALE` in float32, followed by the first corner
// again (BipedalWalker's closed path); with the ints pygame.draw (int()) and
// gfxdraw (Sint16) make of them.
struct BodyPath {
  explicit BodyPath(const b2Body* body) {
    const auto* shape = static_cast<const b2PolygonShape*>(body->GetFixtureList()->GetShape());
    n = shape->m_count;
    for (int i = 0; i <= n; ++i) {
      const b2Vec2 v = scaled(b2Mul(body->GetTransform(), shape->m_vertices[i % n]));
      x[i] = v.x;
      y[i] = v.y;
      ix[i] = static_cast<int>(v.x);
      iy[i] = static_cast<int>(v.y);
      gx[i] = draw::to_sint16(v.x);
      gy[i] = draw::to_sint16(v.y);
    }
  }
  int n = 0;  // corners, without the repeated first
  float x[b2_maxPolygonVertices + 1] = {}, y[b2_maxPolygonVertices + 1] = {};
  int ix[b2_maxPolygonVertices + 1] = {}, iy[b2_maxPolygonVertices + 1] = {};
  std::int16_t gx[b2_maxPolygonVertices + 1] = {}, gy[b2_maxPolygonVertices + 1] = {};
};

// numpy's np.sign: -1, 0 or +1 (NaN passes through).
inline double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : x); }

// gymnasium's ContactDetector of LunarLander and BipedalWalker: anything
// touching `body` ends the game; each of the two `legs` reports ground
// contact while it touches something.
struct BodyAndLegsContacts final : b2ContactListener {
  const b2Body* body = nullptr;
  const b2Body* legs[2] = {nullptr, nullptr};
  bool ground_contact[2] = {false, false};
  bool game_over = false;
  void BeginContact(b2Contact* c) override { mark(c, true); }
  void EndContact(b2Contact* c) override { mark(c, false); }

 private:
  void mark(b2Contact* c, bool begin) {
    const b2Body* a = c->GetFixtureA()->GetBody();
    const b2Body* b = c->GetFixtureB()->GetBody();
    if (begin && (a == body || b == body)) game_over = true;
    for (int k = 0; k < 2; ++k) {
      if (a == legs[k] || b == legs[k]) ground_contact[k] = begin;
    }
  }
};

// box2d-py's revolute, weld and prismatic joint definitions that name both
// bodies set referenceAngle = bodyB.angle - bodyA.angle (computed in Python
// floats), where Box2D's C++ default is 0; gymnasium's envs rely on it.
inline float32 reference_angle(const b2Body* a, const b2Body* b) {
  return static_cast<float32>(static_cast<double>(b->GetAngle()) - static_cast<double>(a->GetAngle()));
}

// gymnasium's window and frame rate, the same for LunarLander, BipedalWalker and CarRacing.
constexpr int kWindowW = 600, kWindowH = 400;
constexpr double kFps = 50;

// The spec of a Box2D env with one float32 observation vector in [low, high].
inline EnvSpec vector_spec(std::vector<double> low, std::vector<double> high, ArraySpec action) {
  const auto n = static_cast<std::int64_t>(low.size());
  return EnvSpec{
      .obs = {ArraySpec{
          .name = "obs", .dtype = DType::kFloat32, .shape = {n}, .low = std::move(low), .high = std::move(high)}},
      .action = std::move(action),
      .info = {},
      .render_width = kWindowW,
      .render_height = kWindowH,
      .render_fps = kFps,
  };
}

class Box2dEnv : public Env {
 public:
  // `config_key` names the env type and every option that changes the
  // dynamics; a saved state is refused by an env whose key differs.
  Box2dEnv(std::string config_key, const ArraySpec& action_spec);

  void reset(Rng& rng, const Output& out) final;
  void step(const Action& action, Rng& rng, const Output& out) final;
  void advance(const Action& action, Rng& rng) final;
  void emit(const Output& out) final;
  std::string get_state() const final;
  void set_state(std::string_view state) final;

 protected:
  // A new episode: build the world from the env's generator (gymnasium's
  // reset, draws in gymnasium's order).
  virtual void start_episode(Rng& rng) = 0;
  // One step; returns whether it terminated the episode. Results are kept
  // for write().
  virtual bool advance_episode(const Action& action, Rng& rng) = 0;
  // Writes the observation (and info) of the last start or step; after a
  // step also the reward and `terminated`.
  virtual void write(const Output& out, bool after_reset) = 0;

 private:
  void begin(const std::array<std::uint64_t, 4>& words);
  void check_logged_action(const Action& action, std::size_t step) const;

  std::string config_key_;
  ArraySpec action_spec_;
  std::size_t action_bytes_;
  Rng rng_;  // the env's own: seeded from the pool's generator at each reset
  std::array<std::uint64_t, 4> start_words_{};
  std::vector<unsigned char> actions_;  // the episode's actions, action_bytes_ each
  bool started_ = false;
};

}  // namespace rlpool::box2d
