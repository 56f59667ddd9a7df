# Sanitizer and fuzzing builds (scripts/sanitize-check.sh, scripts/fuzz.sh).
#   LAUNCHOPT_SANITIZE  every target with AddressSanitizer and UBSan
#   LAUNCHOPT_FUZZ      also tools/launchopt-fuzz, the libFuzzer target
# Both need clang 19 and its runtimes (Debian: libclang-rt-19-dev). The
# sanitizer build also carries libFuzzer's coverage instrumentation
# (fuzzer-no-link), so that one build directory serves both scripts.
option(LAUNCHOPT_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(LAUNCHOPT_FUZZ "Build the libFuzzer target tools/launchopt-fuzz (implies LAUNCHOPT_SANITIZE)" OFF)
if(LAUNCHOPT_FUZZ)
  set(LAUNCHOPT_SANITIZE ON)
endif()
if(NOT LAUNCHOPT_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 19)
  message(FATAL_ERROR "LAUNCHOPT_SANITIZE and LAUNCHOPT_FUZZ need clang 19 "
                      "(-DCMAKE_CXX_COMPILER=clang++-19); this is ${CMAKE_CXX_COMPILER_ID} "
                      "${CMAKE_CXX_COMPILER_VERSION}.")
endif()
# Stops at the first report instead of going on with a corrupt state;
# frame pointers give whole stacks in the reports.
set(launchopt_sanitizers -fsanitize=address,undefined,fuzzer-no-link
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
add_compile_options(${launchopt_sanitizers})
add_link_options(-fsanitize=address,undefined)
