# ViZDoom envs: ViZDoom's controller library (the C++ DoomGame, which starts the
# engine process and talks to it over Boost.Interprocess shared memory and
# message queues) compiled here from the vizdoom source distribution on PyPI;
# the engine executable, vizdoom.pk3, the freedoom WADs and the scenarios come
# from the installed vizdoom wheel at run time (registration.py). Only the
# controller's src/lib is compiled, never the engine. None of ViZDoom's code
# lives in this repository.
#
# The controller needs Boost's headers and its filesystem, thread and system
# libraries (Debian/Ubuntu: apt-get install libboost-dev libboost-filesystem-dev
# libboost-thread-dev libboost-system-dev libboost-chrono-dev). Without them the rest of rlpool
# builds as usual and making a ViZDoom task raises an error that says so
# (vizdoom_env.cc, compiled with RLPOOL_VIZDOOM_MISSING).
#
# Two patches (checked), applied to a copy of the controller's source. close()
# of a controller whose engine died during start-up dereferences a null game
# state (a segfault in ViZDoom's own DoomGame too, e.g. for cig.cfg alone):
# guarded. And the engine process is spawned with PR_SET_PDEATHSIG, so
# that it dies with the Python process even when that is SIGKILLed, in the
# folder of its config file (the engine writes _vizdoom.ini and a _vizdoom/
# folder; each env gives it a private temporary folder), and in a process
# group of its own, so that a Ctrl-C in the terminal reaches Python
# (KeyboardInterrupt, then close()) instead of killing the engines under a
# pool that is still in use; and one engine is spawned at a time (below). See
# rlpool_vizdoom_child_setup in vizdoom_env.cc.
set(RLPOOL_VIZDOOM_VERSION "1.3.2")
set(RLPOOL_VIZDOOM_VERSION_ID "132")  # major minor patch, as ViZDoom's CMake writes it
set(RLPOOL_VIZDOOM_SHA256 "10eef8c2a65111c774ed1311438d95949719d1ac41dc1f7010936dc544f70de2")

set(_vizdoom_env_sources "${CMAKE_CURRENT_LIST_DIR}/vizdoom_env.cc")
add_library(rlpool_vizdoom_envs OBJECT ${_vizdoom_env_sources})
target_include_directories(rlpool_vizdoom_envs PRIVATE "${RLPOOL_INCLUDE_ROOT}")
set_target_properties(rlpool_vizdoom_envs PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden
                                                     VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(rlpool_vizdoom_envs PRIVATE -Wall -Wextra -ffp-contract=off)
target_link_libraries(_rlpool_core PRIVATE rlpool_vizdoom_envs)

if(POLICY CMP0167)
  cmake_policy(SET CMP0167 NEW)  # Boost's own BoostConfig.cmake, not CMake's old FindBoost
endif()
find_package(Boost 1.65 QUIET COMPONENTS filesystem thread system chrono)
if(NOT Boost_FOUND)
  message(WARNING
    "rlpool: Boost (headers and the filesystem, thread, system and chrono libraries) not found, so the ViZDoom "
    "tasks are left out of this build (making one raises an error that says so). To build them install "
    "Boost (Debian/Ubuntu: apt-get install libboost-dev libboost-filesystem-dev libboost-thread-dev "
    "libboost-system-dev libboost-chrono-dev) and rebuild.")
  target_compile_definitions(rlpool_vizdoom_envs PRIVATE RLPOOL_VIZDOOM_MISSING=1)
  return()
endif()

include(rlpool_fetch_sdist)
rlpool_fetch_sdist(vizdoom "${RLPOOL_VIZDOOM_VERSION}" "vizdoom-${RLPOOL_VIZDOOM_VERSION}.tar.gz"
                   "${RLPOOL_VIZDOOM_SHA256}" _vizdoom_tarball)
rlpool_unpack_sdist("${_vizdoom_tarball}" "${RLPOOL_VIZDOOM_SHA256}" "${CMAKE_BINARY_DIR}/_deps/vizdoom-sdist"
                    "src/lib/ViZDoomGame.cpp" _vizdoom_src)

# ViZDoom's CMake would write this header from its .in file.
set(_vizdoom_gen "${CMAKE_BINARY_DIR}/_deps/vizdoom-gen")
set(ViZDoom_VERSION_ID "${RLPOOL_VIZDOOM_VERSION_ID}")
set(ViZDoom_VERSION_STR "${RLPOOL_VIZDOOM_VERSION}")
configure_file("${_vizdoom_src}/src/lib/ViZDoomVersion.h.in" "${_vizdoom_gen}/ViZDoomVersion.h" @ONLY)

# The patched controller is written next to that header from the untouched
# source on every configure, and compiled instead of the original.
file(READ "${_vizdoom_src}/src/lib/ViZDoomController.cpp" _vizdoom_text)
# The spawn patch: launchDoom's one bpr::execute call gets an on_exec_setup
# initializer that runs our child setup between fork and exec, and runs under
# a process-wide lock. Engines spawned at once from several threads (a pool's
# first reset) would otherwise fork concurrently, and fork handlers that are
# not safe for that deadlock: OpenBLAS's (numpy's, scipy's), once a matrix
# product has started its threads, joins them from each forking thread.
string(CONCAT _vizdoom_new
  "// rlpool: child setup (death signal, own process group, working folder) between fork and exec,\n"
  "            // one spawn at a time in the process.\n"
  "            const pid_t rlpool_parent = getpid();\n"
  "            const std::string rlpool_dir = bfs::path(this->configPath).parent_path().string();\n"
  "            bpr::child doomProcess = [&] {\n"
  "                const std::lock_guard<std::mutex> rlpool_lock(rlpool_vizdoom_spawn_mutex());\n"
  "                return bpr::execute(bpri::set_args(this->doomArgs), bpri::inherit_env(),\n"
  "                    bpri::on_exec_setup([rlpool_parent, &rlpool_dir](auto&) {\n"
  "                        rlpool_vizdoom_child_setup(rlpool_parent, rlpool_dir.c_str()); }));\n"
  "            }();")
rlpool_patch_text(_vizdoom_text
  "bpr::child doomProcess = bpr::execute(bpri::set_args(this->doomArgs), bpri::inherit_env());"
  "${_vizdoom_new}" "ViZDoom's DoomController::launchDoom")
string(CONCAT _vizdoom_new
  "#include <mutex>\nextern \"C\" void rlpool_vizdoom_child_setup(pid_t parent, const char* dir);\n"
  "std::mutex& rlpool_vizdoom_spawn_mutex();\nnamespace vizdoom {")
rlpool_patch_text(_vizdoom_text "namespace vizdoom {" "${_vizdoom_new}" "ViZDoomController.cpp")
# close() after the engine died during start-up (before the shared memory
# is open, e.g. a map the scenario lacks) would read a null game state.
rlpool_patch_text(_vizdoom_text "if (this->gameState->DEMO_RECORDING){"
  "if (this->gameState && this->gameState->DEMO_RECORDING){  // rlpool: null before start-up"
  "ViZDoom's DoomController::close")
set(_vizdoom_patched "${_vizdoom_gen}/ViZDoomController.cpp")
set(_vizdoom_written "")
if(EXISTS "${_vizdoom_patched}")
  file(READ "${_vizdoom_patched}" _vizdoom_written)
endif()
if(NOT _vizdoom_written STREQUAL _vizdoom_text)  # unchanged: no rebuild
  file(WRITE "${_vizdoom_patched}" "${_vizdoom_text}")
endif()

file(GLOB _vizdoom_lib_sources "${_vizdoom_src}/src/lib/*.cpp")
list(FILTER _vizdoom_lib_sources EXCLUDE REGEX "/ViZDoomController\\.cpp$")
list(APPEND _vizdoom_lib_sources "${_vizdoom_patched}")
add_library(rlpool_vizdoom_controller STATIC ${_vizdoom_lib_sources})
target_include_directories(rlpool_vizdoom_controller SYSTEM PRIVATE
                           "${_vizdoom_gen}" "${_vizdoom_src}/include" "${_vizdoom_src}/src/lib")
target_link_libraries(rlpool_vizdoom_controller PRIVATE Boost::headers Boost::filesystem Boost::thread Boost::system Boost::chrono
                                                        Threads::Threads)
set_target_properties(rlpool_vizdoom_controller PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_STANDARD 17
                      CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(rlpool_vizdoom_controller PRIVATE -w)

target_include_directories(rlpool_vizdoom_envs SYSTEM PRIVATE "${_vizdoom_src}/include")
target_link_libraries(_rlpool_core PRIVATE rlpool_vizdoom_controller Boost::filesystem Boost::thread Boost::system Boost::chrono rt)
