// CarRacing, as gymnasium 1.x's box2d/car_racing.py and car_dynamics.py
// compute it: the same track from the same draws (with the same retries), the
// same Box2D world built in the same order, the tyre model in Python's float64
// arithmetic between Box2D's float32 values, and the same 96x96 frame
// (car_racing_render.h draws what pygame draws, then scales it as pygame does).
// render() draws gymnasium's rgb_array frame: the same window with the skid
// marks, shrunk to 600x400.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <sstream>
#include <vector>

#include "envs/box2d/box2d_env.h"
#include "envs/box2d/car_racing_render.h"

namespace rlpool::box2d {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kScale = 6.0;
constexpr double kTrackRad = 900 / kScale;
constexpr double kPlayfield = 2000 / kScale;
constexpr double kZoom = 2.7;
constexpr double kTrackDetailStep = 21 / kScale;
constexpr double kTrackTurnRate = 0.31;
constexpr double kTrackWidth = 40 / kScale;
constexpr double kBorder = 8 / kScale;
constexpr int kBorderMinCount = 4;
constexpr int kCheckpoints = 12;

// car_dynamics.py (products in Python's left-to-right order).
constexpr double kSize = 0.02;
constexpr double kEnginePower = 100000000 * kSize * kSize;
constexpr double kWheelMomentOfInertia = 4000 * kSize * kSize;
constexpr double kFrictionLimit = 1000000 * kSize * kSize;
constexpr double kWheelR = 27;
constexpr double kWheelW = 14;
constexpr double kWheelPos[4][2] = {{-55, +80}, {+55, +80}, {-55, -82}, {+55, -82}};
constexpr double kHullPoly1[4][2] = {{-60, +130}, {+60, +130}, {+60, +110}, {-60, +110}};
constexpr double kHullPoly2[4][2] = {{-15, +120}, {+15, +120}, {+20, +20}, {-20, 20}};
constexpr double kHullPoly3[8][2] = {{+25, +20}, {+50, -10}, {+50, -40}, {+20, -90},
                                     {-20, -90}, {-50, -40}, {-50, -10}, {-25, +20}};
constexpr double kHullPoly4[4][2] = {{-50, -120}, {+50, -120}, {+50, -90}, {-50, -90}};

// Python's seq[i] for i in [-n, n).
template <class V>
auto& wrap(V& v, int i) {
  return v[static_cast<std::size_t>(i < 0 ? i + static_cast<int>(v.size()) : i)];
}

struct Options {
  bool continuous;
  double lap_complete_percent;
  bool domain_randomize;
};

// What the contact listener tells apart: a body's userData points at one of these.
struct Tagged {
  bool is_tile;
};
struct Tile : Tagged {
  b2Body* body = nullptr;
  double color[3] = {};
  bool visited = false;
  int idx = 0;
};
struct Wheel : Tagged {
  b2Body* body = nullptr;
  b2RevoluteJoint* joint = nullptr;
  double gas = 0, brake = 0, steer = 0, phase = 0, omega = 0;
  int tiles = 0;  // road tiles touched (gymnasium's set of tiles; every tile's friction is 1)
  // car_dynamics' skid trace: whether a skid has started, and the mark
  // being extended (a mark the car's deque has dropped can still grow).
  bool skid_start = false;
  std::shared_ptr<FrameInput::Skid> skid_particle;
};

class CarRacing final : public Box2dEnv {
 public:
  CarRacing(const ArraySpec& action_spec, Options options) : Box2dEnv(key(options), action_spec), o_(options) {}

  static std::string key(const Options& o) {
    std::ostringstream s;
    s.precision(17);
    s << "CarRacing(continuous=" << o.continuous << ", lap_complete_percent=" << o.lap_complete_percent
      << ", domain_randomize=" << o.domain_randomize << ")";
    return s.str();
  }

  bool two_phase() const override { return true; }

 protected:
  void start_episode(Rng& rng) override {
    listener_ = Contacts{};
    listener_.env = this;
    world_.reset();
    tiles_.clear();
    world_ = std::make_unique<b2World>(b2Vec2(0, 0));
    world_->SetContactListener(&listener_);
    reward_ = 0;
    prev_reward_ = 0;
    tile_visited_count_ = 0;
    t_ = 0;
    new_lap_ = false;
    road_poly_.clear();
    skids_.clear();

    if (o_.domain_randomize) {
      for (double& c : road_color_) c = rng.uniform(0, 210);
      for (double& c : bg_color_) c = rng.uniform(0, 210);
      std::copy(std::begin(bg_color_), std::end(bg_color_), grass_color_);
      grass_color_[rng.integer(3)] += 20;
    } else {
      road_color_[0] = road_color_[1] = road_color_[2] = 102;
      bg_color_[0] = 102, bg_color_[1] = 204, bg_color_[2] = 102;
      grass_color_[0] = 102, grass_color_[1] = 230, grass_color_[2] = 102;
    }
    while (!create_track(rng)) {
    }
    create_car(track_[0][1], track_[0][2], track_[0][3]);
    // gymnasium's reset returns the frame of a step without an action.
    step_car(nullptr);
  }

  bool advance_episode(const Action& action, Rng& /*rng*/) override {
    step_car(&action);
    return terminated_;
  }

  void write(const Output& out, bool after_reset) override {
    draw_observation(out.obs_as<std::uint8_t>());
    if (!after_reset) {
      *out.reward = step_reward_;
      *out.terminated = terminated_;
    }
  }

 private:
  friend struct Contacts;

  // gymnasium's FrictionDetector: any contact with a tile paints it the road
  // colour; a wheel's contacts also count the tile visited and set its grip.
  struct Contacts final : b2ContactListener {
    CarRacing* env = nullptr;
    void BeginContact(b2Contact* c) override { env->contact(c, true); }
    void EndContact(b2Contact* c) override { env->contact(c, false); }
  };

  void contact(b2Contact* c, bool begin) {
    auto* u1 = static_cast<Tagged*>(c->GetFixtureA()->GetBody()->GetUserData());
    auto* u2 = static_cast<Tagged*>(c->GetFixtureB()->GetBody()->GetUserData());
    Tile* tile = nullptr;
    Tagged* obj = nullptr;
    if (u1 != nullptr && u1->is_tile) tile = static_cast<Tile*>(u1), obj = u2;
    if (u2 != nullptr && u2->is_tile) tile = static_cast<Tile*>(u2), obj = u1;
    if (tile == nullptr) return;
    std::copy(std::begin(road_color_), std::end(road_color_), tile->color);
    if (obj == nullptr || obj->is_tile) return;
    auto* wheel = static_cast<Wheel*>(obj);
    if (begin) {
      wheel->tiles += 1;
      if (!tile->visited) {
        tile->visited = true;
        const double n = static_cast<double>(track_.size());
        reward_ += 1000.0 / n;
        tile_visited_count_ += 1;
        // As in gymnasium: only a first visit of tile 0 can end the lap, and the
        // rear wheels touch tile 0 at reset, so in practice a lap ends when
        // every tile has been visited, whatever lap_complete_percent says.
        if (tile->idx == 0 && static_cast<double>(tile_visited_count_) / n > o_.lap_complete_percent) new_lap_ = true;
      }
    } else {
      wheel->tiles -= 1;
    }
  }

  bool create_track(Rng& rng) {
    std::array<std::array<double, 3>, kCheckpoints> checkpoints{};
    for (int c = 0; c < kCheckpoints; ++c) {
      const double noise = rng.uniform(0, 2 * kPi * 1 / kCheckpoints);
      double alpha = 2 * kPi * c / kCheckpoints + noise;
      double rad = rng.uniform(kTrackRad / 3, kTrackRad);
      if (c == 0) {
        alpha = 0;
        rad = 1.5 * kTrackRad;
      }
      if (c == kCheckpoints - 1) {
        alpha = 2 * kPi * c / kCheckpoints;
        start_alpha_ = 2 * kPi * (-0.5) / kCheckpoints;
        rad = 1.5 * kTrackRad;
      }
      checkpoints[static_cast<std::size_t>(c)] = {alpha, rad * std::cos(alpha), rad * std::sin(alpha)};
    }

    double x = 1.5 * kTrackRad, y = 0, beta = 0;
    int dest_i = 0;
    int laps = 0;
    std::vector<std::array<double, 4>> track;
    int no_freeze = 2500;
    bool visited_other_side = false;
    while (true) {
      double alpha = std::atan2(y, x);
      if (visited_other_side && alpha > 0) {
        laps += 1;
        visited_other_side = false;
      }
      if (alpha < 0) {
        visited_other_side = true;
        alpha += 2 * kPi;
      }
      double dest_x = 0, dest_y = 0;
      while (true) {  // find the destination among the checkpoints
        bool failed = true;
        while (true) {
          const auto& cp = checkpoints[static_cast<std::size_t>(dest_i % kCheckpoints)];
          dest_x = cp[1];
          dest_y = cp[2];
          if (alpha <= cp[0]) {
            failed = false;
            break;
          }
          dest_i += 1;
          if (dest_i % kCheckpoints == 0) break;
        }
        if (!failed) break;
        alpha -= 2 * kPi;
      }
      const double r1x = std::cos(beta);
      const double r1y = std::sin(beta);
      const double p1x = -r1y;
      const double p1y = r1x;
      const double dest_dx = dest_x - x;
      const double dest_dy = dest_y - y;
      double proj = r1x * dest_dx + r1y * dest_dy;
      while (beta - alpha > 1.5 * kPi) beta -= 2 * kPi;
      while (beta - alpha < -1.5 * kPi) beta += 2 * kPi;
      const double prev_beta = beta;
      proj *= kScale;
      if (proj > 0.3) beta -= std::min(kTrackTurnRate, std::abs(0.001 * proj));
      if (proj < -0.3) beta += std::min(kTrackTurnRate, std::abs(0.001 * proj));
      x += p1x * kTrackDetailStep;
      y += p1y * kTrackDetailStep;
      track.push_back({alpha, prev_beta * 0.5 + beta * 0.5, x, y});
      if (laps > 4) break;
      no_freeze -= 1;
      if (no_freeze == 0) break;
    }

    int i1 = -1, i2 = -1;
    int i = static_cast<int>(track.size());
    while (true) {
      i -= 1;
      if (i == 0) return false;
      const bool pass_through_start = track[static_cast<std::size_t>(i)][0] > start_alpha_ &&
                                      wrap(track, i - 1)[0] <= start_alpha_;
      if (pass_through_start && i2 == -1) {
        i2 = i;
      } else if (pass_through_start && i1 == -1) {
        i1 = i;
        break;
      }
    }
    track = std::vector<std::array<double, 4>>(track.begin() + i1, track.begin() + (i2 - 1));
    if (track.empty()) return false;  // Python would fail on track[0] here; never seen

    const double first_beta = track[0][1];
    const double first_perp_x = std::cos(first_beta);
    const double first_perp_y = std::sin(first_beta);
    const double gx = first_perp_x * (track[0][2] - track.back()[2]);
    const double gy = first_perp_y * (track[0][3] - track.back()[3]);
    if (std::sqrt(gx * gx + gy * gy) > kTrackDetailStep) return false;

    const int n = static_cast<int>(track.size());
    std::vector<bool> border(static_cast<std::size_t>(n), false);
    for (int k = 0; k < n; ++k) {
      bool good = true;
      double oneside = 0;
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        const double beta1 = wrap(track, k - neg - 0)[1];
        const double beta2 = wrap(track, k - neg - 1)[1];
        good = good && std::abs(beta1 - beta2) > kTrackTurnRate * 0.2;
        oneside += sign(beta1 - beta2);
      }
      good = good && std::abs(oneside) == kBorderMinCount;
      border[static_cast<std::size_t>(k)] = good;
    }
    for (int k = 0; k < n; ++k) {
      for (int neg = 0; neg < kBorderMinCount; ++neg) {
        const int j = k - neg < 0 ? k - neg + n : k - neg;  // Python's border[k - neg]
        if (border[static_cast<std::size_t>(k)]) border[static_cast<std::size_t>(j)] = true;
      }
    }

    tiles_.clear();
    tiles_.reserve(static_cast<std::size_t>(n));  // the bodies point into it
    for (int k = 0; k < n; ++k) {
      const auto& [alpha1, beta1, x1, y1] = track[static_cast<std::size_t>(k)];
      const auto& [alpha2, beta2, x2, y2] = wrap(track, k - 1);
      (void)alpha1, (void)alpha2;
      const Point road1_l{x1 - kTrackWidth * std::cos(beta1), y1 - kTrackWidth * std::sin(beta1)};
      const Point road1_r{x1 + kTrackWidth * std::cos(beta1), y1 + kTrackWidth * std::sin(beta1)};
      const Point road2_l{x2 - kTrackWidth * std::cos(beta2), y2 - kTrackWidth * std::sin(beta2)};
      const Point road2_r{x2 + kTrackWidth * std::cos(beta2), y2 + kTrackWidth * std::sin(beta2)};
      const Point quad[4] = {road1_l, road1_r, road2_r, road2_l};
      b2Vec2 verts[4];
      for (int v = 0; v < 4; ++v) verts[v] = vec(quad[v].x, quad[v].y);
      b2PolygonShape shape;
      shape.Set(verts, 4);
      b2FixtureDef fd;
      fd.shape = &shape;
      b2BodyDef bd;
      bd.type = b2_staticBody;
      auto& tile = tiles_.emplace_back();
      tile.is_tile = true;
      tile.body = world_->CreateBody(&bd);
      tile.body->CreateFixture(&fd);
      tile.body->SetUserData(&tile);
      const double c = 0.01 * (k % 3) * 255;
      for (int ch = 0; ch < 3; ++ch) tile.color[ch] = road_color_[ch] + c;
      tile.idx = k;
      tile.body->GetFixtureList()->SetSensor(true);
      road_poly_.push_back(RoadPoly{{road1_l, road1_r, road2_r, road2_l}, static_cast<int>(tiles_.size() - 1), {}});
      if (border[static_cast<std::size_t>(k)]) {
        const double side = sign(beta2 - beta1);
        const Point b1_l{x1 + side * kTrackWidth * std::cos(beta1), y1 + side * kTrackWidth * std::sin(beta1)};
        const Point b1_r{x1 + side * (kTrackWidth + kBorder) * std::cos(beta1),
                         y1 + side * (kTrackWidth + kBorder) * std::sin(beta1)};
        const Point b2_l{x2 + side * kTrackWidth * std::cos(beta2), y2 + side * kTrackWidth * std::sin(beta2)};
        const Point b2_r{x2 + side * (kTrackWidth + kBorder) * std::cos(beta2),
                         y2 + side * (kTrackWidth + kBorder) * std::sin(beta2)};
        RoadPoly poly{{b1_l, b1_r, b2_r, b2_l}, -1, {255, 255, 255}};
        if (k % 2 != 0) poly.color[1] = poly.color[2] = 0;
        road_poly_.push_back(poly);
      }
    }
    track_ = std::move(track);
    return true;
  }

  void create_car(double init_angle, double init_x, double init_y) {
    b2BodyDef hull_def;
    hull_def.type = b2_dynamicBody;
    hull_def.position = vec(init_x, init_y);
    hull_def.angle = static_cast<float32>(init_angle);
    hull_ = world_->CreateBody(&hull_def);
    const auto add_hull_part = [&](const double (*poly)[2], int count) {
      b2Vec2 verts[8];
      for (int k = 0; k < count; ++k) verts[k] = vec(poly[k][0] * kSize, poly[k][1] * kSize);
      b2PolygonShape shape;
      shape.Set(verts, count);
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.density = 1.0f;
      hull_->CreateFixture(&fd);
    };
    add_hull_part(kHullPoly1, 4);
    add_hull_part(kHullPoly2, 4);
    add_hull_part(kHullPoly3, 8);
    add_hull_part(kHullPoly4, 4);

    const double wheel_poly[4][2] = {{-kWheelW, +kWheelR}, {+kWheelW, +kWheelR}, {+kWheelW, -kWheelR}, {-kWheelW, -kWheelR}};
    for (int k = 0; k < 4; ++k) {
      const double wx = kWheelPos[k][0];
      const double wy = kWheelPos[k][1];
      const double front_k = 1.0;
      b2BodyDef bd;
      bd.type = b2_dynamicBody;
      bd.position = vec(init_x + wx * kSize, init_y + wy * kSize);
      bd.angle = static_cast<float32>(init_angle);
      Wheel& w = wheels_[static_cast<std::size_t>(k)];
      w = Wheel{};
      w.is_tile = false;
      w.body = world_->CreateBody(&bd);
      b2Vec2 verts[4];
      for (int v = 0; v < 4; ++v) verts[v] = vec(wheel_poly[v][0] * front_k * kSize, wheel_poly[v][1] * front_k * kSize);
      b2PolygonShape shape;
      shape.Set(verts, 4);
      b2FixtureDef fd;
      fd.shape = &shape;
      fd.density = 0.1f;
      fd.filter.categoryBits = 0x0020;
      fd.filter.maskBits = 0x001;
      fd.restitution = 0.0f;
      w.body->CreateFixture(&fd);
      b2RevoluteJointDef rjd;
      rjd.bodyA = hull_;
      rjd.bodyB = w.body;
      rjd.localAnchorA = vec(wx * kSize, wy * kSize);
      rjd.localAnchorB = vec(0, 0);
      rjd.referenceAngle = reference_angle(hull_, w.body);
      rjd.enableMotor = true;
      rjd.enableLimit = true;
      rjd.maxMotorTorque = static_cast<float32>(180 * 900 * kSize * kSize);
      rjd.motorSpeed = 0;
      rjd.lowerAngle = -0.4f;
      rjd.upperAngle = +0.4f;
      w.joint = static_cast<b2RevoluteJoint*>(world_->CreateJoint(&rjd));
      w.body->SetUserData(&w);
    }
  }

  // gymnasium's step: controls, car_dynamics' step, the world's, then the
  // reward bookkeeping (none for reset's step without an action).
  void step_car(const Action* action) {
    if (action != nullptr) {
      double steer, gas, brake;
      if (o_.continuous) {
        const double* a = action->continuous();
        // float32 values as float64 (the engine hands them over widened).
        steer = -a[0];
        gas = a[1];
        brake = a[2];
      } else {
        const auto a = action->discrete();
        steer = -0.6 * (a == 1) + 0.6 * (a == 2);
        gas = 0.2 * (a == 3);
        brake = 0.8 * (a == 4);
      }
      wheels_[0].steer = steer;
      wheels_[1].steer = steer;
      gas = std::clamp(gas, 0.0, 1.0);
      for (int k = 2; k < 4; ++k) {
        double diff = gas - wheels_[static_cast<std::size_t>(k)].gas;
        if (diff > 0.1) diff = 0.1;  // gradually increase, but stop immediately
        wheels_[static_cast<std::size_t>(k)].gas += diff;
      }
      for (auto& w : wheels_) w.brake = brake;
    }
    step_wheels(1.0 / kFps);
    world_->Step(static_cast<float32>(1.0 / kFps), 6 * 30, 2 * 30);
    t_ += 1.0 / kFps;

    step_reward_ = 0;
    terminated_ = false;
    if (action != nullptr) {
      reward_ -= 0.1;
      step_reward_ = reward_ - prev_reward_;
      prev_reward_ = reward_;
      if (tile_visited_count_ == static_cast<int>(track_.size()) || new_lap_) terminated_ = true;
      const b2Vec2 pos = hull_->GetPosition();
      if (std::abs(static_cast<double>(pos.x)) > kPlayfield || std::abs(static_cast<double>(pos.y)) > kPlayfield) {
        terminated_ = true;
        step_reward_ = -100;
      }
    }
  }

  void step_wheels(double dt) {
    for (auto& w : wheels_) {
      const double joint_angle = w.joint->GetJointAngle();
      const double dir = sign(w.steer - joint_angle);
      const double val = std::abs(w.steer - joint_angle);
      w.joint->SetMotorSpeed(static_cast<float32>(dir * std::min(50.0 * val, 3.0)));

      double friction_limit = kFrictionLimit * 0.6;  // grass, unless on a tile
      if (w.tiles > 0) friction_limit = std::max(friction_limit, kFrictionLimit * 1.0);
      const bool grass = w.tiles == 0;
      const b2Vec2 forw = w.body->GetWorldVector(b2Vec2(0, 1));
      const b2Vec2 side = w.body->GetWorldVector(b2Vec2(1, 0));
      const b2Vec2 v = w.body->GetLinearVelocity();
      const double vf = static_cast<double>(forw.x) * v.x + static_cast<double>(forw.y) * v.y;
      const double vs = static_cast<double>(side.x) * v.x + static_cast<double>(side.y) * v.y;

      w.omega += dt * kEnginePower * w.gas / kWheelMomentOfInertia / (std::abs(w.omega) + 5.0);
      if (w.brake >= 0.9) {
        w.omega = 0;
      } else if (w.brake > 0) {
        constexpr double kBrakeForce = 15;  // radians per second
        const double bdir = -sign(w.omega);
        double bval = kBrakeForce * w.brake;
        if (std::abs(bval) > std::abs(w.omega)) bval = std::abs(w.omega);  // low speed => same as = 0
        w.omega += bdir * bval;
      }
      w.phase += w.omega * dt;

      const double wheel_rad = 1.0 * kWheelR * kSize;
      const double vr = w.omega * wheel_rad;
      double f_force = -vf + vr;
      double p_force = -vs;
      f_force *= 205000 * kSize * kSize;
      p_force *= 205000 * kSize * kSize;
      double force = std::sqrt(f_force * f_force + p_force * p_force);
      skid_trace(w, std::abs(force) > 2.0 * friction_limit, grass);
      if (std::abs(force) > friction_limit) {
        f_force /= force;
        p_force /= force;
        force = friction_limit;
        f_force *= force;
        p_force *= force;
      }
      w.omega -= dt * f_force * wheel_rad / kWheelMomentOfInertia;
      w.body->ApplyForceToCenter(vec(p_force * side.x + f_force * forw.x, p_force * side.y + f_force * forw.y), true);
    }
  }

  // car_dynamics' skid trace. gymnasium's skid_start is pybox2d's live view
  // of the wheel's position, so a new mark's two first points are both where
  // the wheel is when the mark is made.
  void skid_trace(Wheel& w, bool skidding, bool grass) {
    if (!skidding) {
      w.skid_start = false;
      w.skid_particle.reset();
      return;
    }
    const b2Vec2 pos = w.body->GetPosition();
    if (w.skid_particle && w.skid_particle->grass == grass && w.skid_particle->points.size() < 30) {
      w.skid_particle->points.push_back({pos.x, pos.y});
    } else if (!w.skid_start) {
      w.skid_start = true;
    } else {
      auto mark = std::make_shared<FrameInput::Skid>();
      mark->points = {{pos.x, pos.y}, {pos.x, pos.y}};
      mark->grass = grass;
      skids_.push_back(mark);
      if (skids_.size() > 30) skids_.erase(skids_.begin());  // deque(maxlen=30)
      w.skid_particle = std::move(mark);
      w.skid_start = false;
    }
  }

  void fill_frame();
  void draw_observation(std::uint8_t* obs) {
    fill_frame();
    canvas_.draw(frame_, obs);
  }
  void render(const Frame& frame) override {
    fill_frame();
    frame_.skids = skids_;
    canvas_.draw_video(frame_, frame.rgb);
    frame_.skids.clear();
  }

  struct RoadPoly {
    Point points[4];
    int tile;  // index into tiles_ (its colour changes on contact), or -1: a border, `color`
    double color[3];
  };

  Options o_;
  Contacts listener_;
  std::unique_ptr<b2World> world_;
  std::vector<Tile> tiles_;
  std::array<Wheel, 4> wheels_{};
  b2Body* hull_ = nullptr;
  std::vector<std::array<double, 4>> track_;
  std::vector<RoadPoly> road_poly_;
  double start_alpha_ = 0;
  double road_color_[3] = {}, bg_color_[3] = {}, grass_color_[3] = {};
  double reward_ = 0, prev_reward_ = 0, step_reward_ = 0;
  int tile_visited_count_ = 0;
  double t_ = 0;
  bool new_lap_ = false;
  bool terminated_ = false;
  std::vector<std::shared_ptr<FrameInput::Skid>> skids_;  // car_dynamics' particles, oldest first
  FrameInput frame_;
  Canvas canvas_;
};

void CarRacing::fill_frame() {
  FrameInput& in = frame_;  // kept between frames: its vectors keep their capacity
  in.angle = -static_cast<double>(hull_->GetAngle());
  in.zoom = 0.1 * kScale * std::max(1 - t_, 0.0) + kZoom * kScale * std::min(t_, 1.0);
  in.car_x = hull_->GetPosition().x;
  in.car_y = hull_->GetPosition().y;
  for (int ch = 0; ch < 3; ++ch) {
    in.bg_color[ch] = static_cast<int>(bg_color_[ch]);
    in.grass_color[ch] = static_cast<int>(grass_color_[ch]);
  }
  in.road.clear();
  in.road.reserve(road_poly_.size());
  for (const auto& p : road_poly_) {
    FrameInput::Poly out;
    std::copy(std::begin(p.points), std::end(p.points), out.points);
    const double* color = p.tile >= 0 ? tiles_[static_cast<std::size_t>(p.tile)].color : p.color;
    for (int ch = 0; ch < 3; ++ch) out.color[ch] = static_cast<int>(color[ch]);
    in.road.push_back(out);
  }
  // car_dynamics' draw: wheels, then the hull, each fixture in the body's list order.
  in.car.clear();
  const auto add_body = [&](b2Body* body, const int color[3], const Wheel* wheel) {
    const b2Transform& xf = body->GetTransform();
    for (const b2Fixture* f = body->GetFixtureList(); f != nullptr; f = f->GetNext()) {
      const auto* shape = static_cast<const b2PolygonShape*>(f->GetShape());
      FrameInput::CarPoly poly;
      poly.count = shape->m_count;
      for (int k = 0; k < shape->m_count; ++k) {
        const b2Vec2 p = b2Mul(xf, shape->m_vertices[k]);
        poly.points[k] = {p.x, p.y};
      }
      std::copy(color, color + 3, poly.color);
      in.car.push_back(poly);
      if (wheel == nullptr) continue;
      const double a1 = wheel->phase;
      const double a2 = wheel->phase + 1.2;  // radians
      const double s1 = std::sin(a1), s2 = std::sin(a2);
      double c1 = std::cos(a1), c2 = std::cos(a2);
      if (s1 > 0 && s2 > 0) continue;
      if (s1 > 0) c1 = sign(c1);
      if (s2 > 0) c2 = sign(c2);
      const double white[4][2] = {{-kWheelW * kSize, +kWheelR * c1 * kSize},
                                  {+kWheelW * kSize, +kWheelR * c1 * kSize},
                                  {+kWheelW * kSize, +kWheelR * c2 * kSize},
                                  {-kWheelW * kSize, +kWheelR * c2 * kSize}};
      FrameInput::CarPoly wp;
      wp.count = 4;
      for (int k = 0; k < 4; ++k) {
        const b2Vec2 p = b2Mul(xf, vec(white[k][0], white[k][1]));
        wp.points[k] = {p.x, p.y};
      }
      wp.color[0] = wp.color[1] = wp.color[2] = 77;
      in.car.push_back(wp);
    }
  };
  // The fixture list holds a body's fixtures newest first, as pybox2d's body.fixtures lists them.
  const int black[3] = {0, 0, 0};
  const int red[3] = {static_cast<int>(0.8 * 255), 0, 0};
  for (const auto& w : wheels_) add_body(w.body, black, &w);
  add_body(hull_, red, nullptr);

  const b2Vec2 v = hull_->GetLinearVelocity();
  in.true_speed = std::sqrt(static_cast<double>(v.x) * v.x + static_cast<double>(v.y) * v.y);
  for (int k = 0; k < 4; ++k) in.wheel_omega[k] = wheels_[static_cast<std::size_t>(k)].omega;
  in.steer_angle = wheels_[0].joint->GetJointAngle();
  in.angular_velocity = hull_->GetAngularVelocity();
  in.reward = reward_;
}

Options options(const Config& config) {
  return Options{
      .continuous = config.get_bool("continuous"),
      .lap_complete_percent = config.get_finite("lap_complete_percent"),
      .domain_randomize = config.get_bool("domain_randomize"),
  };
}

ArraySpec action_spec(bool continuous) {
  if (continuous) {
    return ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {3}, .low = {-1, 0, 0}, .high = {1, 1, 1}};
  }
  return ArraySpec{.name = "action", .dtype = DType::kInt64, .shape = {}, .low = {0}, .high = {4}};
}

EnvSpec make_spec(const Config& config) {
  const Options o = options(config);
  return EnvSpec{
      .obs = {ArraySpec{.name = "obs", .dtype = DType::kUInt8, .shape = {96, 96, 3}, .low = {0}, .high = {255}}},
      .action = action_spec(o.continuous),
      .info = {},
      .render_width = kWindowW,  // gymnasium's VIDEO_W x VIDEO_H
      .render_height = kWindowH,
      .render_fps = kFps,
  };
}

}  // namespace

static const bool kRegistered = register_env_type({
    .name = "CarRacing",
    .options =
        {
            {"continuous", true, "Continuous actions (steer in [-1, 1], gas, brake in [0, 1]) instead of 5."},
            {"lap_complete_percent", 0.95, "Share of the tiles to visit before crossing the start ends the lap."},
            {"domain_randomize", false, "Random road, background and grass colours at each reset."},
        },
    .spec = make_spec,
    .create =
        [](const Config& config) -> std::unique_ptr<Env> {
          const Options o = options(config);
          return std::make_unique<CarRacing>(action_spec(o.continuous), o);
        },
});

}  // namespace rlpool::box2d
