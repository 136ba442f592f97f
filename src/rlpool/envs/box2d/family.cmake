# Box2D envs: Box2D 2.3 (C++) compiled here from the box2d-py source
# distribution on PyPI (its Box2D/ folder); none of Box2D's code lives in this
# repository. Fetched by name and pinned version with pip, sha256-checked and
# cached (cmake/rlpool_fetch_sdist.cmake), then built as a static library.
#
# Box2D's b2Settings.h includes <Python.h> for its assertions; python_shim/
# stands in for it, so Box2D and the envs that include its headers compile
# without Python's headers (an OBJECT library, kept out of the main source glob).
include(rlpool_fetch_sdist)

set(RLPOOL_BOX2D_VERSION "2.3.8")
set(RLPOOL_BOX2D_SHA256 "bdacfbbc56079bb317548efe49d3d5a86646885cc27f4a2ee97e4b2960921ab7")
rlpool_fetch_sdist(box2d-py "${RLPOOL_BOX2D_VERSION}" "box2d-py-${RLPOOL_BOX2D_VERSION}.tar.gz"
                   "${RLPOOL_BOX2D_SHA256}" _box2d_tarball)
rlpool_unpack_sdist("${_box2d_tarball}" "${RLPOOL_BOX2D_SHA256}" "${CMAKE_BINARY_DIR}/_deps/box2d-src"
                    "Box2D/Box2D.h" _box2d_src)

file(GLOB_RECURSE _box2d_sources "${_box2d_src}/Box2D/*.cpp")
add_library(rlpool_box2d STATIC ${_box2d_sources})
# PRIVATE, and the same for the envs below: the shim must not reach the
# Python-facing sources of _rlpool_core, which link these libraries.
set(_box2d_includes "${CMAKE_CURRENT_LIST_DIR}/python_shim" "${_box2d_src}")
target_include_directories(rlpool_box2d SYSTEM PRIVATE ${_box2d_includes})
# Hidden: Box2D's functions are called directly, not exported from the extension.
# No FMA contraction, as for the envs: results match the box2d wheel gymnasium uses.
set_target_properties(rlpool_box2d PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden
                                              VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(rlpool_box2d PRIVATE -ffp-contract=off -w)

file(GLOB _box2d_env_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/*.cc")
add_library(rlpool_box2d_envs OBJECT ${_box2d_env_sources})
target_include_directories(rlpool_box2d_envs PRIVATE "${RLPOOL_INCLUDE_ROOT}")
target_include_directories(rlpool_box2d_envs SYSTEM PRIVATE ${_box2d_includes})
set_target_properties(rlpool_box2d_envs PROPERTIES POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden
                                                   VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(rlpool_box2d_envs PRIVATE -Wall -Wextra -ffp-contract=off)
if(RLPOOL_SANITIZE)
  target_compile_options(rlpool_box2d_envs PRIVATE -fsanitize=${RLPOOL_SANITIZE} -fno-omit-frame-pointer -g)
endif()
# The env objects are linked in whole, so their static registrations run at import.
target_link_libraries(_rlpool_core PRIVATE rlpool_box2d_envs rlpool_box2d)
