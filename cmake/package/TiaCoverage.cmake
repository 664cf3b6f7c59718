# tia_add_coverage(<target> [NO_LISTENER] [FRAMEWORK gtest|catch2|doctest|boost])
#
# Builds <target> for `tia collect`: instruments it for coverage with the
# compiler in use (clang: -fprofile-instr-generate -fcoverage-mapping; GCC:
# --coverage) and, for an executable, compiles tia's listener for its test
# framework into it (FRAMEWORK: gtest, the default, catch2 for Catch2
# 2.x, doctest, or boost for Boost.Test), so that `tia collect` runs all its
# test cases in one process and still gets one profile per case. NO_LISTENER leaves the listener out (for
# an executable that uses no such framework); `tia collect` then runs each
# case in its own process.
#
# Instrument the libraries under test too (tia_add_coverage(mylib)): only
# instrumented code shows up in the coverage. A static library passes the
# link flags on to what links it.

if(NOT DEFINED TIA_GTEST_LISTENER_SOURCE)
  get_filename_component(TIA_GTEST_LISTENER_SOURCE
    "${CMAKE_CURRENT_LIST_DIR}/../../../share/tia/GTestListener.cpp" ABSOLUTE)
endif()

function(tia_add_coverage target)
  cmake_parse_arguments(ARG "NO_LISTENER" "FRAMEWORK" "" ${ARGN})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tia_add_coverage: ${target} is not a target")
  endif()
  if(NOT ARG_FRAMEWORK OR ARG_FRAMEWORK STREQUAL "gtest")
    set(listener "${TIA_GTEST_LISTENER_SOURCE}")
  elseif(ARG_FRAMEWORK MATCHES "^(catch2|doctest|boost)$")
    # Every listener lies beside the GoogleTest one.
    get_filename_component(runtime "${TIA_GTEST_LISTENER_SOURCE}" DIRECTORY)
    if(ARG_FRAMEWORK STREQUAL "catch2")
      set(listener "${runtime}/Catch2Listener.cpp")
    elseif(ARG_FRAMEWORK STREQUAL "doctest")
      set(listener "${runtime}/DoctestListener.cpp")
    else()
      set(listener "${runtime}/BoostTestListener.cpp")
    endif()
  else()
    message(FATAL_ERROR "tia_add_coverage: FRAMEWORK ${ARG_FRAMEWORK} is "
      "not one tia has a listener for; use gtest, catch2, doctest or boost, "
      "or NO_LISTENER")
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(flags -fprofile-instr-generate -fcoverage-mapping)
    set(link_flags ${flags})
    set(no_flags -fno-profile-instr-generate -fno-coverage-mapping)
    set(kind TIA_COVERAGE_CLANG)
  elseif(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # What --coverage means, spelled out: gcc's driver applies --coverage
    # after every -fno-..., so the listener could not opt out of it.
    set(flags -fprofile-arcs -ftest-coverage)
    set(link_flags --coverage)
    set(no_flags -fno-profile-arcs -fno-test-coverage)
    set(kind TIA_COVERAGE_GCOV)
  else()
    message(FATAL_ERROR "tia_add_coverage: ${CMAKE_CXX_COMPILER_ID} is neither "
      "clang nor GCC; configure with -DCMAKE_CXX_COMPILER=clang++ or g++")
  endif()

  get_target_property(type ${target} TYPE)
  target_compile_options(${target} PRIVATE ${flags})
  if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "OBJECT_LIBRARY")
    target_link_options(${target} INTERFACE ${link_flags})
  elseif(NOT type STREQUAL "INTERFACE_LIBRARY")
    target_link_options(${target} PRIVATE ${link_flags})
  endif()

  if(type STREQUAL "EXECUTABLE" AND NOT ARG_NO_LISTENER)
    if(NOT EXISTS "${listener}")
      message(FATAL_ERROR "tia_add_coverage: tia's listener "
        "${listener} is missing; reinstall tia")
    endif()
    target_sources(${target} PRIVATE "${listener}")
    target_compile_definitions(${target} PRIVATE ${kind})
    # The listener's own code is not what the tests cover.
    set_source_files_properties("${listener}"
      TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS "${no_flags}")
  endif()
endfunction()
