# What `cmake --install <build> --prefix P` puts under P (the tools install
# themselves in tools/*/CMakeLists.txt):
#   include/launchopt/*.cuh           the device runtime the outputs use
#   share/launchopt/{compat,gpus}     CUDA stand-in headers, GPU descriptions
#   lib/cmake/launchopt/              the CMake package (launchoptConfig.cmake)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${LAUNCHOPT_RUNTIME_HEADERS_SOURCE_DIR}/launchopt
        DESTINATION ${LAUNCHOPT_INSTALL_RUNTIME_HEADERS_DIR})
install(DIRECTORY ${LAUNCHOPT_COMPAT_HEADERS_SOURCE_DIR}/
        DESTINATION ${LAUNCHOPT_INSTALL_DATA_DIR}/compat)
install(DIRECTORY ${LAUNCHOPT_GPU_DESCRIPTIONS_SOURCE_DIR}/
        DESTINATION ${LAUNCHOPT_INSTALL_DATA_DIR}/gpus)

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/launchoptConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/launchoptConfig.cmake
  INSTALL_DESTINATION ${LAUNCHOPT_INSTALL_CMAKE_DIR}
  PATH_VARS LAUNCHOPT_INSTALL_RUNTIME_HEADERS_DIR)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/launchoptConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
          ${CMAKE_CURRENT_BINARY_DIR}/launchoptConfig.cmake
          ${CMAKE_CURRENT_BINARY_DIR}/launchoptConfigVersion.cmake
          ${CMAKE_CURRENT_LIST_DIR}/launchoptTransform.cmake
        DESTINATION ${LAUNCHOPT_INSTALL_CMAKE_DIR})
