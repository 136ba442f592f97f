// MyoSuite's pen-twirling tasks: myosuite 2.11.6's PenTwirlFixedEnvV0 and
// PenTwirlRandomEnvV0 (envs/myo/myobase/pen_v0.py) and their registered ids
// (envs/myo/myobase/__init__.py: myoHandPenTwirlFixed-v0 and
// myoHandPenTwirlRandom-v0, frame_skip 5).
//
// The hand starts fully open and palm up (init_qpos zero for the hand but
// for qpos[0] = -1.5; the pen's six joints as the model has them). The
// observation is the hand's qpos, the pen body's position, the pen's six
// velocities * dt, the pen's and the target's unit axes (top site minus
// bottom site over the model's length), the pen's offset from the eps_ball
// site, the axes' difference and the muscles' activations (get_obs_dict); the
// reward terms are pos_align (-|offset|), rot_align (the axes' cosine as
// vector_math.calculate_cosine computes it), act_reg, drop (offset beyond
// 0.075, which also ends the episode) and bonus (cosine above 0.9 and 0.95
// while not dropped).
// The fixed id draws nothing at a reset. The random id draws two uniforms in
// [-1, 1): the target's x then y Euler angle, turned into the target body's
// body_quat by quat_math.euler2quat (z angle 0).
#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/myo_env.h"

namespace rlpool::myosuite {
namespace {

struct PenParams {
  bool random = false;  // PenTwirlRandomEnvV0
};

using Vec3 = std::array<double, 3>;

// quat_math.euler2quat of one Euler triple, numpy's operations in its order.
std::array<double, 4> euler2quat(const Vec3& euler) {
  const double ai = euler[2] / 2, aj = -euler[1] / 2, ak = euler[0] / 2;
  const double si = std::sin(ai), sj = std::sin(aj), sk = std::sin(ak);
  const double ci = std::cos(ai), cj = std::cos(aj), ck = std::cos(ak);
  const double cc = ci * ck, cs = ci * sk;
  const double sc = si * ck, ss = si * sk;
  return {cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs};
}

// vector_math.calculate_cosine of two 3-vectors: the dot product (np.einsum's sum of products, which
// adds the two-lane partial sums (x0 y0 + x2 y2) + x1 y1) over the product of the norms (1 where zero).
double cosine(const Vec3& a, const Vec3& b) {
  double norm_product = numpy_norm(a.data(), 3) * numpy_norm(b.data(), 3);
  if (norm_product == 0) norm_product = 1;
  const double dot = (a[0] * b[0] + a[2] * b[2]) + a[1] * b[1];
  return dot / norm_product;
}

class PenEnv : public MyoEnv {
 public:
  PenEnv(const Setup& setup, const TaskBase& base, PenParams params)
      : MyoEnv(setup, base, {"pos_align", "rot_align", "act_reg", "drop", "bonus"}),
        p_(params),
        target_(body("target")),
        object_(body("Object")),
        eps_ball_(site("eps_ball")),
        obj_t_(site("object_top")),
        obj_b_(site("object_bottom")),
        tar_t_(site("target_top")),
        tar_b_(site("target_bottom")) {
    const mjModel* mm = m();
    if (mm->nq < 6 || mm->nv < 6) throw std::invalid_argument(setup.id + ": the model has no six pen joints");
    site("S_grasp");  // looked up by upstream's _setup
    pen_length_ = site_distance(obj_t_, obj_b_);
    tar_length_ = site_distance(tar_t_, tar_b_);
    // The random id writes body_quat of the target: this env's own copy, saved with its state.
    body_quat_.assign(mm->body_quat, mm->body_quat + 4 * mm->nbody);
    m()->body_quat = body_quat_.data();
    keep(&body_quat_);
  }

 protected:
  // np.linalg.norm(site_pos[a] - site_pos[b]) of the model.
  double site_distance(int a, int b) const {
    const double* p = m()->site_pos;
    const Vec3 diff = {p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]};
    return numpy_norm(diff.data(), 3);
  }

  // (site_xpos[top] - site_xpos[bottom]) / length.
  Vec3 axis(int top, int bottom, double length) const {
    const double* x = d()->site_xpos;
    return {(x[3 * top] - x[3 * bottom]) / length, (x[3 * top + 1] - x[3 * bottom + 1]) / length,
            (x[3 * top + 2] - x[3 * bottom + 2]) / length};
  }

  // body_xpos[Object] - site_xpos[eps_ball].
  Vec3 err_pos() const {
    const double* pos = d()->xpos + 3 * object_;
    const double* des = d()->site_xpos + 3 * eps_ball_;
    return {pos[0] - des[0], pos[1] - des[1], pos[2] - des[2]};
  }

  void observe(std::vector<double>& obs) override {
    const mjModel* mm = m();
    const mjData* dd = d();
    obs.insert(obs.end(), dd->qpos, dd->qpos + mm->nq - 6);
    obs.insert(obs.end(), dd->xpos + 3 * object_, dd->xpos + 3 * object_ + 3);
    for (int i = mm->nv - 6; i < mm->nv; ++i) obs.push_back(dd->qvel[i] * dt());
    const Vec3 rot = axis(obj_t_, obj_b_, pen_length_), des_rot = axis(tar_t_, tar_b_, tar_length_);
    obs.insert(obs.end(), rot.begin(), rot.end());
    obs.insert(obs.end(), des_rot.begin(), des_rot.end());
    const Vec3 err = err_pos();
    obs.insert(obs.end(), err.begin(), err.end());
    for (int k = 0; k < 3; ++k) obs.push_back(rot[static_cast<std::size_t>(k)] - des_rot[static_cast<std::size_t>(k)]);
    if (mm->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override {
    const mjModel* mm = m();
    const Vec3 err = err_pos();
    const double pos_align = numpy_norm(err.data(), 3);
    const double rot_align = cosine(axis(obj_t_, obj_b_, pen_length_), axis(tar_t_, tar_b_, tar_length_));
    const bool dropped = pos_align > 0.075;
    const double act_mag = mm->na != 0 ? numpy_norm(d()->act, mm->na) / mm->na : 0.0;
    r.terms[0] = -1.0 * pos_align;
    r.terms[1] = rot_align;
    r.terms[2] = -1.0 * act_mag;
    r.terms[3] = -1.0 * dropped;
    r.terms[4] = 1.0 * (rot_align > 0.9) * (pos_align < 0.075) + 5.0 * (rot_align > 0.95) * (pos_align < 0.075);
    r.sparse = -1.0 * pos_align + rot_align;
    r.solved = rot_align > 0.95 && !dropped;
    r.done = dropped;
  }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    // _setup's init_qpos[:-6] *= 0 and init_qpos[0] = -1.5 (open hand, palm up).
    for (std::size_t i = 0; i + 6 < qpos.size(); ++i) qpos[i] *= 0;
    qpos[0] = -1.5;
    if (!p_.random) return;
    Vec3 desired{0.0, 0.0, 0.0};
    desired[0] = rng().uniform(-1, 1);
    desired[1] = rng().uniform(-1, 1);
    const auto quat = euler2quat(desired);
    std::copy(quat.begin(), quat.end(), body_quat_.data() + 4 * target_);
    // Upstream's sync_sims then runs mj_forward on the same sim; Robot.reset's mj_resetData follows, so it
    // leaves nothing behind.
  }

 private:
  const PenParams p_;
  const int target_, object_, eps_ball_, obj_t_, obj_b_, tar_t_, tar_b_;
  double pen_length_ = 0.0, tar_length_ = 0.0;
  std::vector<double> body_quat_;
};

const std::vector<std::pair<std::string, double>> kWeights = {
    {"pos_align", 1.0}, {"rot_align", 1.0}, {"act_reg", 5.0}, {"drop", 5.0}, {"bonus", 10.0}};

constexpr const char* kModel = "envs/myo/assets/hand/myohand_pen.xml";

bool register_all() {
  register_task("myoHandPenTwirlFixed-v0", {{kModel, 5, kWeights}, make_task<PenEnv>(PenParams{})});
  register_task("myoHandPenTwirlRandom-v0", {{kModel, 5, kWeights}, make_task<PenEnv>(PenParams{.random = true})});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
