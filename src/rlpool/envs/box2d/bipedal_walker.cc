// BipedalWalker (and its hardcore terrain), as gymnasium 1.x's
// box2d/bipedal_walker.py computes it: the same Box2D world built in the same
// order, the same draws from the env's generator (terrain, clouds -- drawn
// though only rendering uses them -- and the initial push), and the Python
// side's float64 and numpy float32 arithmetic between Box2D's float32 values.
//
// gymnasium keeps one b2World for the life of the env and destroys the bodies
// at each reset; the broad-phase tree's recycled proxy ids then change the
// order of contacts, so its later episodes depend on the ones before. Here
// every episode gets a fresh world, which is gymnasium's first episode.
//
// Rendering: gymnasium's render(), primitive for primitive (draw.h), on its
// surface as wide as the scrolled world, of which the frame is the last 600
// columns. Which lidar ray is drawn turns with each frame drawn (gymnasium's
// lidar_render); a restored state starts that count again.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>

#include "_core/gfx/draw.h"
#include "envs/box2d/box2d_env.h"

namespace rlpool::box2d {
namespace {

constexpr double kScale = 30.0;
constexpr double kMotorsTorque = 80;
constexpr double kSpeedHip = 4;
constexpr double kSpeedKnee = 6;
constexpr double kLidarRange = 160 / kScale;
constexpr double kInitialRandom = 5;
constexpr double kHullPoly[5][2] = {{-30, +9}, {+6, +9}, {+34, +1}, {+34, -8}, {-30, -8}};
constexpr double kLegDown = -8 / kScale;
constexpr double kLegW = 8 / kScale;
constexpr double kLegH = 34 / kScale;
constexpr double kViewportW = kWindowW;
constexpr double kViewportH = kWindowH;
constexpr double kTerrainStep = 14 / kScale;
constexpr int kTerrainLength = 200;  // in steps
constexpr double kTerrainHeight = kViewportH / kScale / 4;
constexpr int kTerrainGrass = 10;
constexpr int kTerrainStartpad = 20;
constexpr double kFriction = 2.5;
constexpr int kLidars = 10;
constexpr int kObs = 24;

// gymnasium's LidarCallback: fixtures without category bit 1 (the walker's
// own) are skipped; returning the fraction clips the ray, so the last report
// is the closest hit (v3). p1, p2: the ray as gymnasium keeps it for drawing
// (p2 the reported point, else the ray's end in Python floats).
struct Lidar final : b2RayCastCallback {
  float32 fraction = 1.0f;
  double p1[2] = {0, 0};
  double p2[2] = {0, 0};
  float32 ReportFixture(b2Fixture* fixture, const b2Vec2& point, const b2Vec2& /*normal*/, float32 f) override {
    if ((fixture->GetFilterData().categoryBits & 1) == 0) return -1;
    p2[0] = point.x;
    p2[1] = point.y;
    fraction = f;
    return f;
  }
};

// A cloud of gymnasium's _generate_clouds: five corners and their x extent.
struct Cloud {
  double x[5], y[5];
  double x1, x2;
};

class BipedalWalker final : public Box2dEnv {
 public:
  BipedalWalker(const ArraySpec& action_spec, bool hardcore)
      : Box2dEnv(key(hardcore), action_spec), hardcore_(hardcore) {
    for (int i = 0; i < kLidars; ++i) {
      lidar_dir_[i][0] = std::sin(1.5 * i / 10.0) * kLidarRange;
      lidar_dir_[i][1] = std::cos(1.5 * i / 10.0) * kLidarRange;
    }
  }

  static std::string key(bool hardcore) { return hardcore ? "BipedalWalker(hardcore=1)" : "BipedalWalker(hardcore=0)"; }

 protected:
  void start_episode(Rng& rng) override {
    listener_ = BodyAndLegsContacts{};
    world_ = std::make_unique<b2World>(b2Vec2(0.0f, -10.0f));  // pybox2d's b2World() default gravity
    world_->SetContactListener(&listener_);
    has_prev_shaping_ = false;
    lidar_render_ = 0;
    obstacles_.clear();
    edges_.clear();

    generate_terrain(rng);
    // Clouds are only drawn, but their draws come between terrain and push.
    for (Cloud& cloud : clouds_) {
      const double x = rng.uniform(0, kTerrainLength) * kTerrainStep;
      const double y = kViewportH / kScale * 3 / 4;
      for (int a = 0; a < 5; ++a) {
        cloud.x[a] = x + 15 * kTerrainStep * std::sin(3.14 * 2 * a / 5) + rng.uniform(0, 5 * kTerrainStep);
        cloud.y[a] = y + 5 * kTerrainStep * std::cos(3.14 * 2 * a / 5) + rng.uniform(0, 5 * kTerrainStep);
      }
      cloud.x1 = *std::min_element(cloud.x, cloud.x + 5);
      cloud.x2 = *std::max_element(cloud.x, cloud.x + 5);
    }

    const double init_x = kTerrainStep * kTerrainStartpad / 2;
    const double init_y = kTerrainHeight + 2 * kLegH;
    b2BodyDef hull_def;
    hull_def.type = b2_dynamicBody;
    hull_def.position = vec(init_x, init_y);
    hull_ = world_->CreateBody(&hull_def);
    b2Vec2 poly[5];
    for (int i = 0; i < 5; ++i) poly[i] = vec(kHullPoly[i][0] / kScale, kHullPoly[i][1] / kScale);
    b2PolygonShape hull_shape;
    hull_shape.Set(poly, 5);
    b2FixtureDef hull_fixture;
    hull_fixture.shape = &hull_shape;
    hull_fixture.density = 5.0f;
    hull_fixture.friction = 0.1f;
    hull_fixture.filter.categoryBits = 0x0020;
    hull_fixture.filter.maskBits = 0x001;  // collide only with ground
    hull_fixture.restitution = 0.0f;
    hull_->CreateFixture(&hull_fixture);
    hull_->ApplyForceToCenter(vec(rng.uniform(-kInitialRandom, kInitialRandom), 0), true);

    b2PolygonShape upper_shape;
    upper_shape.SetAsBox(static_cast<float32>(kLegW / 2), static_cast<float32>(kLegH / 2));
    b2PolygonShape lower_shape;
    lower_shape.SetAsBox(static_cast<float32>(0.8 * kLegW / 2), static_cast<float32>(kLegH / 2));
    for (int k = 0; k < 2; ++k) {
      const int i = k == 0 ? -1 : +1;
      b2Body* upper = leg_body(vec(init_x, init_y - kLegH / 2 - kLegDown), i, upper_shape);
      joints_[2 * k] = joint(hull_, upper, vec(0, kLegDown), i, -0.8f, 1.1f);
      b2Body* lower = leg_body(vec(init_x, init_y - kLegH * 3 / 2 - kLegDown), i, lower_shape);
      joints_[2 * k + 1] = joint(upper, lower, vec(0, -kLegH / 2), 1, -1.6f, -0.1f);
      listener_.legs[k] = lower;
    }
    listener_.body = hull_;

    // gymnasium's reset returns the observation of a first step with the motors idle.
    const double idle[4] = {0, 0, 0, 0};
    advance_episode(Action{idle}, rng);
  }

  bool advance_episode(const Action& action, Rng& /*rng*/) override {
    // numpy float32 arithmetic on the float32 action: speed from its sign,
    // torque from its clipped magnitude.
    float a[4];
    for (int j = 0; j < 4; ++j) {
      a[j] = static_cast<float>(action.continuous()[j]);
      const float magnitude = std::clamp(std::abs(a[j]), 0.0f, 1.0f);
      joints_[j]->SetMotorSpeed(static_cast<float32>((j % 2 == 0 ? kSpeedHip : kSpeedKnee) * sign(a[j])));
      joints_[j]->SetMaxMotorTorque(static_cast<float>(kMotorsTorque) * magnitude);
    }

    world_->Step(static_cast<float32>(1.0 / kFps), 6 * 30, 2 * 30);

    const b2Vec2 pos = hull_->GetPosition();
    const b2Vec2 vel = hull_->GetLinearVelocity();
    for (int i = 0; i < kLidars; ++i) {
      Lidar& l = lidar_[i];
      l.fraction = 1.0f;
      l.p1[0] = pos.x;
      l.p1[1] = pos.y;
      l.p2[0] = pos.x + lidar_dir_[i][0];
      l.p2[1] = pos.y - lidar_dir_[i][1];
      world_->RayCast(&l, pos, vec(l.p2[0], l.p2[1]));
    }
    scroll_ = pos.x - kViewportW / kScale / 5;

    double* s = state_.data();
    s[0] = hull_->GetAngle();
    s[1] = 2.0 * hull_->GetAngularVelocity() / kFps;
    s[2] = 0.3 * vel.x * (kViewportW / kScale) / kFps;
    s[3] = 0.3 * vel.y * (kViewportH / kScale) / kFps;
    for (int k = 0; k < 2; ++k) {
      const b2RevoluteJoint* hip = joints_[2 * k];
      const b2RevoluteJoint* knee = joints_[2 * k + 1];
      double* leg = s + 4 + 5 * k;
      leg[0] = hip->GetJointAngle();
      leg[1] = hip->GetJointSpeed() / kSpeedHip;
      leg[2] = knee->GetJointAngle() + 1.0;
      leg[3] = knee->GetJointSpeed() / kSpeedKnee;
      leg[4] = listener_.ground_contact[k] ? 1.0 : 0.0;
    }
    for (int i = 0; i < kLidars; ++i) s[14 + i] = lidar_[i].fraction;

    double shaping = 130 * static_cast<double>(pos.x) / kScale;  // normalised to give 300 at the far end
    shaping -= 5.0 * std::abs(s[0]);
    const double progress = has_prev_shaping_ ? shaping - prev_shaping_ : 0.0;
    prev_shaping_ = shaping;
    has_prev_shaping_ = true;
    // `reward -= 0.00035 * MOTORS_TORQUE * clip(|a|)` with a float32 action:
    // numpy makes the cost and then the reward float32.
    const auto cost_per_torque = static_cast<float>(0.00035 * kMotorsTorque);
    auto reward = static_cast<float>(progress);
    for (const float aj : a) reward -= cost_per_torque * std::clamp(std::abs(aj), 0.0f, 1.0f);
    reward_ = reward;

    terminated_ = false;
    if (listener_.game_over || pos.x < 0) {
      reward_ = -100;
      terminated_ = true;
    }
    if (pos.x > (kTerrainLength - kTerrainGrass) * kTerrainStep) terminated_ = true;
    return terminated_;
  }

  // gymnasium's BipedalWalker.render, in its order: sky, clouds and ground
  // in view, one lidar ray, every body (ground edges and obstacles last
  // made first, then legs and hull), the flag.
  void render(const Frame& frame) override {
    constexpr double kViewW = kViewportW / kScale;
    const int width = static_cast<int>(kViewportW + std::max(0.0, scroll_) * kScale);
    draw::Image img(width, static_cast<int>(kViewportH));
    const double left = scroll_ * kScale;
    {
      const double xs[4] = {left, left + kViewportW, left + kViewportW, left};
      const double ys[4] = {0, 0, kViewportH, kViewportH};
      draw::pg_polygon(img, xs, ys, 4, draw::rgb(215, 215, 255), false, ints_);
    }
    for (const Cloud& cloud : clouds_) {
      if (cloud.x2 < scroll_ / 2 || cloud.x1 > scroll_ / 2 + kViewW) continue;
      double xs[5], ys[5];
      for (int a = 0; a < 5; ++a) {
        xs[a] = cloud.x[a] * kScale + scroll_ * kScale / 2;
        ys[a] = cloud.y[a] * kScale;
      }
      draw::pg_polygon(img, xs, ys, 5, draw::rgb(255, 255, 255), true, ints_);
    }
    for (int i = 0; i + 1 < kTerrainLength; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (terrain_x_[k + 1] < scroll_ || terrain_x_[k] > scroll_ + kViewW) continue;
      const double xs[4] = {terrain_x_[k] * kScale, terrain_x_[k + 1] * kScale, terrain_x_[k + 1] * kScale,
                            terrain_x_[k] * kScale};
      const double ys[4] = {terrain_y_[k] * kScale, terrain_y_[k + 1] * kScale, 0, 0};
      draw::pg_polygon(img, xs, ys, 4, draw::rgb(102, 153, 76), true, ints_);
    }
    lidar_render_ = (lidar_render_ + 1) % 100;
    if (lidar_render_ < 2 * kLidars) {
      const Lidar& l = lidar_[lidar_render_ < kLidars ? lidar_render_ : 2 * kLidars - 1 - lidar_render_];
      draw::pg_line(img, static_cast<int>(l.p1[0] * kScale), static_cast<int>(l.p1[1] * kScale),
                    static_cast<int>(l.p2[0] * kScale), static_cast<int>(l.p2[1] * kScale), draw::rgb(255, 0, 0));
    }
    for (std::size_t i = edges_.size(); i-- > 0;) {
      const auto* edge = static_cast<const b2EdgeShape*>(edges_[i]->GetFixtureList()->GetShape());
      const b2Transform& xf = edges_[i]->GetTransform();
      const b2Vec2 a = scaled(b2Mul(xf, edge->m_vertex1));
      const b2Vec2 b = scaled(b2Mul(xf, edge->m_vertex2));
      draw::pg_aaline(img, draw::rgb(76, i % 2 == 0 ? 255 : 204, 76), a.x, a.y, b.x, b.y, false, false, false);
    }
    for (std::size_t i = obstacles_.size(); i-- > 0;) {
      body_polygon(img, obstacles_[i], draw::rgb(255, 255, 255), draw::rgb(153, 153, 153));
    }
    for (int k = 0; k < 4; ++k) {
      const int i = k < 2 ? -1 : +1;  // upper and lower of each leg share its colours
      body_polygon(img, joints_[k]->GetBodyB(), draw::rgb(153 - i * 25, 76 - i * 25, 127 - i * 25),
                   draw::rgb(102 - i * 25, 51 - i * 25, 76 - i * 25));
    }
    body_polygon(img, hull_, draw::rgb(127, 51, 229), draw::rgb(76, 76, 127));
    const double flagy1 = kTerrainHeight * kScale;
    const double flagy2 = flagy1 + 50;
    const double x = kTerrainStep * 3 * kScale;
    draw::pg_aaline(img, draw::rgb(0, 0, 0), static_cast<float>(x), static_cast<float>(flagy1), static_cast<float>(x),
                    static_cast<float>(flagy2), false, false, false);
    const int fx[4] = {static_cast<int>(x), static_cast<int>(x), static_cast<int>(x + 25), static_cast<int>(x)};
    const int fy[4] = {static_cast<int>(flagy2), static_cast<int>(flagy2 - 10), static_cast<int>(flagy2 - 5),
                       static_cast<int>(flagy2)};
    draw::pg_polygon(img, fx, fy, 3, draw::rgb(230, 51, 0), ints_);
    draw::pg_lines(img, draw::rgb(0, 0, 0), fx, fy, 4, false);
    img.write_flipped_rgb(frame.rgb, width - static_cast<int>(kViewportW), static_cast<int>(kViewportW));
  }

  void write(const Output& out, bool after_reset) override {
    auto* obs = out.obs_as<float>();
    for (int i = 0; i < kObs; ++i) obs[i] = static_cast<float>(state_[static_cast<std::size_t>(i)]);
    if (!after_reset) {
      *out.reward = reward_;
      *out.terminated = terminated_;
    }
  }

 private:
  // A polygon body as gymnasium draws it: filled and anti-aliased in color1,
  // then the path closed on its first point outlined (lines, then
  // aapolygon) in color2.
  void body_polygon(draw::Image& img, const b2Body* body, std::uint32_t color1, std::uint32_t color2) {
    const BodyPath p(body);
    draw::pg_polygon(img, p.ix, p.iy, p.n, color1, ints_);
    draw::gfx_aapolygon(img, p.gx, p.gy, p.n, color1);
    draw::pg_lines(img, color2, p.ix, p.iy, p.n + 1, true);
    draw::gfx_aapolygon(img, p.gx, p.gy, p.n + 1, color2);
  }

  // One static terrain block: gymnasium's fd_polygon with new vertices, which
  // pybox2d passes to b2PolygonShape::Set as float32.
  void terrain_polygon(const std::array<std::array<double, 2>, 4>& corners) {
    b2Vec2 v[4];
    for (int i = 0; i < 4; ++i) v[i] = vec(corners[static_cast<std::size_t>(i)][0], corners[static_cast<std::size_t>(i)][1]);
    b2PolygonShape shape;
    shape.Set(v, 4);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.friction = static_cast<float32>(kFriction);
    b2BodyDef def;  // static, at the origin
    b2Body* body = world_->CreateBody(&def);
    body->CreateFixture(&fd);
    obstacles_.push_back(body);
  }

  // gymnasium's _generate_terrain: grass everywhere, or in hardcore grass
  // alternating with stumps, stairs and pits; static bodies in its order.
  void generate_terrain(Rng& rng) {
    enum State : std::int64_t { kGrass = 0, kStump, kStairs, kPit, kStates };
    std::int64_t state = kGrass;
    double velocity = 0.0;
    double y = kTerrainHeight;
    std::int64_t counter = kTerrainStartpad;
    bool oneshot = false;
    std::int64_t stair_steps = 0;
    std::int64_t stair_width = 0;
    std::int64_t stair_height = 0;
    double original_y = 0;
    constexpr double step = kTerrainStep;
    for (int i = 0; i < kTerrainLength; ++i) {
      const double x = i * step;
      terrain_x_[static_cast<std::size_t>(i)] = x;
      if (state == kGrass && !oneshot) {
        velocity = 0.8 * velocity + 0.01 * sign(kTerrainHeight - y);
        if (i > kTerrainStartpad) velocity += rng.uniform(-1, 1) / kScale;
        y += velocity;
      } else if (state == kPit && oneshot) {
        counter = 3 + static_cast<std::int64_t>(rng.integer(2));
        const double c = step * static_cast<double>(counter);
        terrain_polygon({{{x, y}, {x + step, y}, {x + step, y - 4 * step}, {x, y - 4 * step}}});
        terrain_polygon({{{x + c, y}, {x + step + c, y}, {x + step + c, y - 4 * step}, {x + c, y - 4 * step}}});
        counter += 2;
        original_y = y;
      } else if (state == kPit && !oneshot) {
        y = original_y;
        if (counter > 1) y -= 4 * step;
      } else if (state == kStump && oneshot) {
        counter = 1 + static_cast<std::int64_t>(rng.integer(2));
        const double c = static_cast<double>(counter) * step;
        terrain_polygon({{{x, y}, {x + c, y}, {x + c, y + c}, {x, y + c}}});
      } else if (state == kStairs && oneshot) {
        stair_height = rng.uniform() > 0.5 ? +1 : -1;
        stair_width = 4 + static_cast<std::int64_t>(rng.integer(1));  // integers(4, 5): always 4, still a draw
        stair_steps = 3 + static_cast<std::int64_t>(rng.integer(2));
        original_y = y;
        for (std::int64_t s = 0; s < stair_steps; ++s) {
          const double x0 = x + static_cast<double>(s * stair_width) * step;
          const double x1 = x + static_cast<double>((1 + s) * stair_width) * step;
          const double y0 = y + static_cast<double>(s * stair_height) * step;
          const double y1 = y + static_cast<double>(-1 + s * stair_height) * step;
          terrain_polygon({{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}});
        }
        counter = stair_steps * stair_width;
      } else if (state == kStairs && !oneshot) {
        const std::int64_t s = stair_steps * stair_width - counter - stair_height;
        const double n = static_cast<double>(s) / static_cast<double>(stair_width);
        y = original_y + (n * static_cast<double>(stair_height)) * step;
      }
      oneshot = false;
      terrain_y_[static_cast<std::size_t>(i)] = y;
      counter -= 1;
      if (counter == 0) {
        counter = kTerrainGrass / 2 + static_cast<std::int64_t>(rng.integer(kTerrainGrass - kTerrainGrass / 2));
        if (state == kGrass && hardcore_) {
          state = 1 + static_cast<std::int64_t>(rng.integer(kStates - 1));
        } else {
          state = kGrass;
        }
        oneshot = true;
      }
    }

    // The surface: one static body per edge, gymnasium's fd_edge.
    for (std::size_t i = 0; i + 1 < static_cast<std::size_t>(kTerrainLength); ++i) {
      b2EdgeShape edge;
      edge.Set(vec(terrain_x_[i], terrain_y_[i]), vec(terrain_x_[i + 1], terrain_y_[i + 1]));
      b2FixtureDef fd;
      fd.shape = &edge;
      fd.friction = static_cast<float32>(kFriction);
      fd.filter.categoryBits = 0x0001;
      b2BodyDef def;
      b2Body* body = world_->CreateBody(&def);
      body->CreateFixture(&fd);
      edges_.push_back(body);
    }
  }

  b2Body* leg_body(const b2Vec2& position, int i, const b2PolygonShape& shape) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = position;
    def.angle = static_cast<float32>(i * 0.05);
    b2Body* body = world_->CreateBody(&def);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.density = 1.0f;
    fd.restitution = 0.0f;
    fd.filter.categoryBits = 0x0020;
    fd.filter.maskBits = 0x001;
    body->CreateFixture(&fd);
    return body;
  }

  b2RevoluteJoint* joint(b2Body* a, b2Body* b, const b2Vec2& anchor_a, int motor_speed, float32 lower,
                         float32 upper) {
    b2RevoluteJointDef def;
    def.bodyA = a;
    def.bodyB = b;
    def.localAnchorA = anchor_a;
    def.localAnchorB = vec(0, kLegH / 2);
    def.referenceAngle = reference_angle(a, b);
    def.enableMotor = true;
    def.enableLimit = true;
    def.maxMotorTorque = static_cast<float32>(kMotorsTorque);
    def.motorSpeed = static_cast<float32>(motor_speed);
    def.lowerAngle = lower;
    def.upperAngle = upper;
    return static_cast<b2RevoluteJoint*>(world_->CreateJoint(&def));
  }

  bool hardcore_;
  double lidar_dir_[kLidars][2] = {};
  BodyAndLegsContacts listener_;
  std::unique_ptr<b2World> world_;
  b2Body* hull_ = nullptr;
  b2RevoluteJoint* joints_[4] = {nullptr, nullptr, nullptr, nullptr};  // hip, knee, hip, knee
  Lidar lidar_[kLidars];
  std::array<double, kTerrainLength> terrain_x_{};
  std::array<double, kTerrainLength> terrain_y_{};
  // What only rendering uses: gymnasium's terrain bodies (obstacle blocks,
  // surface edges: each in the order made), clouds, scroll and lidar_render.
  std::vector<const b2Body*> obstacles_;
  std::vector<const b2Body*> edges_;
  std::array<Cloud, kTerrainLength / 20> clouds_{};
  double scroll_ = 0;
  int lidar_render_ = 0;
  std::vector<int> ints_;  // polygon scratch
  bool has_prev_shaping_ = false;
  double prev_shaping_ = 0;
  std::array<double, kObs> state_{};
  double reward_ = 0;
  bool terminated_ = false;
};

ArraySpec action_spec() {
  return ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {4}, .low = {-1, -1, -1, -1},
                   .high = {1, 1, 1, 1}};
}

EnvSpec make_spec(const Config& /*config*/) {
  // gymnasium's bounds, float32-rounded: hull, two legs (hip, knee, contact), lidar.
  const double pi = f32(std::numbers::pi);
  std::vector<double> low = {-pi, -5.0, -5.0, -5.0, -pi, -5.0, -pi, -5.0, -0.0, -pi, -5.0, -pi, -5.0, -0.0};
  std::vector<double> high = {pi, 5.0, 5.0, 5.0, pi, 5.0, pi, 5.0, 5.0, pi, 5.0, pi, 5.0, 5.0};
  low.resize(kObs, -1.0);
  high.resize(kObs, 1.0);
  return vector_spec(std::move(low), std::move(high), action_spec());
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "BipedalWalker",
    .options =
        {
            {"hardcore", false, "Hardcore terrain: grass alternating with stumps, stairs and pits."},
        },
    .spec = make_spec,
    .create =
        [](const Config& config) -> std::unique_ptr<Env> {
          return std::make_unique<BipedalWalker>(action_spec(), config.get_bool("hardcore"));
        },
});

}  // namespace rlpool::box2d
