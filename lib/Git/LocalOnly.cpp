//===- LocalOnly.cpp - libgit2 without its network set-up -----------------===//
//
// tia reads local repositories only: it never fetches, pushes or clones
// through libgit2 (tia eval clones with the git program). Yet
// git_libgit2_init sets up the network transports of Debian's build: it
// parses every certificate of /etc/ssl/certs/ca-certificates.crt with
// mbedTLS and initialises libssh2 (and OpenSSL under it). That took 6 of
// the 14 ms of a program that only calls git_libgit2_init, in every tia
// command (docs/Benchmarks.md, "libgit2 without its network set-up").
//
// So tia defines the two functions libgit2 calls for it. Linked with the
// shared libgit2, these definitions come first in the dynamic linker's
// lookup scope, and libgit2's calls bind to them. Linked with its static
// archive (cmake/TiaStaticDeps.cmake), libgit2's calls are redirected with
// the linker's --wrap to the __wrap_ definitions. An HTTPS remote would
// then fail closed: its certificate check finds no trusted certificate. A
// libgit2 built with OpenSSL or without SSH never calls them, and nothing
// changes. A tia that reaches remotes through libgit2 must drop this file.
//
//===----------------------------------------------------------------------===//

#include "GitInternal.h"

#if TIA_STATIC_LIBGIT2
#define TIA_LOCAL_ONLY(Name) __wrap_##Name
#else
#define TIA_LOCAL_ONLY(Name) Name
#endif

extern "C" {

struct mbedtls_x509_crt;

/// libgit2's mbedTLS stream loads the default certificate bundle with this;
/// no certificate is loaded.
int TIA_LOCAL_ONLY(mbedtls_x509_crt_parse_file)(mbedtls_x509_crt *Chain,
                                                const char *Path) {
  (void)Chain;
  (void)Path;
  return 0;
}

/// libgit2's SSH transport initialises libssh2 (and OpenSSL) with this at
/// git_libgit2_init.
int TIA_LOCAL_ONLY(libssh2_init)(int Flags) {
  (void)Flags;
  return 0;
}

} // extern "C"

namespace tia {
namespace git {
namespace detail {

void linkLocalOnly() {}

} // namespace detail
} // namespace git
} // namespace tia
