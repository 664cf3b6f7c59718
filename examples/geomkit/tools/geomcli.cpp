// geomcli VALUE FACTOR: prints VALUE scaled by FACTOR.
#include "geomkit/geom.h"
#include <cstdio>
#include <cstdlib>

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    std::fprintf(stderr, "usage: geomcli VALUE FACTOR\n");
    return 2;
  }
  std::printf("%g\n", geom::scale(std::atof(Argv[1]), std::atof(Argv[2])));
  return 0;
}
