#include "envs/mujoco/renderer.h"

#include <dlfcn.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "envs/mujoco/mujoco_env.h"

namespace rlpool::mujoco {

namespace {

// The OSMesa entry points used (GL/osmesa.h, whose header Debian ships only
// in the -dev package: the few declarations are spelled out here).
using OSMesaContext = void*;
constexpr unsigned kOsmesaRgba = 0x1908;    // GL_RGBA
constexpr unsigned kUnsignedByte = 0x1401;  // GL_UNSIGNED_BYTE
constexpr int kOsmesaType = 0x23;          // OSMESA_TYPE: the buffer type a context was made current with

struct OsMesa {
  OSMesaContext (*create)(unsigned format, int depth_bits, int stencil_bits, int accum_bits, OSMesaContext share);
  unsigned char (*make_current)(OSMesaContext, void* buffer, unsigned type, int width, int height);
  void (*destroy)(OSMesaContext);
  OSMesaContext (*current)();
  unsigned char (*color_buffer)(OSMesaContext, int* width, int* height, int* format, void** buffer);
  void (*get_integerv)(int pname, int* value);
};

// Mesa's software rasterizer keeps threads per process, started with its
// first context; a forked child has none of them, and a context made there
// waits on them forever. Set in the child of a fork after a context existed.
std::atomic<bool> contexts_made{false};
std::atomic<bool> forked_after_contexts{false};

OsMesa load_osmesa() {
  // Mesa's own rasterizer threads (LP_NUM_THREADS, one per core by default)
  // are left as they are: measured with 8 envs on 2 worker threads, drawing
  // each frame on the asking thread alone (LP_NUM_THREADS=0) was 15 % slower.
  // RTLD_GLOBAL: MuJoCo's GL loader finds OSMesaGetProcAddress by name.
  // RLPOOL_OSMESA_LIBRARY names another build (a newer Mesa in a folder of its own).
  void* lib = nullptr;
  std::string errors;
  std::vector<std::string> names = {"libOSMesa.so.8", "libOSMesa.so.6", "libOSMesa.so"};
  if (const char* chosen = std::getenv("RLPOOL_OSMESA_LIBRARY"); chosen != nullptr && *chosen != '\0') {
    names = {chosen};
  }
  for (const std::string& name : names) {
    lib = dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (lib != nullptr) break;
    errors += std::string(errors.empty() ? "" : "; ") + dlerror();
  }
  if (lib == nullptr) {
    throw std::runtime_error(
        "rendering MuJoCo needs Mesa's off-screen OpenGL, libOSMesa (Debian/Ubuntu: apt install libosmesa6), "
        "which could not be loaded: " + errors);
  }
  OsMesa o{};
  o.create = reinterpret_cast<decltype(o.create)>(dlsym(lib, "OSMesaCreateContextExt"));
  o.make_current = reinterpret_cast<decltype(o.make_current)>(dlsym(lib, "OSMesaMakeCurrent"));
  o.destroy = reinterpret_cast<decltype(o.destroy)>(dlsym(lib, "OSMesaDestroyContext"));
  o.current = reinterpret_cast<decltype(o.current)>(dlsym(lib, "OSMesaGetCurrentContext"));
  o.color_buffer = reinterpret_cast<decltype(o.color_buffer)>(dlsym(lib, "OSMesaGetColorBuffer"));
  o.get_integerv = reinterpret_cast<decltype(o.get_integerv)>(dlsym(lib, "OSMesaGetIntegerv"));
  if (o.create == nullptr || o.make_current == nullptr || o.destroy == nullptr || o.current == nullptr ||
      o.color_buffer == nullptr || o.get_integerv == nullptr) {
    throw std::runtime_error("libOSMesa lacks one of the OSMesa functions rlpool uses");
  }
  pthread_atfork(nullptr, nullptr, [] {
    if (contexts_made.load(std::memory_order_relaxed)) forked_after_contexts.store(true, std::memory_order_relaxed);
  });
  return o;
}

const OsMesa& osmesa() {
  static const OsMesa instance = load_osmesa();  // a throwing load is retried on the next call
  return instance;
}

constexpr int kMaxGeom = 1000;  // gymnasium's and dm_control's max_geom

}  // namespace

void load_gl() { osmesa(); }

bool renders(const Config& config) {
  return (config.has("_render") && config.get_bool("_render")) ||
         (config.has("from_pixels") && config.get_bool("from_pixels"));
}

// An OSMesa context. MuJoCo draws into its own offscreen framebuffer, so the
// context's default buffer is only there to make it current.
struct Renderer::Gl {
  OSMesaContext context = nullptr;
  std::vector<unsigned char> buffer = std::vector<unsigned char>(16 * 16 * 4);

  Gl() {
    const OsMesa& o = osmesa();
    if (forked_after_contexts.load(std::memory_order_relaxed)) {
      throw std::runtime_error(
          "MuJoCo cannot render in a process forked after rendering started in its parent (Mesa's rasterizer "
          "threads do not survive fork): start it with multiprocessing's 'spawn' or 'forkserver' instead");
    }
    contexts_made.store(true, std::memory_order_relaxed);
    context = o.create(kOsmesaRgba, 24, 8, 0, nullptr);
    if (context == nullptr) throw std::runtime_error("OSMesa could not create an OpenGL context");
  }
  ~Gl() { osmesa().destroy(context); }
  Gl(const Gl&) = delete;
  Gl& operator=(const Gl&) = delete;

  // Current on the calling thread while it lives; then the context that was
  // current before is again. Python code in the same thread may render
  // through OSMesa too (gymnasium's and dm_control's renderers) and makes its
  // context current only once: it must find it still current, with the
  // buffer and buffer type it was made current with.
  class Current {
   public:
    explicit Current(Gl& gl) : previous_(osmesa().current()) {
      if (previous_ != nullptr) {
        int format = 0;
        if (osmesa().color_buffer(previous_, &width_, &height_, &format, &buffer_) == 0) previous_ = nullptr;
        osmesa().get_integerv(kOsmesaType, &type_);  // of the current context: the previous one
      }
      if (osmesa().make_current(gl.context, gl.buffer.data(), kUnsignedByte, 16, 16) == 0) {
        throw std::runtime_error("OSMesa could not make its OpenGL context current");
      }
    }
    ~Current() {
      if (previous_ != nullptr) {
        osmesa().make_current(previous_, buffer_, static_cast<unsigned>(type_), width_, height_);
      } else {
        osmesa().make_current(nullptr, nullptr, 0, 0, 0);
      }
    }
    Current(const Current&) = delete;
    Current& operator=(const Current&) = delete;

   private:
    OSMesaContext previous_;
    void* buffer_ = nullptr;
    int width_ = 0, height_ = 0, type_ = 0;
  };
};

Renderer::Renderer(const mjModel* m, bool show_rangefinders) : gl_(std::make_unique<Gl>()) {
  const Api& mj = api();
  Gl::Current current(*gl_);
  mj.defaultScene(&scene_);
  mj.defaultContext(&context_);
  mj.defaultOption(&option_);
  mj.defaultPerturb(&perturb_);
  option_.flags[mjVIS_RANGEFINDER] = show_rangefinders ? 1 : 0;
  try {
    mj.makeScene(m, &scene_, kMaxGeom);
    mj.makeContext(m, &context_, mjFONTSCALE_150);
    mj.setBuffer(mjFB_OFFSCREEN, &context_);
  } catch (...) {
    mj.freeContext(&context_);
    mj.freeScene(&scene_);
    throw;
  }
  off_width_ = context_.offWidth;
  off_height_ = context_.offHeight;
}

Renderer::~Renderer() {
  const Api& mj = api();
  try {
    Gl::Current current(*gl_);
    mj.freeContext(&context_);
  } catch (...) {
    // The GL objects go with the context below.
  }
  mj.freeScene(&scene_);
}

void Renderer::draw(const mjModel* m, mjData* d, const mjvCamera& camera, const Frame& frame,
                    const std::function<void(mjvScene&)>& edit) {
  const Api& mj = api();
  Gl::Current current(*gl_);
  // A frame larger than the model's offscreen buffer (<visual><global
  // offwidth>) grows it, as gymnasium grows offwidth to its render width.
  if (frame.width > off_width_ || frame.height > off_height_) {
    off_width_ = std::max(off_width_, frame.width);
    off_height_ = std::max(off_height_, frame.height);
    mj.resizeOffscreen(off_width_, off_height_, &context_);
    mj.setBuffer(mjFB_OFFSCREEN, &context_);
  }
  mjvCamera cam = camera;
  mj.updateScene(m, d, &option_, &perturb_, &cam, mjCAT_ALL, &scene_);
  if (edit) edit(scene_);
  const mjrRect viewport{0, 0, frame.width, frame.height};
  mj.render(viewport, &scene_, &context_);
  mj.readPixels(frame.rgb, nullptr, viewport, &context_);
  // OpenGL's rows go bottom up; gymnasium and dm_control flip them.
  const std::size_t row = static_cast<std::size_t>(frame.width) * 3;
  std::vector<std::uint8_t> tmp(row);
  for (int top = 0, bottom = frame.height - 1; top < bottom; ++top, --bottom) {
    std::uint8_t* a = frame.rgb + static_cast<std::size_t>(top) * row;
    std::uint8_t* b = frame.rgb + static_cast<std::size_t>(bottom) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
}

void Renderer::upload_hfields(const mjModel* m) {
  Gl::Current current(*gl_);
  for (int i = 0; i < m->nhfield; ++i) api().uploadHField(m, &context_, i);
}

mjvCamera camera_for(const mjModel* m, int camera_id, const mjvCamera& free_camera) {
  if (camera_id == -1) return free_camera;
  if (camera_id < -1 || camera_id >= m->ncam) {
    throw std::invalid_argument("camera_id " + std::to_string(camera_id) + " is out of range: the model has " +
                                std::to_string(m->ncam) + " camera(s), ids 0.." + std::to_string(m->ncam - 1) +
                                ", and -1 is the free camera");
  }
  mjvCamera cam;
  api().defaultCamera(&cam);
  cam.type = mjCAMERA_FIXED;
  cam.fixedcamid = camera_id;
  return cam;
}

mjvCamera gymnasium_camera(const mjModel* m, const mjData* d, const CameraConfig& config) {
  mjvCamera cam;
  api().defaultCamera(&cam);  // what mujoco.MjvCamera() holds
  cam.type = mjCAMERA_FREE;
  cam.fixedcamid = -1;
  // np.median(data.geom_xpos[:, i]).
  std::vector<double> v(static_cast<std::size_t>(m->ngeom));
  for (int i = 0; i < 3 && m->ngeom > 0; ++i) {
    for (int g = 0; g < m->ngeom; ++g) v[static_cast<std::size_t>(g)] = d->geom_xpos[3 * g + i];
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    cam.lookat[i] = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
  }
  cam.distance = m->stat.extent;
  if (config.distance) cam.distance = *config.distance;
  if (config.elevation) cam.elevation = *config.elevation;
  if (config.azimuth) cam.azimuth = *config.azimuth;
  if (config.lookat) std::copy(config.lookat->begin(), config.lookat->end(), cam.lookat);
  return cam;
}

}  // namespace rlpool::mujoco
