// MuJoCo's own renderer (mjv_updateScene, mjr_render, mjr_readPixels) in a
// headless OpenGL context: Mesa's OSMesa (Debian's libosmesa6), loaded at run
// time, so that the envs that never render need no OpenGL at all.
//
// Each env that renders owns one Renderer: its GL context, scene and MuJoCo
// render context, made on the first frame. The context is made current on the
// calling thread for one frame and released after it, so an env can render on
// whichever worker thread steps it (the engine never runs an env on two
// threads at once).
#pragma once

#include <mujoco/mujoco.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>

#include "_core/env/env.h"

namespace rlpool::mujoco {

// gymnasium's default_camera_config of a task: the free camera's attributes
// set after MujocoRenderer's _init_camera (lookat: the median geom position
// at the first frame; distance: the model's extent). Unset ones keep those.
struct CameraConfig {
  std::optional<double> distance, elevation, azimuth;
  std::optional<std::array<double, 3>> lookat;
};

class Renderer {
 public:
  // Throws std::runtime_error naming the package to install when OSMesa is
  // missing or cannot make a context.
  // show_rangefinders: mjv_defaultOption's rangefinder rays (gymnasium
  // keeps them; dm_control's MjvOption turns them off).
  Renderer(const mjModel* m, bool show_rangefinders);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Draws d's state as seen by `camera` into frame.rgb (top row first).
  // `edit`, if given, changes the abstract scene before it is drawn (e.g. the
  // colour of a site that shows a touch sensor's reading).
  void draw(const mjModel* m, mjData* d, const mjvCamera& camera, const Frame& frame,
            const std::function<void(mjvScene&)>& edit = {});
  // The visualisation options the scene is made with (mjv_defaultOption,
  // rangefinders as the constructor says); an env may turn flags on or off
  // before it draws (e.g. to show actuators as its reference library does).
  mjvOption& option() { return option_; }
  // Sends m's height fields to the GPU copy again, after the env rewrote
  // them (dm_control's quadruped escape makes new terrain every episode).
  void upload_hfields(const mjModel* m);

 private:
  struct Gl;
  std::unique_ptr<Gl> gl_;
  mjvScene scene_{};
  mjrContext context_{};
  mjvOption option_{};
  mjvPerturb perturb_{};
  int off_width_ = 0, off_height_ = 0;
};

// Loads OSMesa now (else at the first frame): an env that will render calls
// it when it is made, on the thread that makes the pool, so that a missing
// libOSMesa is an error of make(), not of a worker's first frame. Throws as
// Renderer's constructor.
void load_gl();
// Whether a config asks for frames: a pool with a render_mode, or from_pixels.
bool renders(const Config& config);

// The camera of `camera_id` (Frame::camera_id): a fixed model camera, or for
// -1 `free_camera`. std::invalid_argument names the model's camera count.
mjvCamera camera_for(const mjModel* m, int camera_id, const mjvCamera& free_camera);

// gymnasium's free camera (MujocoRenderer with default_camera_config).
mjvCamera gymnasium_camera(const mjModel* m, const mjData* d, const CameraConfig& config);

}  // namespace rlpool::mujoco
