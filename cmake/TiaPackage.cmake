# Installs tia (the driver, the listeners' sources and the CMake
# helper tia_add_coverage) and writes a package config for find_package(tia)
# in the install tree and one in the build tree (BUILD/cmake/tia), so that a
# project can use a tia it did not install.

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(TIA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tia)
set(TIA_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/tia)

# Install tree: paths relative to the config file.
file(RELATIVE_PATH _tia_to_prefix "/${TIA_INSTALL_CMAKEDIR}" "/")
set(TIA_CONFIG_LOCATIONS "\
get_filename_component(_tia_prefix \"\${CMAKE_CURRENT_LIST_DIR}/${_tia_to_prefix}\" ABSOLUTE)
set(TIA_EXECUTABLE \"\${_tia_prefix}/${CMAKE_INSTALL_BINDIR}/tia\")
set(TIA_GTEST_LISTENER_SOURCE \"\${_tia_prefix}/${TIA_INSTALL_DATADIR}/GTestListener.cpp\")
set(TIA_COVERAGE_HELPER \"\${CMAKE_CURRENT_LIST_DIR}/TiaCoverage.cmake\")")
configure_file(${CMAKE_CURRENT_LIST_DIR}/package/tiaConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/install/tiaConfig.cmake @ONLY)

# Build tree: the sources and the built driver, where they are.
set(TIA_CONFIG_LOCATIONS "\
set(TIA_EXECUTABLE \"$<TARGET_FILE:tia>\")
set(TIA_GTEST_LISTENER_SOURCE \"${CMAKE_SOURCE_DIR}/runtime/GTestListener.cpp\")
set(TIA_COVERAGE_HELPER \"${CMAKE_CURRENT_LIST_DIR}/package/TiaCoverage.cmake\")")
configure_file(${CMAKE_CURRENT_LIST_DIR}/package/tiaConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/tiaConfig.cmake.gen @ONLY)
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/cmake/tia/tiaConfig.cmake
  INPUT ${CMAKE_BINARY_DIR}/cmake/tiaConfig.cmake.gen)

write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/tia/tiaConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)

# LLVM and Clang live outside the default library path (/usr/lib/llvm-19).
set_target_properties(tia PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS tia RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/runtime/GTestListener.cpp
  ${CMAKE_SOURCE_DIR}/runtime/Catch2Listener.cpp
  ${CMAKE_SOURCE_DIR}/runtime/DoctestListener.cpp
  ${CMAKE_SOURCE_DIR}/runtime/BoostTestListener.cpp
  ${CMAKE_SOURCE_DIR}/runtime/TiaJournal.h
  DESTINATION ${TIA_INSTALL_DATADIR})
install(FILES
  ${CMAKE_BINARY_DIR}/cmake/install/tiaConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/tia/tiaConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/package/TiaCoverage.cmake
  DESTINATION ${TIA_INSTALL_CMAKEDIR})
