// A plugin: a shared library of the build that a program from outside the
// build loads, as `opt -load-pass-plugin` loads a pass.
extern "C" const char *shout() { return "HEY"; }
