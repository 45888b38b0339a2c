# What `cmake --install <build> --prefix P` puts under P:
#
#   include/nd/...         public headers, .td files and the generated .inc /
#                          .h.inc headers and nd/Version.h
#   include/nd-c/          the C interface of compiled models (Runtime.h) and
#                          nd's run-time ABI (RuntimeABI.h)
#   lib/                   nd's libraries (NdDialect, NdToLoops, ...),
#                          NdPlugin.so and the run-time libraries
#                          libnd_runtime.so and libnd_runner_utils.so
#   bin/                   nd-opt, nd-translate, nd-run, nd-compile,
#                          nd-tensor-tool
#   lib/python3/dist-packages/nd/
#                          the Python package (ND_INSTALL_PYTHON_DIR,
#                          python/CMakeLists.txt), which finds bin/ and lib/
#                          of the prefix from where it is
#   share/doc/nd/          the op and pass reference generated from ODS and
#                          LICENSE (Apache-2.0 WITH LLVM-exception)
#   lib/cmake/nd/          NDConfig.cmake, NDConfigVersion.cmake and the
#                          exported targets (NDTargets.cmake), for
#                          find_package(ND)

include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/nd
  DESTINATION include
  COMPONENT nd-headers
  FILES_MATCHING
  PATTERN "*.h"
  PATTERN "*.td"
  PATTERN "*.def"
  PATTERN "CMakeLists.txt" EXCLUDE
  )
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/nd-c
  DESTINATION include
  COMPONENT nd-headers
  FILES_MATCHING
  PATTERN "*.h"
  )
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/nd
  DESTINATION include
  COMPONENT nd-headers
  FILES_MATCHING
  PATTERN "*.h"
  PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE
  )

install(DIRECTORY ${PROJECT_BINARY_DIR}/docs/
  DESTINATION share/doc/nd
  COMPONENT nd-docs
  FILES_MATCHING
  PATTERN "*.md"
  )
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE
  DESTINATION share/doc/nd
  COMPONENT nd-docs
  )

set(ND_INSTALL_CMAKE_DIR lib/cmake/nd)
# Where the config files are generated before installation: not a path that
# find_package searches (the build's bin/ is on PATH in the tests), since the
# build tree is not a package of its own.
set(nd_package_dir ${PROJECT_BINARY_DIR}/CMakeFiles/NDPackage)
install(EXPORT NDTargets
  DESTINATION ${ND_INSTALL_CMAKE_DIR}
  COMPONENT nd-cmake
  )
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/NDConfig.cmake.in
  ${nd_package_dir}/NDConfig.cmake
  INSTALL_DESTINATION ${ND_INSTALL_CMAKE_DIR}
  PATH_VARS ND_INSTALL_CMAKE_DIR
  )
# Before 1.0, a minor version may change the API.
write_basic_package_version_file(
  ${nd_package_dir}/NDConfigVersion.cmake
  COMPATIBILITY SameMinorVersion
  )
install(FILES
  ${nd_package_dir}/NDConfig.cmake
  ${nd_package_dir}/NDConfigVersion.cmake
  DESTINATION ${ND_INSTALL_CMAKE_DIR}
  COMPONENT nd-cmake
  )
