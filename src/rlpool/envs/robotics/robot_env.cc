// The Gymnasium-Robotics envs' shared base (robot_env.h): models, site
// velocities, saved states and frames.
#include "envs/robotics/robot_env.h"

#include <sys/stat.h>

#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include "envs/mujoco/state_io.h"

namespace rlpool::robotics {
namespace {

constexpr std::string_view kMagic = "rlpool-robotics-v1\n";

int find_id(const mjModel* m, mjtObj type, const char* kind, const char* name, const std::string& xml_file) {
  const int id = api().name2id(m, type, name);
  if (id < 0) throw std::invalid_argument("'" + xml_file + "' has no " + kind + " named '" + name + "'");
  return id;
}

}  // namespace

std::shared_ptr<const mjModel> patched_model(const std::string& xml_file, const std::string& patch_key,
                                             const std::function<void(mjModel*)>& patch) {
  const auto loaded = mujoco::load_model(xml_file);
  static std::mutex mu;
  // Keyed by the loaded model too: an edited file is loaded anew, and so patched anew.
  static std::map<std::pair<const mjModel*, std::string>, std::weak_ptr<const mjModel>> cache;
  const mujoco::Api& mj = api();
  std::lock_guard<std::mutex> lock(mu);
  const auto key = std::make_pair(loaded.get(), patch_key);
  std::shared_ptr<const mjModel> model = cache[key].lock();
  if (!model) {
    mjModel* copy = mj.copyModel(nullptr, loaded.get());
    if (copy == nullptr) throw OutOfMemory("could not copy the model of '" + xml_file + "'");
    // The copy keeps the loaded model alive, so that its address (the key) is not reused.
    std::shared_ptr<mjModel> owned(copy, [delete_model = mj.deleteModel, loaded](mjModel* p) { delete_model(p); });
    patch(owned.get());
    model = owned;
    cache[key] = model;
  }
  std::erase_if(cache, [](const auto& entry) { return entry.second.expired(); });
  return model;
}

void reset_mocap_welds(mjModel* m) {
  if (m->nmocap == 0) return;
  for (int i = 0; i < m->neq; ++i) {
    if (m->eq_type[i] != mjEQ_WELD) continue;
    double* data = m->eq_data + static_cast<std::ptrdiff_t>(i) * mjNEQDATA;
    const double identity[7] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0};
    std::memcpy(data, identity, sizeof(identity));
  }
}

int site_id(const mjModel* m, const char* name, const std::string& xml_file) {
  return find_id(m, mjOBJ_SITE, "site", name, xml_file);
}
int joint_id(const mjModel* m, const char* name, const std::string& xml_file) {
  return find_id(m, mjOBJ_JOINT, "joint", name, xml_file);
}
int body_id(const mjModel* m, const char* name, const std::string& xml_file) {
  return find_id(m, mjOBJ_BODY, "body", name, xml_file);
}

std::vector<Option> with_pixels(std::vector<Option> options) {
  for (Option& o : pixel_options()) options.push_back(std::move(o));
  return options;
}

bool sparse_reward(const Config& c) {
  const std::string& type = c.get_string("reward_type");
  if (type != "sparse" && type != "dense") {
    throw std::invalid_argument("reward_type must be 'sparse' or 'dense', got '" + type + "'");
  }
  return type == "sparse";
}

EnvSpec goal_spec(std::int64_t goal_size, std::int64_t obs_size, std::int64_t action_size, double render_fps) {
  EnvSpec spec;
  spec.obs_kind = ObsKind::kDict;
  for (const char* name : {"achieved_goal", "desired_goal"}) {
    spec.obs.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {goal_size}});
  }
  spec.obs.push_back(ArraySpec{.name = "observation", .dtype = DType::kFloat64, .shape = {obs_size}});
  spec.action = ArraySpec{.name = "action", .dtype = DType::kFloat32, .shape = {action_size}, .low = {-1.0},
                          .high = {1.0}};
  spec.info.push_back(ArraySpec{.name = "is_success", .dtype = DType::kFloat32, .shape = {}});
  spec.info.push_back(ArraySpec{.name = "_distance", .dtype = DType::kFloat64, .shape = {}});
  // gymnasium-robotics' MujocoRenderer: 480 x 480 by default, any size on request.
  spec.render_width = 480;
  spec.render_height = 480;
  spec.render_any_size = true;
  spec.render_fps = render_fps;
  return spec;
}

RobotEnv::RobotEnv(const Config& config, std::shared_ptr<const mjModel> model, std::string xml_file,
                   std::string config_key, std::size_t goal_size, CameraConfig camera)
    : xml_file_(std::move(xml_file)),
      model_(std::move(model)),
      m_(model_.get()),
      data_(mujoco::make_data(m_, "'" + xml_file_ + "'"), api().deleteData),
      d_(data_.get()),
      goal_(goal_size, 0.0),
      jac_(static_cast<std::size_t>(6 * m_->nv)),
      config_key_(std::move(config_key)),
      camera_config_(camera) {
  for (int j = 0; j < m_->njnt; ++j) {
    const char* name = api().id2name(m_, mjOBJ_JOINT, j);
    if (name != nullptr && std::string_view(name).starts_with("robot")) robot_joints_.push_back(j);
  }
  if (mujoco::renders(config)) mujoco::load_gl();
}

void RobotEnv::begin_episode(Rng& pool_rng) {
  start_words_ = {pool_rng.next(), pool_rng.next(), pool_rng.next(), pool_rng.next()};
  rng_.set_words(start_words_);
  started_ = true;
}

void RobotEnv::site_velocity(int site, double* velp, double* velr) {
  const int nv = m_->nv;
  double* jacp = jac_.data();
  double* jacr = jacp + 3 * nv;
  api().jacSite(m_, d_, jacp, jacr, site);
  for (int r = 0; r < 3; ++r) {
    double p = 0.0, q = 0.0;
    for (int k = 0; k < nv; ++k) {
      p += jacp[r * nv + k] * d_->qvel[k];
      q += jacr[r * nv + k] * d_->qvel[k];
    }
    if (velp != nullptr) velp[r] = p;
    if (velr != nullptr) velr[r] = q;
  }
}

std::string RobotEnv::get_state() const {
  if (!started_) throw std::logic_error("get_state before the first reset");
  std::string out;
  mujoco::put_head(out, kMagic, config_key_, {start_words_, rng_});
  mujoco::put_simulation(out, m_, d_);
  // The bodies' poses as the last step left them (computed before its last
  // integration): the next action reads them (a mocap follows its body).
  mujoco::put(out, d_->xpos, 3 * m_->nbody);
  mujoco::put(out, d_->xquat, 4 * m_->nbody);
  mujoco::put(out, goal_.data(), static_cast<int>(goal_.size()));
  save_extra(out);
  return out;
}

void RobotEnv::set_state(std::string_view bytes) {
  mujoco::StateReader in(bytes, "Gymnasium-Robotics");
  const mujoco::StateHead head = mujoco::read_head(in, kMagic, config_key_);
  const mujoco::Simulation sim = mujoco::read_simulation(in, m_);
  const auto xpos = in.doubles(3 * m_->nbody, "xpos");
  const auto xquat = in.doubles(4 * m_->nbody, "xquat");
  const auto goal = in.doubles(static_cast<int>(goal_.size()), "goal");
  const std::string_view left = load_extra(in.rest());
  if (!left.empty()) {
    throw std::invalid_argument("Gymnasium-Robotics env state has " + std::to_string(left.size()) +
                                " bytes more than a state of this env");
  }
  start_words_ = head.words;
  rng_ = head.rng;
  mujoco::apply(sim, d_);
  goal_ = goal;
  api().forward(m_, d_);
  mujoco::restore_warmstart(sim, d_);
  std::memcpy(d_->xpos, xpos.data(), sizeof(double) * xpos.size());
  std::memcpy(d_->xquat, xquat.data(), sizeof(double) * xquat.size());
  started_ = true;
}

void RobotEnv::render(const Frame& frame) {
  if (!renderer_) {
    renderer_ = std::make_unique<mujoco::Renderer>(m_, /*show_rangefinders=*/true);
    free_camera_ = mujoco::gymnasium_camera(m_, d_, camera_config_);
  }
  const mjvCamera camera = mujoco::camera_for(m_, frame.camera_id, free_camera_);
  mjData* shown = d_;
  if (fresh_frame()) {
    if (!frame_data_) frame_data_ = {mujoco::make_data(m_, "a frame of '" + xml_file_ + "'"), api().deleteData};
    api().copyData(frame_data_.get(), m_, d_);
    pose_frame(frame_data_.get());
    api().forward(m_, frame_data_.get());
    shown = frame_data_.get();
  }
  // Markers are drawn where the task says by moving their sites' positions for
  // this frame only (gymnasium-robotics moves them in the model and runs
  // mj_forward, which would change the next step).
  const auto markers = marker_sites();
  std::vector<std::array<double, 3>> saved;
  for (const auto& [site, pos] : markers) {
    double* at = shown->site_xpos + 3 * site;
    saved.push_back({at[0], at[1], at[2]});
    std::memcpy(at, pos.data(), sizeof(double) * 3);
  }
  const auto restore = [&] {
    for (std::size_t i = 0; i < markers.size(); ++i) {
      std::memcpy(shown->site_xpos + 3 * markers[i].first, saved[i].data(), sizeof(double) * 3);
    }
  };
  try {
    renderer_->draw(m_, shown, camera, frame, [&](mjvScene& scene) { edit_scene(scene, shown); });
  } catch (...) {
    restore();
    renderer_.reset();
    throw;
  }
  restore();
}

}  // namespace rlpool::robotics
