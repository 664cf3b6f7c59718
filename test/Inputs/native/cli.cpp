// geomcli: scales a number given on the command line.
#include "geom.h"
#include <cstdio>
#include <cstdlib>

int main(int Argc, char **Argv) {
  if (Argc != 3)
    return 2;
  std::printf("%g\n", geom::scale(std::atof(Argv[1]), std::atof(Argv[2])));
  return 0;
}
