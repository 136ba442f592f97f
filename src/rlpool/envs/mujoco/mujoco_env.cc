#include "envs/mujoco/mujoco_env.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csetjmp>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>

#include "_core/env/fd.h"
#include "_core/gfx/pixels.h"

namespace rlpool::mujoco {

namespace {

template <class F>
void resolve(void* lib, const char* name, F& fn) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (fn == nullptr) throw std::runtime_error(std::string("MuJoCo library has no symbol ") + name);
}

template <class F>
void resolve(void* lib, const char* name, Guarded<F>& guarded) {
  resolve(lib, name, guarded.fn);
}

constexpr std::size_t kKeptWarnings = 64;

std::mutex& warnings_mutex() {
  static std::mutex mu;
  return mu;
}

std::deque<std::string>& warnings_log() {
  static std::deque<std::string> log;
  return log;
}

// Called by MuJoCo from whichever thread steps the model: only keeps the text.
void record_warning(const char* message) {
  std::lock_guard<std::mutex> lock(warnings_mutex());
  auto& log = warnings_log();
  if (log.size() == kKeptWarnings) log.pop_front();
  log.emplace_back(message != nullptr ? message : "");
}

// The text of the MuJoCo error that jumped back to a Guarded call (see
// mujoco_env.h), kept per thread until detail::throw_error reads it.
thread_local std::array<char, sizeof(mjLogMessage::subject)> error_text{};
std::atomic<mjfLogHandler> previous_log_handler{nullptr};

// MuJoCo's log handler from api() on: an error where a Guarded call armed a
// jump target goes back there; everything else to the handler before it.
void on_log(const mjLogMessage* message) {
  std::jmp_buf* const jump = detail::error_jump();
  if (message->level == mjLOG_ERROR && jump != nullptr) {
    const std::size_t n = strnlen(message->subject, error_text.size() - 1);
    std::memcpy(error_text.data(), message->subject, n);
    error_text[n] = '\0';
    std::longjmp(*jump, 1);
  }
  if (const mjfLogHandler previous = previous_log_handler.load()) previous(message);
}

// A copy of the library file at `path`, in memory, opened as a library of its
// own. Its globals are rlpool's alone: the `mujoco` Python package sets
// mjcb_time on import so that mj_step times each of its stages, which costs a
// Cheetah step ~1 us (15 %), and the log settings api() makes below would
// otherwise change the user's own mujoco. Null if the copy cannot be made.
void* open_private_copy(const char* path) {
  const Fd src(::open(path, O_RDONLY | O_CLOEXEC));
  const Fd copy(::memfd_create(RLPOOL_MUJOCO_SONAME, MFD_CLOEXEC));
  if (src.get() < 0 || copy.get() < 0) return nullptr;
  std::vector<char> buffer(1 << 20);
  for (;;) {
    const ssize_t n = ::read(src.get(), buffer.data(), buffer.size());
    if (n == 0) break;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return nullptr;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(copy.get(), buffer.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return nullptr;
      done += w;
    }
  }
  // The mapping outlives the descriptor.
  return dlopen(("/proc/self/fd/" + std::to_string(copy.get())).c_str(), RTLD_NOW | RTLD_LOCAL);
}

Api load_api() {
  // rlpool.envs.mujoco has loaded the `mujoco` package's library by path; find
  // it by its SONAME without searching anywhere else, then run a private copy
  // of the same file (the shared one where no copy can be made: no /proc).
  void* shared = dlopen(RLPOOL_MUJOCO_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (shared == nullptr) shared = dlopen(RLPOOL_MUJOCO_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (shared == nullptr) {
    throw std::runtime_error(std::string("the MuJoCo envs need " RLPOOL_MUJOCO_SONAME
                                         ", which rlpool loads from the installed `mujoco` package "
                                         "(pip install the mujoco version rlpool was built with): ") +
                             dlerror());
  }
  link_map* where = nullptr;
  void* lib = dlinfo(shared, RTLD_DI_LINKMAP, &where) == 0 ? open_private_copy(where->l_name) : nullptr;
  if (lib == nullptr) lib = shared;
  // A failed load (a symbol missing, another version) is retried by the next
  // make: the copy it made is closed, not left mapped each time.
  const auto close_copy = [&](void*) {
    if (lib != shared) dlclose(lib);
  };
  std::unique_ptr<void, decltype(close_copy)> copy_guard(lib, close_copy);
  Api a{};
  resolve(lib, "mj_loadXML", a.loadXML);
  resolve(lib, "mj_deleteModel", a.deleteModel);
  resolve(lib, "mj_makeData", a.makeData);
  resolve(lib, "mj_deleteData", a.deleteData);
  resolve(lib, "mj_resetData", a.resetData);
  resolve(lib, "mj_forward", a.forward);
  resolve(lib, "mj_step", a.step);
  resolve(lib, "mj_rnePostConstraint", a.rnePostConstraint);
  resolve(lib, "mj_name2id", a.name2id);
  resolve(lib, "mj_version", a.version);
  resolve(lib, "mj_step1", a.step1);
  resolve(lib, "mj_step2", a.step2);
  resolve(lib, "mj_copyModel", a.copyModel);
  resolve(lib, "mj_loadModel", a.loadModel);
  resolve(lib, "mj_id2name", a.id2name);
  resolve(lib, "mj_kinematics", a.kinematics);
  resolve(lib, "mj_comPos", a.comPos);
  resolve(lib, "mj_subtreeVel", a.subtreeVel);
  resolve(lib, "mj_setConst", a.setConst);
  resolve(lib, "mj_contactForce", a.contactForce);
  resolve(lib, "mj_ray", a.ray);
  resolve(lib, "mj_objectVelocity", a.objectVelocity);
  resolve(lib, "mj_jacBody", a.jacBody);
  resolve(lib, "mj_resetDataKeyframe", a.resetDataKeyframe);
  resolve(lib, "mj_jacSite", a.jacSite);
  resolve(lib, "mj_copyData", a.copyData);
  resolve(lib, "mjv_defaultScene", a.defaultScene);
  resolve(lib, "mjv_makeScene", a.makeScene);
  resolve(lib, "mjv_freeScene", a.freeScene);
  resolve(lib, "mjv_defaultCamera", a.defaultCamera);
  resolve(lib, "mjv_defaultFreeCamera", a.defaultFreeCamera);
  resolve(lib, "mjv_defaultOption", a.defaultOption);
  resolve(lib, "mjv_defaultPerturb", a.defaultPerturb);
  resolve(lib, "mjv_updateScene", a.updateScene);
  resolve(lib, "mjr_defaultContext", a.defaultContext);
  resolve(lib, "mjr_makeContext", a.makeContext);
  resolve(lib, "mjr_freeContext", a.freeContext);
  resolve(lib, "mjr_setBuffer", a.setBuffer);
  resolve(lib, "mjr_resizeOffscreen", a.resizeOffscreen);
  resolve(lib, "mjr_render", a.render);
  resolve(lib, "mjr_readPixels", a.readPixels);
  resolve(lib, "mjr_uploadHField", a.uploadHField);
  // The structs are laid out as the headers say only for the same version:
  // checked before any of MuJoCo's global settings below is touched (a failed
  // load is retried, and must not install the log handler over itself).
  if (a.version() != mjVERSION_HEADER) {
    throw std::runtime_error("loaded MuJoCo library is version " + std::to_string(a.version()) +
                             " but rlpool was compiled against " + std::to_string(mjVERSION_HEADER) + " (" +
                             RLPOOL_MUJOCO_SONAME + ")");
  }
  // Without a handler MuJoCo writes each warning to MUJOCO_LOG.TXT in the
  // user's working directory. In the shared library (no private copy), one
  // the `mujoco` package's user installed is kept.
  using Handler = void (*)(const char*);
  auto* user_warning = reinterpret_cast<Handler*>(dlsym(lib, "mju_user_warning"));
  if (user_warning == nullptr) throw std::runtime_error("MuJoCo library has no symbol mju_user_warning");
  if (*user_warning == nullptr) *user_warning = record_warning;
  // MuJoCo's log file would go to the user's working directory: never
  // written. Errors no Guarded call catches still print before MuJoCo exits.
  decltype(&::mju_getLogConfig) get_log_config = nullptr;
  decltype(&::mju_setLogConfig) set_log_config = nullptr;
  decltype(&::mju_setLogHandler) set_log_handler = nullptr;
  resolve(lib, "mju_getLogConfig", get_log_config);
  resolve(lib, "mju_setLogConfig", set_log_config);
  resolve(lib, "mju_setLogHandler", set_log_handler);
  mjLogConfig log_config = get_log_config();
  log_config.logto_file = 0;
  set_log_config(log_config);
  previous_log_handler.store(set_log_handler(on_log));
  copy_guard.release();  // loaded for good: the Api points into it
  return a;
}

int frame_skip_of(const Config& config) { return static_cast<int>(config.get_int_in("frame_skip", 1, 1'000'000)); }

}  // namespace

std::vector<std::string> recent_warnings() {
  std::lock_guard<std::mutex> lock(warnings_mutex());
  return {warnings_log().begin(), warnings_log().end()};
}

mjData* make_data(const mjModel* m, const std::string& what) {
  mjData* d = nullptr;
  try {
    d = api().makeData(m);
  } catch (const OutOfMemory& e) {
    throw OutOfMemory("MuJoCo could not allocate mjData for " + what + ": " + e.what());
  }
  if (d == nullptr) throw OutOfMemory("MuJoCo could not allocate mjData for " + what);
  return d;
}

namespace detail {

std::jmp_buf*& error_jump() {
  thread_local std::jmp_buf* armed = nullptr;
  return armed;
}

void throw_error() {
  const std::string text = error_text.data();
  // mj_makeData and the like say "Could not allocate memory".
  if (text.find("allocate") != std::string::npos) throw OutOfMemory(text);
  throw std::runtime_error("MuJoCo error: " + text);
}

}  // namespace detail

const Api& api() {
  // A throwing initialiser leaves the static uninitialised: the next call retries.
  static const Api instance = load_api();
  return instance;
}

std::shared_ptr<const mjModel> load_model(const std::string& xml_file) {
  if (xml_file.empty()) throw std::invalid_argument("xml_file is empty: give the path of a MuJoCo XML model");
  struct stat st {};
  if (::stat(xml_file.c_str(), &st) != 0) {
    throw std::invalid_argument("xml_file '" + xml_file + "' cannot be read: " + std::strerror(errno));
  }
  // A FIFO or device would block or never end the read inside MuJoCo's loader.
  if (!S_ISREG(st.st_mode)) throw std::invalid_argument("xml_file '" + xml_file + "' is not a regular file");
  // The file as it is now: an edited file is loaded again.
  const std::string key = xml_file + '\0' + std::to_string(st.st_size) + '\0' + std::to_string(st.st_mtim.tv_sec) +
                          '.' + std::to_string(st.st_mtim.tv_nsec);
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<const mjModel>> cache;
  const Api& mj = api();
  std::lock_guard<std::mutex> lock(mu);
  std::shared_ptr<const mjModel> model = cache[key].lock();
  if (!model) {
    std::array<char, 1024> error{};
    // A compiled model (MuJoCo's binary format, of this MuJoCo) by its extension; else XML.
    const bool binary = xml_file.size() > 4 && xml_file.compare(xml_file.size() - 4, 4, ".mjb") == 0;
    mjModel* raw = binary ? mj.loadModel(xml_file.c_str(), nullptr)
                          : mj.loadXML(xml_file.c_str(), nullptr, error.data(), static_cast<int>(error.size()));
    if (raw == nullptr) {
      cache.erase(key);
      const std::string why =
          binary ? "not a binary model of MuJoCo " + std::to_string(mj.version()) + " (mj_version)" : error.data();
      throw std::invalid_argument("xml_file '" + xml_file + "' could not be loaded by MuJoCo: " + why);
    }
    model = std::shared_ptr<const mjModel>(raw, [delete_model = mj.deleteModel](const mjModel* p) {
      delete_model(const_cast<mjModel*>(p));
    });
    cache[key] = model;
  }
  std::erase_if(cache, [](const auto& entry) { return entry.second.expired(); });  // models no env uses
  return model;
}

std::vector<Option> base_options(std::int64_t frame_skip) {
  std::vector<Option> options = {
      {"xml_file", std::string(), "MuJoCo XML model (default: gymnasium's asset for the task)"},
      {"frame_skip", frame_skip, "MuJoCo steps per env step"},
  };
  for (Option& o : pixel_options()) options.push_back(std::move(o));
  return options;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

int body_id(const mjModel* m, const std::string& name, const std::string& xml_file) {
  const int id = api().name2id(m, mjOBJ_BODY, name.c_str());
  require(id >= 0, "xml_file '" + xml_file + "' has no body named '" + name + "'");
  return id;
}

void MujocoEnv::render(const Frame& frame) {
  if (!renderer_) {
    renderer_ = std::make_unique<Renderer>(m_, /*show_rangefinders=*/true);
    free_camera_ = gymnasium_camera(m_, d_, camera_config_);
  }
  const mjvCamera camera = camera_for(m_, frame.camera_id, free_camera_);
  try {
    renderer_->draw(m_, d_, camera, frame);
  } catch (...) {
    renderer_.reset();  // a MuJoCo error may have left its render context half made: the next frame starts anew
    throw;
  }
}

std::function<EnvSpec(const Config&)> model_spec(ModelSpec spec, bool v5) {
  return [spec, v5](const Config& config) {
    const int frame_skip = frame_skip_of(config);
    const std::string& xml_file = config.get_string("xml_file");
    const auto model = load_model(xml_file);
    try {
      EnvSpec s = spec(model.get(), config, v5);
      // gymnasium's MujocoEnv: 480 x 480 by default, any size on request;
      // metadata["render_fps"] is round(1 / dt).
      s.render_width = 480;
      s.render_height = 480;
      s.render_any_size = true;
      s.render_cameras = model->ncam;
      s.render_fps = std::round(1.0 / (model->opt.timestep * frame_skip));
      return s;
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      if (message.find(xml_file) != std::string::npos) throw;
      throw std::invalid_argument(message + " (xml_file '" + xml_file + "')");
    }
  };
}

std::vector<std::string> plane_infos(std::initializer_list<std::string> then) {
  std::vector<std::string> names = {"x_position", "y_position", "distance_from_origin", "x_velocity", "y_velocity"};
  names.insert(names.end(), then);
  return names;
}

PlaneInfo::PlaneInfo(const EnvSpec& spec)
    : x_position(info_index(spec.info, "x_position")),
      y_position(info_index(spec.info, "y_position")),
      distance_from_origin(info_index(spec.info, "distance_from_origin")),
      x_velocity(info_index(spec.info, "x_velocity")),
      y_velocity(info_index(spec.info, "y_velocity")) {}

void PlaneInfo::write(const Output& out, double x, double y, double x_velocity, double y_velocity) const {
  out.put_info(this->x_position, x);
  out.put_info(this->y_position, y);
  out.put_info(distance_from_origin, std::sqrt(x * x + y * y));
  out.put_info(this->x_velocity, x_velocity);
  out.put_info(this->y_velocity, y_velocity);
}

EnvSpec make_spec(const mjModel* m, std::int64_t obs_size, const std::vector<std::string>& scalar_infos) {
  EnvSpec spec;
  spec.obs.push_back(ArraySpec{.name = "obs", .dtype = DType::kFloat64, .shape = {obs_size}, .low = {}, .high = {}});
  ArraySpec action{.name = "action", .dtype = DType::kFloat32, .shape = {m->nu}, .low = {}, .high = {}};
  for (int i = 0; i < m->nu; ++i) {
    // gymnasium: actuator_ctrlrange.astype(np.float32).
    action.low.push_back(f32(m->actuator_ctrlrange[2 * i]));
    action.high.push_back(f32(m->actuator_ctrlrange[2 * i + 1]));
  }
  spec.action = std::move(action);
  for (const auto& name : scalar_infos) {
    spec.info.push_back(ArraySpec{.name = name, .dtype = DType::kFloat64, .shape = {}, .low = {}, .high = {}});
  }
  return spec;
}

MujocoEnv::MujocoEnv(const Config& config)
    : xml_file_(config.get_string("xml_file")),
      model_(load_model(xml_file_)),
      m_(model_.get()),
      data_(make_data(m_, "'" + xml_file_ + "'"), api().deleteData),
      d_(data_.get()),
      frame_skip_(frame_skip_of(config)) {
  // mj_makeData leaves qpos = qpos0 and qvel = 0: gymnasium's init_qpos/init_qvel.
  init_qpos_.assign(d_->qpos, d_->qpos + m_->nq);
  init_qvel_.assign(d_->qvel, d_->qvel + m_->nv);
  scratch_.resize(static_cast<std::size_t>(m_->nq + m_->nv));
  if (renders(config)) load_gl();
}

std::string MujocoEnv::get_state() const {
  std::string bytes(sizeof(double) * static_cast<std::size_t>(m_->nq + m_->nv), '\0');
  std::memcpy(bytes.data(), d_->qpos, sizeof(double) * static_cast<std::size_t>(m_->nq));
  std::memcpy(bytes.data() + sizeof(double) * static_cast<std::size_t>(m_->nq), d_->qvel,
              sizeof(double) * static_cast<std::size_t>(m_->nv));
  return bytes;
}

void MujocoEnv::set_state(std::string_view bytes) {
  const std::size_t expected = sizeof(double) * static_cast<std::size_t>(m_->nq + m_->nv);
  if (bytes.size() != expected) {
    throw std::invalid_argument("state has " + std::to_string(bytes.size()) + " bytes, expected " +
                                std::to_string(expected) + " (qpos[" + std::to_string(m_->nq) + "] and qvel[" +
                                std::to_string(m_->nv) + "] as float64)");
  }
  std::memcpy(scratch_.data(), bytes.data(), expected);
  const auto nq = static_cast<std::size_t>(m_->nq);
  check_finite_state(scratch_.data(), nq + static_cast<std::size_t>(m_->nv), [nq](std::size_t i) {
    return i < nq ? "qpos[" + std::to_string(i) + "]" : "qvel[" + std::to_string(i - nq) + "]";
  });
  set_qpos_qvel(scratch_.data(), scratch_.data() + m_->nq);
}

void MujocoEnv::reset_data() { api().resetData(m_, d_); }

void MujocoEnv::set_qpos_qvel(const double* qpos, const double* qvel) {
  std::memmove(d_->qpos, qpos, sizeof(double) * static_cast<std::size_t>(m_->nq));
  std::memmove(d_->qvel, qvel, sizeof(double) * static_cast<std::size_t>(m_->nv));
  api().forward(m_, d_);
}

void MujocoEnv::reset_uniform(Rng& rng, double scale) {
  double* qpos = scratch_.data();
  double* qvel = qpos + m_->nq;
  for (int i = 0; i < m_->nq; ++i) qpos[i] = init_qpos_[static_cast<std::size_t>(i)] + rng.uniform(-scale, scale);
  for (int i = 0; i < m_->nv; ++i) qvel[i] = init_qvel_[static_cast<std::size_t>(i)] + rng.uniform(-scale, scale);
  set_qpos_qvel(qpos, qvel);
}

void MujocoEnv::reset_uniform_normal(Rng& rng, double scale) {
  double* qpos = scratch_.data();
  double* qvel = qpos + m_->nq;
  for (int i = 0; i < m_->nq; ++i) qpos[i] = init_qpos_[static_cast<std::size_t>(i)] + rng.uniform(-scale, scale);
  for (int i = 0; i < m_->nv; ++i) qvel[i] = init_qvel_[static_cast<std::size_t>(i)] + scale * rng.normal();
  set_qpos_qvel(qpos, qvel);
}

void MujocoEnv::do_simulation(const Action& action) {
  const Api& mj = api();
  std::memcpy(d_->ctrl, action.continuous(), sizeof(double) * static_cast<std::size_t>(m_->nu));
  for (int i = 0; i < frame_skip_; ++i) mj.step(m_, d_);
  mj.rnePostConstraint(m_, d_);
}

bool MujocoEnv::state_is_finite() const {
  for (int i = 0; i < m_->nq; ++i) {
    if (!std::isfinite(d_->qpos[i])) return false;
  }
  for (int i = 0; i < m_->nv; ++i) {
    if (!std::isfinite(d_->qvel[i])) return false;
  }
  return true;
}

}  // namespace rlpool::mujoco
