/* A program from outside the build, built without coverage, that loads a
   plugin and calls it. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  void *Plugin = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
  const char *(*Shout)(void) =
      Plugin ? (const char *(*)(void))dlsym(Plugin, "shout") : NULL;
  if (!Shout)
    return 1;
  puts(Shout());
  if (argc > 2) /* "crash": after the plugin ran, before it wrote a profile */
    abort();
  return 0;
}
