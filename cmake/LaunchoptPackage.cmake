# `cpack -G DEB` in the build tree: a Debian package of the installed tree
# (prefix /usr). launchopt links Debian's shared Clang 19 and LLVM 19, and
# parses with Clang 19's builtin and CUDA wrapper headers
# (libclang-common-19-dev); the CUDA toolkit is NVIDIA's, not a Debian package.
set(CPACK_PACKAGE_NAME launchopt)
set(CPACK_PACKAGE_VENDOR launchopt)
set(CPACK_PACKAGE_CONTACT "launchopt developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "source-to-source optimizer for CUDA dynamic-parallelism kernel launches")
set(CPACK_PACKAGE_DESCRIPTION
    "launchopt rewrites CUDA that launches kernels from the GPU (thresholding, coarsening, aggregation) and fuses host-launched kernel sequences. Built on Clang 19 LibTooling; expects the CUDA toolkit at /usr/local/cuda.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-cpp19 (>= 1:19.1), libllvm19 (>= 1:19.1), libclang-common-19-dev (>= 1:19.1), libc6, libstdc++6, libgcc-s1")
include(CPack)
