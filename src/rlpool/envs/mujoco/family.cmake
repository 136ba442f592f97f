# MuJoCo envs: headers from the `mujoco` wheel (pinned in pyproject.toml, present
# in the build environment); the library itself is opened at run time (dlopen)
# from the `mujoco` package Python imports, so the extension has no link-time
# dependency on a path that only exists in pip's temporary build environment.
execute_process(
  COMMAND "${Python_EXECUTABLE}" -c
          "import importlib.util as u; s = u.find_spec('mujoco'); print(s.submodule_search_locations[0] if s else '')"
  OUTPUT_VARIABLE RLPOOL_MUJOCO_DIR
  OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _rlpool_mujoco_rc)
if(NOT _rlpool_mujoco_rc EQUAL 0 OR NOT RLPOOL_MUJOCO_DIR OR NOT EXISTS "${RLPOOL_MUJOCO_DIR}/include/mujoco/mujoco.h")
  message(FATAL_ERROR
    "rlpool's MuJoCo envs need the `mujoco` Python package (the version pinned in pyproject.toml) "
    "installed for ${Python_EXECUTABLE}: its headers are compiled against. Found: '${RLPOOL_MUJOCO_DIR}'")
endif()

# The wheel ships exactly one libmujoco.so.<version>; its file name is its SONAME.
file(GLOB _rlpool_mujoco_libs "${RLPOOL_MUJOCO_DIR}/libmujoco.so.*")
list(LENGTH _rlpool_mujoco_libs _rlpool_mujoco_nlibs)
if(NOT _rlpool_mujoco_nlibs EQUAL 1)
  message(FATAL_ERROR "expected one libmujoco.so.<version> in ${RLPOOL_MUJOCO_DIR}, found: ${_rlpool_mujoco_libs}")
endif()
get_filename_component(RLPOOL_MUJOCO_SONAME "${_rlpool_mujoco_libs}" NAME)
message(STATUS "rlpool MuJoCo envs: headers from ${RLPOOL_MUJOCO_DIR}/include, library ${RLPOOL_MUJOCO_SONAME} at run time")

target_include_directories(_rlpool_core SYSTEM PRIVATE "${RLPOOL_MUJOCO_DIR}/include")
target_compile_definitions(_rlpool_core PRIVATE RLPOOL_MUJOCO_SONAME="${RLPOOL_MUJOCO_SONAME}")
target_link_libraries(_rlpool_core PRIVATE ${CMAKE_DL_LIBS})

# The family's env sources, compiled into the module.
file(GLOB _mujoco_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/*.cc")
target_sources(_rlpool_core PRIVATE ${_mujoco_sources})
