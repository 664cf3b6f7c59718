//===- tia/Tool/ToolMain.h - the tia command line -------------------------===//

#ifndef TIA_TOOL_TOOLMAIN_H
#define TIA_TOOL_TOOLMAIN_H

namespace tia {

/// Parses the command line and runs the command. Returns the exit code:
/// 0 on success, 1 when the command failed (after a one-line message on
/// stderr), 2 for a usage error.
int toolMain(int Argc, const char **Argv);

} // namespace tia

#endif // TIA_TOOL_TOOLMAIN_H
