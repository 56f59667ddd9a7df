# LLVM and Clang 19: -DLLVM_DIR=<prefix>/lib/cmake/llvm and
# -DClang_DIR=<prefix>/lib/cmake/clang (or CMAKE_PREFIX_PATH) choose an
# installation; Debian's llvm-19-dev and libclang-19-dev are the default.
# Their version files accept a matching major.minor, and every LLVM 19
# release is 19.1.x.
set(llvm_hint "Install llvm-19-dev and libclang-19-dev (scripts/install-deps.sh), or point "
              "-DLLVM_DIR and -DClang_DIR at an LLVM 19 installation's lib/cmake/llvm and "
              "lib/cmake/clang.")

# find_package passes over a <Package>_DIR of another version and goes on
# searching; a directory the user named must be the one used.
function(launchopt_check_requested_dir package requested)
  if(NOT requested)
    return()
  endif()
  get_filename_component(requested "${requested}" REALPATH)
  get_filename_component(found "${${package}_DIR}" REALPATH)
  if(${package}_FOUND AND requested STREQUAL found)
    return()
  endif()
  set(there "no ${package}Config.cmake")
  foreach(config version IN ZIP_LISTS ${package}_CONSIDERED_CONFIGS ${package}_CONSIDERED_VERSIONS)
    get_filename_component(config_dir "${config}" DIRECTORY)
    get_filename_component(config_dir "${config_dir}" REALPATH)
    if(config_dir STREQUAL requested AND version STREQUAL "unknown")
      set(there "a ${package} package of no stated version")
    elseif(config_dir STREQUAL requested)
      set(there "${package} ${version}")
    endif()
  endforeach()
  unset(${package}_DIR CACHE)
  message(FATAL_ERROR "launchopt needs LLVM/Clang 19; -D${package}_DIR=${requested} has "
                      "${there}. " ${llvm_hint})
endfunction()

set(requested_llvm_dir "${LLVM_DIR}")
set(requested_clang_dir "${Clang_DIR}")
find_package(LLVM 19.1 CONFIG HINTS /usr/lib/llvm-19)
launchopt_check_requested_dir(LLVM "${requested_llvm_dir}")
if(NOT LLVM_FOUND)
  set(considered " none")
  if(LLVM_CONSIDERED_CONFIGS)
    set(considered "")
    foreach(config version IN ZIP_LISTS LLVM_CONSIDERED_CONFIGS LLVM_CONSIDERED_VERSIONS)
      string(APPEND considered "\n  ${config} (LLVM ${version})")
    endforeach()
  endif()
  message(FATAL_ERROR "launchopt needs LLVM/Clang 19; found:${considered}\n" ${llvm_hint})
endif()

find_package(Clang ${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR} CONFIG
             HINTS "${LLVM_INSTALL_PREFIX}" "${LLVM_CMAKE_DIR}/..")
launchopt_check_requested_dir(Clang "${requested_clang_dir}")
if(NOT Clang_FOUND)
  message(FATAL_ERROR "launchopt needs Clang ${LLVM_PACKAGE_VERSION}'s CMake package beside "
                      "LLVM's (${LLVM_DIR}). " ${llvm_hint})
endif()
message(STATUS "launchopt: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}, Clang from ${Clang_DIR}")
