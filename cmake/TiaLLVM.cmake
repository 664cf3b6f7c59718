# Finds LLVM and Clang 19 (or newer) and fails early and clearly otherwise.
#
# Debian's ClangConfig.cmake rejects a version in find_package(Clang 19 ...),
# so both are found by CONFIG with a hint to the llvm-19 prefix and the major
# version is checked here.

set(TIA_LLVM_CONFIG "" CACHE FILEPATH "llvm-config of the LLVM to build against")
if(NOT TIA_LLVM_CONFIG)
  find_program(TIA_LLVM_CONFIG NAMES llvm-config-19 llvm-config)
endif()

set(_tia_llvm_hints)
if(TIA_LLVM_CONFIG)
  execute_process(COMMAND ${TIA_LLVM_CONFIG} --cmakedir
    OUTPUT_VARIABLE _tia_llvm_cmakedir OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${TIA_LLVM_CONFIG} --prefix
    OUTPUT_VARIABLE _tia_llvm_prefix OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND _tia_llvm_hints ${_tia_llvm_cmakedir} ${_tia_llvm_prefix}/lib/cmake/llvm)
endif()
list(APPEND _tia_llvm_hints /usr/lib/llvm-19/lib/cmake/llvm)

find_package(LLVM CONFIG HINTS ${_tia_llvm_hints})
if(NOT LLVM_FOUND)
  message(FATAL_ERROR "tia needs LLVM 19: install llvm-19-dev (utils/setup/install-deps.sh) "
    "or pass -DTIA_LLVM_CONFIG=/path/to/llvm-config")
endif()
if(LLVM_VERSION_MAJOR LESS 19)
  message(FATAL_ERROR "tia needs LLVM 19 or newer, found ${LLVM_PACKAGE_VERSION} "
    "in ${LLVM_DIR}: install llvm-19-dev or pass -DTIA_LLVM_CONFIG")
endif()

find_package(Clang CONFIG HINTS ${LLVM_INSTALL_PREFIX}/lib/cmake/clang
  ${LLVM_DIR}/../clang NO_DEFAULT_PATH)
if(NOT Clang_FOUND)
  message(FATAL_ERROR "tia needs the Clang ${LLVM_VERSION_MAJOR} libraries: "
    "install libclang-${LLVM_VERSION_MAJOR}-dev")
endif()
message(STATUS "tia: LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_INSTALL_PREFIX}")

set(TIA_LLVM_BINDIR ${LLVM_TOOLS_BINARY_DIR})

# The builtin headers (stddef.h, ...) a LibTooling binary outside the LLVM
# tree does not find by itself. Found here, overridable at run time with
# --resource-dir or TIA_RESOURCE_DIR.
find_program(TIA_CLANG NAMES clang-${LLVM_VERSION_MAJOR} clang
  HINTS ${TIA_LLVM_BINDIR} NO_DEFAULT_PATH)
if(NOT TIA_CLANG)
  find_program(TIA_CLANG NAMES clang-${LLVM_VERSION_MAJOR})
endif()
if(NOT TIA_CLANG)
  message(FATAL_ERROR "tia needs clang-${LLVM_VERSION_MAJOR} to find Clang's resource dir: "
    "install clang-${LLVM_VERSION_MAJOR}")
endif()
execute_process(COMMAND ${TIA_CLANG} -print-resource-dir
  OUTPUT_VARIABLE TIA_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
message(STATUS "tia: clang resource dir ${TIA_CLANG_RESOURCE_DIR}")

# lit and FileCheck from llvm-19-tools.
find_program(TIA_LIT NAMES lit.py lit
  HINTS ${LLVM_INSTALL_PREFIX}/build/utils/lit ${TIA_LLVM_BINDIR})
find_program(TIA_FILECHECK NAMES FileCheck HINTS ${TIA_LLVM_BINDIR} NO_DEFAULT_PATH)

# How tia links LLVM and Clang: tiaLLVM stands for LLVM's libraries (what
# lib/Support uses), tiaClang for Clang's (lib/Cpp).
#
# Debian's shared libLLVM costs every process that loads it about 55 ms of
# CPU before main (the dynamic loader relocates it and runs the static
# constructors of all of LLVM). tia starts once per command, and its test
# suite starts it thousands of times. Linked from the static archives, a
# binary holds only the objects it uses: `tia --version` takes 57 ms of CPU
# instead of 115 (docs/Benchmarks.md, "Start-up"). The archives come with llvm-19-dev
# and libclang-19-dev; TIA_STATIC_LLVM=OFF links the shared libraries.
option(TIA_STATIC_LLVM "Link LLVM and Clang from their static archives" ON)
add_library(tiaLLVM INTERFACE)
add_library(tiaClang INTERFACE)
file(GLOB _tia_clang_archives ${LLVM_LIBRARY_DIR}/libclang[A-Z]*.a)
if(TIA_STATIC_LLVM AND NOT _tia_clang_archives)
  message(STATUS "tia: no static Clang libraries in ${LLVM_LIBRARY_DIR}, linking the shared ones")
  set(TIA_STATIC_LLVM OFF)
endif()
if(TIA_STATIC_LLVM)
  # Every archive, in one group: the linker takes the objects the code
  # needs and resolves their cycles, so no list of components to keep in
  # step with Clang's. Then the system libraries LLVM's objects may need
  # (as llvm-config --link-static --system-libs lists them; Debian ships
  # some without their -dev symlink), of which --as-needed keeps those used.
  file(GLOB _tia_llvm_archives ${LLVM_LIBRARY_DIR}/libLLVM[A-Z]*.a)
  set(_tia_llvm_system_libs rt dl m)
  foreach(_lib z zstd xml2 z3)
    find_library(TIA_LLVM_SYSTEM_${_lib} NAMES ${_lib} lib${_lib}.so.1 lib${_lib}.so.2 lib${_lib}.so.4)
    if(TIA_LLVM_SYSTEM_${_lib})
      list(APPEND _tia_llvm_system_libs ${TIA_LLVM_SYSTEM_${_lib}})
    endif()
  endforeach()
  target_link_libraries(tiaLLVM INTERFACE -Wl,--as-needed
    -Wl,--start-group ${_tia_llvm_archives} -Wl,--end-group ${_tia_llvm_system_libs})
  target_link_libraries(tiaClang INTERFACE
    -Wl,--start-group ${_tia_clang_archives} ${_tia_llvm_archives} -Wl,--end-group tiaLLVM)
  # A static link of Clang takes GNU ld tens of seconds per binary; lld, a
  # few.
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld TIA_HAVE_LLD)
  if(TIA_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
  message(STATUS "tia: linking LLVM and Clang statically")
else()
  target_link_libraries(tiaLLVM INTERFACE LLVM)
  target_link_libraries(tiaClang INTERFACE clang-cpp)
endif()
