//===- tia/Select/PythonSettings.h - the Python settings --------*- C++ -*-===//
//
// The Python front end's and static selection's settings come from two
// places: .tia.yaml's python section and pytest's own configuration files
// at the repository root (or, for a selection, their reading that the
// index remembered, so that both see the same test functions).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SELECT_PYTHONSETTINGS_H
#define TIA_SELECT_PYTHONSETTINGS_H

#include "tia/Config/Workspace.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Select/Static.h"

namespace tia {
namespace select {

/// The Python front end's options: .tia.yaml's python section and pytest's
/// settings from the configuration files at \p W's root (read from the
/// work tree, or as \p Memo remembers their reading). Fails like
/// python::loadPytestSettings.
llvm::Expected<python::FrontEndOptions>
pythonOptions(const config::Workspace &W,
              const python::PytestSettingsMemo &Memo = {});

/// Finds the reading of pytest's settings that the last `tia index` into
/// \p S remembered (a database that cannot tell: none).
python::PytestSettingsMemo rememberedIn(Store &S);

/// The settings of static selection: .tia.yaml's python section and
/// pytest's python_functions from \p Python.
StaticOptions staticOptions(const config::Workspace &W,
                            const python::FrontEndOptions &Python);

} // namespace select
} // namespace tia

#endif // TIA_SELECT_PYTHONSETTINGS_H
