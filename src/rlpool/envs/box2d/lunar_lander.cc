// LunarLander, as gymnasium 1.x's box2d/lunar_lander.py computes it: the same
// Box2D world built in the same order, the same draws from the env's
// generator (terrain, initial push, wind offsets, engine dispersion), and the
// Python side's float64 arithmetic between Box2D's float32 values.
//
// Rendering (gymnasium's render(), primitive for primitive, draw.h): as in
// gymnasium, an env made to render puts a flame particle (a small Box2D body,
// colliding only with the ground) into the world for each engine firing, and
// each drawn frame ages them; they do not touch the lander's physics. The
// saved state replays steps, not frames: a restored env's particles are aged
// as if no frame had been drawn in its episode.
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <numbers>
#include <sstream>

#include "_core/gfx/draw.h"
#include "envs/box2d/box2d_env.h"

namespace rlpool::box2d {
namespace {

constexpr double kScale = 30.0;
constexpr double kMainEnginePower = 13.0;
constexpr double kSideEnginePower = 0.6;
constexpr double kInitialRandom = 1000.0;
constexpr double kLegAway = 20;
constexpr double kLegDown = 18;
constexpr double kLegW = 2;
constexpr double kLegH = 8;
constexpr double kLegSpringTorque = 40;
constexpr double kSideEngineHeight = 14;
constexpr double kSideEngineAway = 12;
constexpr double kMainEngineYLocation = 4;
constexpr double kViewportW = kWindowW;
constexpr double kViewportH = kWindowH;
constexpr int kChunks = 11;
constexpr double kLanderPoly[6][2] = {{-14, +17}, {-17, 0}, {-17, -10}, {+17, -10}, {+17, 0}, {+14, +17}};

struct Options {
  bool continuous;
  double gravity;
  bool enable_wind;
  double wind_power;
  double turbulence_power;
  bool particles;  // the env renders: gymnasium's render_mode is set
};

class LunarLander final : public Box2dEnv {
 public:
  LunarLander(const ArraySpec& action_spec, Options options)
      : Box2dEnv(key(options), action_spec), o_(options) {}

  static std::string key(const Options& o) {
    std::ostringstream s;
    s.precision(17);
    s << "LunarLander(continuous=" << o.continuous << ", gravity=" << o.gravity << ", enable_wind=" << o.enable_wind
      << ", wind_power=" << o.wind_power << ", turbulence_power=" << o.turbulence_power << ")";
    return s.str();
  }

 protected:
  void start_episode(Rng& rng) override {
    particles_.clear();  // their bodies go with the old world
    listener_ = BodyAndLegsContacts{};
    world_ = std::make_unique<b2World>(vec(0, o_.gravity));
    world_->SetContactListener(&listener_);
    has_prev_shaping_ = false;

    const double w = kViewportW / kScale;
    const double h = kViewportH / kScale;
    double height[kChunks + 1];
    for (double& y : height) y = rng.uniform(0, h / 2);
    double* chunk_x = chunk_x_;
    for (int i = 0; i < kChunks; ++i) chunk_x[i] = w / (kChunks - 1) * i;
    helipad_y_ = h / 4;
    for (int i = kChunks / 2 - 2; i <= kChunks / 2 + 2; ++i) height[i] = helipad_y_;
    double* smooth_y = smooth_y_;
    // i - 1 = -1 is Python's height[-1], the last element.
    for (int i = 0; i < kChunks; ++i) smooth_y[i] = 0.33 * (height[(i + kChunks) % (kChunks + 1)] + height[i] + height[i + 1]);

    b2BodyDef moon_def;
    b2Body* moon = world_->CreateBody(&moon_def);
    b2EdgeShape bottom;
    bottom.Set(vec(0, 0), vec(w, 0));
    moon->CreateFixture(&bottom, 0.0f);
    for (int i = 0; i < kChunks - 1; ++i) {
      b2EdgeShape edge;
      edge.Set(vec(chunk_x[i], smooth_y[i]), vec(chunk_x[i + 1], smooth_y[i + 1]));
      b2FixtureDef fd;
      fd.shape = &edge;
      fd.density = 0;
      fd.friction = 0.1f;
      moon->CreateFixture(&fd);
    }

    const double initial_y = kViewportH / kScale;
    const double initial_x = kViewportW / kScale / 2;
    b2BodyDef lander_def;
    lander_def.type = b2_dynamicBody;
    lander_def.position = vec(initial_x, initial_y);
    lander_def.angle = 0.0f;
    lander_ = world_->CreateBody(&lander_def);
    b2Vec2 poly[6];
    for (int i = 0; i < 6; ++i) poly[i] = vec(kLanderPoly[i][0] / kScale, kLanderPoly[i][1] / kScale);
    b2PolygonShape lander_shape;
    lander_shape.Set(poly, 6);
    b2FixtureDef lander_fixture;
    lander_fixture.shape = &lander_shape;
    lander_fixture.density = 5.0f;
    lander_fixture.friction = 0.1f;
    lander_fixture.filter.categoryBits = 0x0010;
    lander_fixture.filter.maskBits = 0x001;  // collide only with ground
    lander_fixture.restitution = 0.0f;
    lander_->CreateFixture(&lander_fixture);
    const double fx = rng.uniform(-kInitialRandom, kInitialRandom);
    const double fy = rng.uniform(-kInitialRandom, kInitialRandom);
    lander_->ApplyForceToCenter(vec(fx, fy), true);
    if (o_.enable_wind) {
      // numpy's integers(-9999, 9999): the high end is excluded.
      wind_idx_ = -9999 + static_cast<std::int64_t>(rng.integer(19998));
      torque_idx_ = -9999 + static_cast<std::int64_t>(rng.integer(19998));
    }

    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : +1;
      b2BodyDef leg_def;
      leg_def.type = b2_dynamicBody;
      leg_def.position = vec(initial_x - i * kLegAway / kScale, initial_y);
      leg_def.angle = static_cast<float32>(i * 0.05);
      legs_[k] = world_->CreateBody(&leg_def);
      b2PolygonShape leg_shape;
      leg_shape.SetAsBox(static_cast<float32>(kLegW / kScale), static_cast<float32>(kLegH / kScale));
      b2FixtureDef leg_fixture;
      leg_fixture.shape = &leg_shape;
      leg_fixture.density = 1.0f;
      leg_fixture.restitution = 0.0f;
      leg_fixture.filter.categoryBits = 0x0020;
      leg_fixture.filter.maskBits = 0x001;
      legs_[k]->CreateFixture(&leg_fixture);
      b2RevoluteJointDef joint;
      joint.bodyA = lander_;
      joint.bodyB = legs_[k];
      joint.localAnchorA = vec(0, 0);
      joint.localAnchorB = vec(i * kLegAway / kScale, kLegDown / kScale);
      joint.enableMotor = true;
      joint.enableLimit = true;
      joint.maxMotorTorque = static_cast<float32>(kLegSpringTorque);
      joint.motorSpeed = static_cast<float32>(+0.3 * i);  // low enough not to jump back into the sky
      joint.referenceAngle = reference_angle(lander_, legs_[k]);
      if (i == -1) {
        joint.lowerAngle = static_cast<float32>(+0.9 - 0.5);
        joint.upperAngle = +0.9f;
      } else {
        joint.lowerAngle = -0.9f;
        joint.upperAngle = static_cast<float32>(-0.9 + 0.5);
      }
      world_->CreateJoint(&joint);
    }
    listener_.body = lander_;
    listener_.legs[0] = legs_[0];
    listener_.legs[1] = legs_[1];

    // gymnasium's reset returns the observation of a first step with no engine fired.
    const std::int64_t noop_discrete = 0;
    const double noop_continuous[2] = {0, 0};
    advance_episode(Action{o_.continuous ? static_cast<const void*>(noop_continuous) : &noop_discrete}, rng);
  }

  bool advance_episode(const Action& action, Rng& rng) override {
    if (o_.enable_wind && !(listener_.ground_contact[0] || listener_.ground_contact[1])) {
      const double wind_mag = std::tanh(std::sin(0.02 * static_cast<double>(wind_idx_)) +
                                        std::sin(std::numbers::pi * 0.01 * static_cast<double>(wind_idx_))) *
                              o_.wind_power;
      wind_idx_ += 1;
      lander_->ApplyForceToCenter(vec(wind_mag, 0.0), true);
      const double torque_mag = std::tanh(std::sin(0.02 * static_cast<double>(torque_idx_)) +
                                          std::sin(std::numbers::pi * 0.01 * static_cast<double>(torque_idx_))) *
                                o_.turbulence_power;
      torque_idx_ += 1;
      lander_->ApplyTorque(static_cast<float32>(torque_mag), true);
    }

    // Engines. Main: discrete 2, or continuous a0 > 0; sides: discrete 1/3, or |a1| > 0.5.
    bool main_on = false;
    bool side_on = false;
    double a0 = 0;
    double a1 = 0;
    std::int64_t discrete = 0;
    if (o_.continuous) {
      a0 = std::clamp(action.continuous()[0], -1.0, 1.0);
      a1 = std::clamp(action.continuous()[1], -1.0, 1.0);
      main_on = a0 > 0.0;
      side_on = std::abs(a1) > 0.5;
    } else {
      discrete = action.discrete();
      main_on = discrete == 2;
      side_on = discrete == 1 || discrete == 3;
    }

    const double angle = lander_->GetAngle();
    const double tip[2] = {std::sin(angle), std::cos(angle)};
    const double side[2] = {-tip[1], tip[0]};
    double dispersion[2];
    for (double& d : dispersion) d = rng.uniform(-1.0, +1.0) / kScale;

    m_power_ = 0.0;
    if (main_on) {
      m_power_ = o_.continuous ? (std::clamp(a0, 0.0, 1.0) + 1.0) * 0.5 : 1.0;
      const double ox = tip[0] * (kMainEngineYLocation / kScale + 2 * dispersion[0]) + side[0] * dispersion[1];
      const double oy = -tip[1] * (kMainEngineYLocation / kScale + 2 * dispersion[0]) - side[1] * dispersion[1];
      const b2Vec2 pos = lander_->GetPosition();
      const b2Vec2 impulse_pos = vec(pos.x + ox, pos.y + oy);
      if (o_.particles) {
        make_particle(3.5, impulse_pos, m_power_)
            ->ApplyLinearImpulse(vec(ox * kMainEnginePower * m_power_, oy * kMainEnginePower * m_power_), impulse_pos,
                                 true);
      }
      lander_->ApplyLinearImpulse(vec(-ox * kMainEnginePower * m_power_, -oy * kMainEnginePower * m_power_),
                                  impulse_pos, true);
    }
    s_power_ = 0.0;
    if (side_on) {
      double direction;
      if (o_.continuous) {
        direction = a1 > 0 ? 1.0 : -1.0;  // np.sign; |a1| > 0.5 here
        s_power_ = std::clamp(std::abs(a1), 0.5, 1.0);
      } else {
        direction = static_cast<double>(discrete - 2);
        s_power_ = 1.0;
      }
      const double ox = tip[0] * dispersion[0] + side[0] * (3 * dispersion[1] + direction * kSideEngineAway / kScale);
      const double oy = -tip[1] * dispersion[0] - side[1] * (3 * dispersion[1] + direction * kSideEngineAway / kScale);
      const b2Vec2 pos = lander_->GetPosition();
      const b2Vec2 impulse_pos = vec(pos.x + ox - tip[0] * 17 / kScale, pos.y + oy + tip[1] * kSideEngineHeight / kScale);
      if (o_.particles) {
        make_particle(0.7, impulse_pos, s_power_)
            ->ApplyLinearImpulse(vec(ox * kSideEnginePower * s_power_, oy * kSideEnginePower * s_power_), impulse_pos,
                                 true);
      }
      lander_->ApplyLinearImpulse(vec(-ox * kSideEnginePower * s_power_, -oy * kSideEnginePower * s_power_),
                                  impulse_pos, true);
    }

    world_->Step(static_cast<float32>(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = lander_->GetPosition();
    const b2Vec2 vel = lander_->GetLinearVelocity();
    state_[0] = (pos.x - kViewportW / kScale / 2) / (kViewportW / kScale / 2);
    state_[1] = (pos.y - (helipad_y_ + kLegDown / kScale)) / (kViewportH / kScale / 2);
    state_[2] = vel.x * (kViewportW / kScale / 2) / kFps;
    state_[3] = vel.y * (kViewportH / kScale / 2) / kFps;
    state_[4] = lander_->GetAngle();
    state_[5] = 20.0 * lander_->GetAngularVelocity() / kFps;
    state_[6] = listener_.ground_contact[0] ? 1.0 : 0.0;
    state_[7] = listener_.ground_contact[1] ? 1.0 : 0.0;

    const double shaping = -100 * std::sqrt(state_[0] * state_[0] + state_[1] * state_[1]) -
                           100 * std::sqrt(state_[2] * state_[2] + state_[3] * state_[3]) -
                           100 * std::abs(state_[4]) + 10 * state_[6] + 10 * state_[7];
    reward_ = has_prev_shaping_ ? shaping - prev_shaping_ : 0.0;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    reward_ -= m_power_ * 0.30;  // less fuel spent is better
    reward_ -= s_power_ * 0.03;

    terminated_ = false;
    if (listener_.game_over || std::abs(state_[0]) >= 1.0) {
      terminated_ = true;
      reward_ = -100;
    }
    if (!lander_->IsAwake()) {
      terminated_ = true;
      reward_ = +100;
    }
    return terminated_;
  }

  // gymnasium's LunarLander.render: the particles aged (and the expired ones
  // at the front removed) first, then sky, bodies, and the two flags after
  // every body drawn, as gymnasium's loop does.
  void render(const Frame& frame) override {
    draw::Image img(static_cast<int>(kViewportW), static_cast<int>(kViewportH));
    img.fill(draw::rgb(255, 255, 255));
    for (Particle& p : particles_) p.ttl -= 0.15;
    clean_particles(false);
    const double h = kViewportH / kScale;
    for (int i = 0; i + 1 < kChunks; ++i) {
      const double xs[4] = {chunk_x_[i] * kScale, chunk_x_[i + 1] * kScale, chunk_x_[i + 1] * kScale,
                            chunk_x_[i] * kScale};
      const double ys[4] = {smooth_y_[i] * kScale, smooth_y_[i + 1] * kScale, h * kScale, h * kScale};
      draw::pg_polygon(img, xs, ys, 4, draw::rgb(0, 0, 0), true, ints_);
    }
    const auto flags = [&] {
      for (const double helipad_x : {chunk_x_[kChunks / 2 - 1], chunk_x_[kChunks / 2 + 1]}) {
        const double x = helipad_x * kScale;
        const double flagy1 = helipad_y_ * kScale;
        const double flagy2 = flagy1 + 50;
        draw::pg_line(img, static_cast<int>(x), static_cast<int>(flagy1), static_cast<int>(x), static_cast<int>(flagy2),
                      draw::rgb(255, 255, 255));
        const double xs[3] = {x, x, x + 25};
        const double ys[3] = {flagy2, flagy2 - 10, flagy2 - 5};
        draw::pg_polygon(img, xs, ys, 3, draw::rgb(204, 204, 0), true, ints_);
      }
    };
    for (const Particle& p : particles_) {
      const auto channel = [](double v) { return static_cast<int>(std::max(0.2, v) * 255); };
      const std::uint32_t color = draw::rgb(channel(0.15 + p.ttl), channel(0.5 * p.ttl), channel(0.5 * p.ttl));
      const b2Fixture* f = p.body->GetFixtureList();
      const auto* circle = static_cast<const b2CircleShape*>(f->GetShape());
      const b2Vec2 c = scaled(b2Mul(p.body->GetTransform(), circle->m_p));
      const int radius = static_cast<int>(static_cast<double>(circle->m_radius) * kScale);
      for (int k = 0; k < 2; ++k) draw::pg_circle(img, static_cast<int>(c.x), static_cast<int>(c.y), radius, color);
      flags();
    }
    for (const b2Body* body : {static_cast<const b2Body*>(lander_), static_cast<const b2Body*>(legs_[0]),
                               static_cast<const b2Body*>(legs_[1])}) {
      const BodyPath p(body);
      draw::pg_polygon(img, p.ix, p.iy, p.n, kBodyColor1, ints_);
      draw::gfx_aapolygon(img, p.gx, p.gy, p.n, kBodyColor1);
      draw::pg_aalines(img, kBodyColor2, p.x, p.y, p.n, true);
      flags();
    }
    img.write_flipped_rgb(frame.rgb);
  }

  void write(const Output& out, bool after_reset) override {
    auto* obs = out.obs_as<float>();
    for (int i = 0; i < 8; ++i) obs[i] = static_cast<float>(state_[i]);
    if (!after_reset) {
      *out.reward = reward_;
      *out.terminated = terminated_;
    }
  }

 private:
  struct Particle {
    b2Body* body;
    double ttl;
  };
  static constexpr std::uint32_t kBodyColor1 = 0x8066e6;  // (128, 102, 230)
  static constexpr std::uint32_t kBodyColor2 = 0x4d4d80;  // (77, 77, 128)

  // gymnasium's _create_particle: a disc body at `pos`, then the expired ones dropped.
  b2Body* make_particle(double mass, const b2Vec2& pos, double ttl) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = pos;
    def.angle = 0.0f;
    b2Body* body = world_->CreateBody(&def);
    b2CircleShape shape;
    shape.m_radius = static_cast<float32>(2 / kScale);
    shape.m_p.Set(0.0f, 0.0f);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.density = static_cast<float32>(mass);
    fd.friction = 0.1f;
    fd.filter.categoryBits = 0x0100;
    fd.filter.maskBits = 0x001;  // collide only with ground
    fd.restitution = 0.3f;
    body->CreateFixture(&fd);
    particles_.push_back({body, ttl});
    clean_particles(false);
    return body;
  }

  // gymnasium's _clean_particles: from the oldest, while it has expired (or all).
  void clean_particles(bool all) {
    while (!particles_.empty() && (all || particles_.front().ttl < 0)) {
      world_->DestroyBody(particles_.front().body);
      particles_.pop_front();
    }
  }

  Options o_;
  BodyAndLegsContacts listener_;
  std::unique_ptr<b2World> world_;
  b2Body* lander_ = nullptr;
  b2Body* legs_[2] = {nullptr, nullptr};
  double helipad_y_ = 0;
  double chunk_x_[kChunks] = {};
  double smooth_y_[kChunks] = {};
  std::deque<Particle> particles_;  // oldest first
  std::vector<int> ints_;           // polygon scratch
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0;
  std::int64_t wind_idx_ = 0;
  std::int64_t torque_idx_ = 0;
  double m_power_ = 0;
  double s_power_ = 0;
  double state_[8] = {};
  double reward_ = 0;
  bool terminated_ = false;
};

Options options(const Config& config) {
  const double gravity = config.get_finite("gravity");
  if (!(gravity > -12.0 && gravity < 0.0)) {
    throw std::invalid_argument("gravity must be between -12 and 0 (exclusive), got " + std::to_string(gravity));
  }
  return Options{
      .continuous = config.get_bool("continuous"),
      .gravity = gravity,
      .enable_wind = config.get_bool("enable_wind"),
      .wind_power = config.get_finite("wind_power"),
      .turbulence_power = config.get_finite("turbulence_power"),
      .particles = config.has("_render") && config.get_bool("_render"),
  };
}

ArraySpec action_spec(bool continuous) {
  if (continuous) {
    return ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {2}, .low = {-1, -1}, .high = {1, 1}};
  }
  return ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {3}};
}

EnvSpec make_spec(const Config& config) {
  const Options o = options(config);
  // gymnasium v3's bounds (float32-rounded); v2 (EnvPool) tasks register their own.
  const double two_pi = f32(2 * std::numbers::pi);
  std::vector<double> low = {-2.5, -2.5, -10.0, -10.0, -two_pi, -10.0, -0.0, -0.0};
  std::vector<double> high = {2.5, 2.5, 10.0, 10.0, two_pi, 10.0, 1.0, 1.0};
  if (config.get_bool("unbounded_observation")) {
    const double inf = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 6; ++i) {
      low[static_cast<std::size_t>(i)] = -inf;
      high[static_cast<std::size_t>(i)] = inf;
    }
  }
  return vector_spec(std::move(low), std::move(high), action_spec(o.continuous));
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "LunarLander",
    .options =
        {
            {"continuous", false, "Continuous actions (main, lateral engine throttles in [-1, 1]) instead of 4."},
            {"gravity", -10.0, "Gravitational acceleration (m/s^2), in (-12, 0)."},
            {"enable_wind", false, "Wind and turbulence push the lander while its legs are off the ground."},
            {"wind_power", 15.0, "Maximum linear wind force (gymnasium recommends 0 to 20)."},
            {"turbulence_power", 1.5, "Maximum rotational turbulence torque (gymnasium recommends 0 to 2)."},
            {"unbounded_observation", false,
             "Declare the first six observation elements unbounded (EnvPool's LunarLander-v2 spaces)."},
        },
    .spec = make_spec,
    .create =
        [](const Config& config) -> std::unique_ptr<Env> {
          const Options o = options(config);
          return std::make_unique<LunarLander>(action_spec(o.continuous), o);
        },
});

}  // namespace rlpool::box2d
