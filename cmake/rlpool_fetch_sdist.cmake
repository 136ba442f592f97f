# Third-party distributions from PyPI, fetched by name and pinned version with
# pip, checked against their pinned sha256 and kept in RLPOOL_DOWNLOAD_CACHE
# (default: the user cache dir, ~/.cache/rlpool), so that a fresh build dir
# does not fetch them again; a cached file is used only if its checksum
# matches. Families that compile a simulator from its sdist (ALE, Box2D) or
# load a prebuilt library from a wheel (Procgen) call this from their
# family.cmake; none of that code lives here. One fetch/verify/cache path
# (_rlpool_fetch_dist) serves both kinds.
#
#   rlpool_fetch_sdist(<package> <version> <file name> <sha256> <out var>)
#       sets <out var> to the verified tarball's path in the cache; a failure
#       stops the build.
#   rlpool_unpack_sdist(<tarball> <sha256> <dest root> <must-exist path> <out var>)
#       unpacks it once per checksum under <dest root>; sets <out var> to the
#       unpacked top folder (the tarball name without .tar.gz).
#   rlpool_fetch_wheel(<package> <version> <file name> <sha256> <python version> <platform> <out var>)
#       the same for one binary wheel (pip download --only-binary :all: for that
#       interpreter version and platform tag, no dependencies: nothing of it is
#       installed). Optional: when it cannot be had (offline, wrong checksum) it
#       warns and sets <out var> to "", and the build goes on without it.
#   rlpool_unpack_wheel(<wheel> <sha256> <dest dir> <must-exist path> <out var>)
#       unpacks it once into <dest dir> (a wheel is a zip without a top folder);
#       sets <out var> to <dest dir>, or "" if <wheel> is "".
#   rlpool_patch_text(<text var> <old> <new> <what>)
#       replaces <old> with <new> in the variable's text (a source file read
#       for a checked patch); a text without <old> is a FATAL_ERROR naming <what>.

if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_rlpool_default_cache "$ENV{XDG_CACHE_HOME}/rlpool")
elseif(DEFINED ENV{HOME} AND NOT "$ENV{HOME}" STREQUAL "")
  set(_rlpool_default_cache "$ENV{HOME}/.cache/rlpool")
else()
  set(_rlpool_default_cache "${CMAKE_BINARY_DIR}/_deps/downloads")
endif()
set(RLPOOL_DOWNLOAD_CACHE "${_rlpool_default_cache}" CACHE PATH
    "Where fetched distributions (the ale-py and box2d-py sdists, the procgen-mirror wheel) are kept between builds")

# Returns in out_var whether `file` exists and has checksum `sha256`.
function(_rlpool_sdist_ok file sha256 out_var)
  set(ok FALSE)
  if(EXISTS "${file}")
    file(SHA256 "${file}" actual)
    if(actual STREQUAL sha256)
      set(ok TRUE)
    endif()
  endif()
  set(${out_var} ${ok} PARENT_SCOPE)
endfunction()

# Which pip: the interpreter's own (`python -m pip`). Under pip's build
# isolation (pip install .) the interpreter's site-packages are hidden from
# this process, so ask the interpreter outside it where pip lives and run that
# directory (pip supports `python <dir>/pip`; it then imports itself from
# there). Last resort: a pip program on PATH. Empty if there is none.
function(_rlpool_find_pip out_var)
  execute_process(COMMAND "${Python_EXECUTABLE}" -c "import pip"
                  RESULT_VARIABLE has_pip OUTPUT_QUIET ERROR_QUIET)
  if(has_pip EQUAL 0)
    set(${out_var} "${Python_EXECUTABLE}" -m pip PARENT_SCOPE)
    return()
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH --unset=PYTHONNOUSERSITE --unset=PYTHONHOME
            "${Python_EXECUTABLE}" -c "import os, pip; print(os.path.dirname(pip.__file__))"
    RESULT_VARIABLE pip_rc OUTPUT_VARIABLE pip_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(pip_rc EQUAL 0 AND EXISTS "${pip_dir}/__main__.py")
    set(${out_var} "${Python_EXECUTABLE}" "${pip_dir}" PARENT_SCOPE)
    return()
  endif()
  find_program(_rlpool_pip_program NAMES pip3 pip)
  if(_rlpool_pip_program)
    set(${out_var} "${_rlpool_pip_program}" PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE)
  endif()
endfunction()

# Fetches <file name> of <package>==<version> into the cache (pip download
# with the selection arguments in ARGN) unless a verified copy is there. With
# <required> false a failure is a warning and <out var> is "".
function(_rlpool_fetch_dist package version file_name sha256 kind required out_var)
  set(cached_file "${RLPOOL_DOWNLOAD_CACHE}/${file_name}")
  _rlpool_sdist_ok("${cached_file}" "${sha256}" cached)
  if(cached)
    set(${out_var} "${cached_file}" PARENT_SCOPE)
    return()
  endif()
  if(required)
    set(level FATAL_ERROR)
  else()
    set(level WARNING)
  endif()
  set(${out_var} "" PARENT_SCOPE)
  # pip downloads into a fresh folder; only a verified file enters the cache.
  set(fetch_dir "${CMAKE_BINARY_DIR}/_deps/${package}-fetch")
  file(REMOVE_RECURSE "${fetch_dir}")
  file(MAKE_DIRECTORY "${fetch_dir}")
  message(STATUS "rlpool: fetching ${package}==${version} ${kind} with pip")
  _rlpool_find_pip(pip)
  if(NOT pip)
    message(${level} "rlpool: no pip found to fetch ${file_name}; put that file (sha256 "
                     "${sha256}) in ${RLPOOL_DOWNLOAD_CACHE}/ and rebuild.")
    return()
  endif()
  execute_process(
    COMMAND ${pip} download --no-deps ${ARGN} "${package}==${version}" -d "${fetch_dir}"
    RESULT_VARIABLE pip_rc
    OUTPUT_VARIABLE pip_out
    ERROR_VARIABLE pip_out)
  set(fetched "${fetch_dir}/${file_name}")
  if(NOT pip_rc EQUAL 0 OR NOT EXISTS "${fetched}")
    string(REPLACE ";" " " pip_args "${ARGN}")
    string(REPLACE ";" " " pip "${pip}")
    message(${level}
      "rlpool: could not fetch ${file_name} with\n"
      "  ${pip} download --no-deps ${pip_args} ${package}==${version}\n"
      "(exit ${pip_rc}):\n${pip_out}\n"
      "Without network access, put the file in ${RLPOOL_DOWNLOAD_CACHE}/ "
      "(or set -DRLPOOL_DOWNLOAD_CACHE=<dir holding it>).")
    return()
  endif()
  _rlpool_sdist_ok("${fetched}" "${sha256}" fetched_ok)
  if(NOT fetched_ok)
    file(SHA256 "${fetched}" actual)
    message(${level} "rlpool: ${file_name} has sha256 ${actual}, expected ${sha256}; refusing to use it.")
    return()
  endif()
  file(MAKE_DIRECTORY "${RLPOOL_DOWNLOAD_CACHE}")
  file(COPY "${fetched}" DESTINATION "${RLPOOL_DOWNLOAD_CACHE}")
  file(REMOVE_RECURSE "${fetch_dir}")
  set(${out_var} "${cached_file}" PARENT_SCOPE)
endfunction()

function(rlpool_fetch_sdist package version file_name sha256 out_var)
  # --no-binary <package> (not :all:) so that pip does not try to build its
  # build tools (cmake, ...) from source just to read the sdist's metadata.
  _rlpool_fetch_dist(${package} ${version} "${file_name}" ${sha256} "source distribution" TRUE tarball
                     --no-build-isolation --no-binary ${package})
  set(${out_var} "${tarball}" PARENT_SCOPE)
endfunction()

function(rlpool_fetch_wheel package version file_name sha256 python_version platform out_var)
  _rlpool_fetch_dist(${package} ${version} "${file_name}" ${sha256} "wheel" FALSE wheel
                     --only-binary :all: --python-version ${python_version} --platform ${platform})
  set(${out_var} "${wheel}" PARENT_SCOPE)
endfunction()

function(rlpool_unpack_sdist tarball sha256 dest_root must_exist out_var)
  get_filename_component(top "${tarball}" NAME)
  string(REGEX REPLACE "\\.tar\\.gz$" "" top "${top}")
  _rlpool_extract_once("${tarball}" "${sha256}" "${dest_root}" "${top}/${must_exist}")
  set(${out_var} "${dest_root}/${top}" PARENT_SCOPE)
endfunction()

function(rlpool_unpack_wheel wheel sha256 dest_dir must_exist out_var)
  if(NOT wheel)
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  _rlpool_extract_once("${wheel}" "${sha256}" "${dest_dir}" "${must_exist}")
  set(${out_var} "${dest_dir}" PARENT_SCOPE)
endfunction()

# Unpacks <archive> into <dest root> once per checksum (a stamp file says it is
# complete); the unpacked tree must hold <must exist>.
function(_rlpool_extract_once archive sha256 dest_root must_exist)
  set(stamp "${dest_root}/unpacked-${sha256}")
  if(NOT EXISTS "${stamp}")
    file(REMOVE_RECURSE "${dest_root}")
    file(MAKE_DIRECTORY "${dest_root}")
    file(ARCHIVE_EXTRACT INPUT "${archive}" DESTINATION "${dest_root}")
    if(NOT EXISTS "${dest_root}/${must_exist}")
      message(FATAL_ERROR "rlpool: ${archive} does not hold ${must_exist}")
    endif()
    file(TOUCH "${stamp}")
  endif()
endfunction()

function(rlpool_patch_text text_var old new what)
  string(FIND "${${text_var}}" "${old}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "rlpool: ${what} is not as expected; update the patch in ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  string(REPLACE "${old}" "${new}" patched "${${text_var}}")
  set(${text_var} "${patched}" PARENT_SCOPE)
endfunction()
