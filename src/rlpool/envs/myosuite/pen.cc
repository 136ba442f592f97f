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
#include "envs/myosuite/pen.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envs/myosuite/quat_math.h"

namespace rlpool::myosuite {

std::vector<std::pair<std::string, double>> pen_weights() {
  return {{"pos_align", 1.0}, {"rot_align", 1.0}, {"act_reg", 5.0}, {"drop", 5.0}, {"bonus", 10.0}};
}

namespace {

// vector_math.calculate_cosine of two 3-vectors: the dot product (np.einsum's sum of products, which
// adds the two-lane partial sums (x0 y0 + x2 y2) + x1 y1) over the product of the norms (1 where zero).
double calculate_cosine(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  double norm_product = numpy_norm(a.data(), 3) * numpy_norm(b.data(), 3);
  if (norm_product == 0) norm_product = 1;
  const double dot = (a[0] * b[0] + a[2] * b[2]) + a[1] * b[1];
  return dot / norm_product;
}

}  // namespace

PenTwirlBase::PenTwirlBase(const Setup& setup, const TaskBase& base, const AxisEnds& ends)
    : MyoEnv(setup, base, {"pos_align", "rot_align", "act_reg", "drop", "bonus"}),
      target_(body("target")),
      object_(body("Object")),
      eps_ball_(site("eps_ball")),
      obj_t_(end_id(ends.type, ends.obj_top)),
      obj_b_(end_id(ends.type, ends.obj_bottom)),
      tar_t_(end_id(ends.type, ends.tar_top)),
      tar_b_(end_id(ends.type, ends.tar_bottom)),
      ends_type_(ends.type),
      pen_length_(length(obj_t_, obj_b_)),
      tar_length_(length(tar_t_, tar_b_)) {
  site("S_grasp");  // looked up by upstream's _setup
}

int PenTwirlBase::geom(const std::string& name) const {
  const int id = api().name2id(m(), mjOBJ_GEOM, name.c_str());
  if (id < 0) throw std::invalid_argument("'" + setup_.xml_file + "' has no geom named '" + name + "'");
  return id;
}

int PenTwirlBase::end_id(mjtObj type, const char* name) const { return type == mjOBJ_SITE ? site(name) : geom(name); }

const double* PenTwirlBase::model_pos() const { return ends_type_ == mjOBJ_SITE ? m()->site_pos : m()->geom_pos; }

const double* PenTwirlBase::data_pos() const { return ends_type_ == mjOBJ_SITE ? d()->site_xpos : d()->geom_xpos; }

double PenTwirlBase::length(int a, int b) const {
  const double* p = model_pos();
  const Vec3 diff = {p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]};
  return numpy_norm(diff.data(), 3);
}

PenTwirlBase::Vec3 PenTwirlBase::axis(int top, int bottom, double length) const {
  const double* x = data_pos();
  return {(x[3 * top] - x[3 * bottom]) / length, (x[3 * top + 1] - x[3 * bottom + 1]) / length,
          (x[3 * top + 2] - x[3 * bottom + 2]) / length};
}

PenTwirlBase::Vec3 PenTwirlBase::err_pos() const {
  const double* pos = d()->xpos + 3 * object_;
  const double* des = d()->site_xpos + 3 * eps_ball_;
  return {pos[0] - des[0], pos[1] - des[1], pos[2] - des[2]};
}

void PenTwirlBase::observe_pen(std::vector<double>& obs) const {
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
  for (std::size_t k = 0; k < 3; ++k) obs.push_back(rot[k] - des_rot[k]);
}

void PenTwirlBase::pen_rewards(Rewards& r) const {
  const mjModel* mm = m();
  const Vec3 err = err_pos();
  const double pos_align = numpy_norm(err.data(), 3);
  const double rot_align = calculate_cosine(axis(obj_t_, obj_b_, pen_length_), axis(tar_t_, tar_b_, tar_length_));
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

void PenTwirlBase::open_hand(std::vector<double>& qpos) {
  for (std::size_t i = 0; i + 6 < qpos.size(); ++i) qpos[i] *= 0;
  qpos[0] = -1.5;
}

namespace {

struct PenParams {
  bool random = false;  // PenTwirlRandomEnvV0
};

class PenEnv : public PenTwirlBase {
 public:
  PenEnv(const Setup& setup, const TaskBase& base, PenParams params)
      : PenTwirlBase(setup, base, {mjOBJ_SITE, "object_top", "object_bottom", "target_top", "target_bottom"}),
        p_(params) {
    const mjModel* mm = m();
    if (mm->nq < 6 || mm->nv < 6) throw std::invalid_argument(setup.id + ": the model has no six pen joints");
    // The random id writes body_quat of the target: this env's own copy, saved with its state.
    body_quat_.assign(mm->body_quat, mm->body_quat + 4 * mm->nbody);
    m()->body_quat = body_quat_.data();
    keep(&body_quat_);
  }

 protected:
  void observe(std::vector<double>& obs) override {
    observe_pen(obs);
    if (m()->na > 0) put_act(obs);
  }

  void rewards(Rewards& r) override { pen_rewards(r); }

  void reset_task(std::vector<double>& qpos, std::vector<double>& /*qvel*/) override {
    open_hand(qpos);
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
  std::vector<double> body_quat_;
};

constexpr const char* kModel = "envs/myo/assets/hand/myohand_pen.xml";

bool register_all() {
  const TaskBase base{kModel, 5, pen_weights()};
  register_task("myoHandPenTwirlFixed-v0", {base, make_task<PenEnv>(PenParams{})});
  register_task("myoHandPenTwirlRandom-v0", {base, make_task<PenEnv>(PenParams{.random = true})});
  return true;
}

const bool kRegistered = register_all();

}  // namespace
}  // namespace rlpool::myosuite
