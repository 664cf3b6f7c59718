# How tia links the embedded Python, libgit2 and SQLite: tiaPythonLib,
# tiaGitLib and tiaSqliteLib stand for them in lib/ and unittests/.
#
# Every tia process loads all three. As shared libraries they cost each
# start more than LLVM's static archives do: the dynamic loader applies
# libpython's 39,000 relocations and, through libgit2's SSH transport,
# OpenSSL's 21,000, writing to a page for each page of pointers. `tia
# --version` took 25.4 ms of CPU linked that way and 15.1 ms with the
# archives (docs/Benchmarks.md, "Python, libgit2 and SQLite linked
# statically"). tia's executables are not position independent, so what
# they take from static archives has nothing left to relocate. Debian
# ships the archives with the -dev packages tia already needs (GSSAPI,
# which has none, stays shared); where one is missing, the shared
# libraries are linked, as TIA_STATIC_DEPS=OFF does.
option(TIA_STATIC_DEPS "Link libpython, libgit2 and SQLite from their static archives" ON)

# The archives hold code that is not position independent (Debian builds
# libpython3.11.a without -fPIC), so they go only into executables that are
# not PIEs: a PIE build (TIA_PIE, and the sanitizer and fuzz builds, whose
# runtimes want PIEs) links the shared libraries instead.
if(TIA_STATIC_DEPS AND (TIA_PIE OR TIA_SANITIZE OR TIA_FUZZ))
  message(STATUS "tia: a PIE build links the shared libpython, libgit2 and SQLite")
  set(TIA_STATIC_DEPS OFF)
endif()

# Sets OUT to the static archives lib<NAME>.a of NAMES, or to empty when
# one of them is missing.
function(tia_find_archives OUT)
  set(archives)
  foreach(name ${ARGN})
    find_library(TIA_ARCHIVE_${name} NAMES lib${name}.a
      HINTS ${PYTHON_EMBED_LIBRARY_DIRS} ${LIBGIT2_LIBRARY_DIRS})
    if(NOT TIA_ARCHIVE_${name})
      message(STATUS "tia: no lib${name}.a, linking the shared libraries")
      set(${OUT} "" PARENT_SCOPE)
      return()
    endif()
    list(APPEND archives ${TIA_ARCHIVE_${name}})
  endforeach()
  set(${OUT} ${archives} PARENT_SCOPE)
endfunction()

add_library(tiaPythonLib INTERFACE)
add_library(tiaGitLib INTERFACE)
add_library(tiaSqliteLib INTERFACE)
set(_tia_python_archives)
set(_tia_git_archives)
set(_tia_sqlite_archives)
if(TIA_STATIC_DEPS)
  tia_find_archives(_tia_python_archives ${PYTHON_EMBED_LIBRARIES} expat z)
  # libgit2's own dependencies (pkg-config --static libgit2), with OpenSSL's
  # libcrypto under libssh2.
  tia_find_archives(_tia_git_archives git2 mbedtls mbedx509 mbedcrypto
    http_parser ssh2 pcre2-8 crypto z)
  tia_find_archives(_tia_sqlite_archives sqlite3)
endif()

if(_tia_python_archives)
  # The standard library's extension modules (lib-dynload: _json,
  # _hashlib, ...) take the C API from the executable, as they do from
  # python3 itself, which Debian also links with a static libpython.
  target_link_libraries(tiaPythonLib INTERFACE ${_tia_python_archives} dl m util
    -Wl,--export-dynamic-symbol=Py* -Wl,--export-dynamic-symbol=_Py*)
  message(STATUS "tia: linking libpython statically")
else()
  target_link_libraries(tiaPythonLib INTERFACE PkgConfig::PYTHON_EMBED)
endif()
target_include_directories(tiaPythonLib INTERFACE ${PYTHON_EMBED_INCLUDE_DIRS})

if(_tia_git_archives)
  # Debian builds libgit2 with GSSAPI, which has no static archive.
  find_library(TIA_GSSAPI NAMES gssapi_krb5 libgssapi_krb5.so.2)
  target_link_libraries(tiaGitLib INTERFACE ${_tia_git_archives} ${TIA_GSSAPI} rt dl
    # lib/Git/LocalOnly.cpp: libgit2's network set-up, replaced.
    -Wl,--wrap=libssh2_init -Wl,--wrap=mbedtls_x509_crt_parse_file)
  target_compile_definitions(tiaGitLib INTERFACE TIA_STATIC_LIBGIT2=1)
  message(STATUS "tia: linking libgit2 statically")
else()
  target_link_libraries(tiaGitLib INTERFACE PkgConfig::LIBGIT2)
  target_compile_definitions(tiaGitLib INTERFACE TIA_STATIC_LIBGIT2=0)
endif()
target_include_directories(tiaGitLib INTERFACE ${LIBGIT2_INCLUDE_DIRS})

if(_tia_sqlite_archives)
  target_link_libraries(tiaSqliteLib INTERFACE ${_tia_sqlite_archives} m dl)
  message(STATUS "tia: linking SQLite statically")
else()
  target_link_libraries(tiaSqliteLib INTERFACE PkgConfig::SQLITE3)
endif()
target_include_directories(tiaSqliteLib INTERFACE ${SQLITE3_INCLUDE_DIRS})
