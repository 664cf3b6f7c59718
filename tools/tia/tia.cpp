//===- tia.cpp - the tia command-line driver ------------------------------===//
//
// Only forwards to the library so that unit tests can drive every command.
//
//===----------------------------------------------------------------------===//

#include "tia/Tool/ToolMain.h"

int main(int argc, const char **argv) { return tia::toolMain(argc, argv); }
