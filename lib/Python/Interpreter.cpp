//===- Interpreter.cpp - the CPython embedded in tia ----------------------===//
//
// Isolated configuration: no PYTHON* environment variables, no user or site
// packages, no signal handlers (Ctrl-C stays tia's), no bytecode files.
// sys.stdout and sys.stderr are replaced by sinks and warnings are
// ignored, so nothing the interpreter does reaches the user's terminal.
// Exceptions are caught by the extractor itself (SystemExit included);
// what still escapes is fetched here and turned into an llvm::Error, never
// printed (PyErr_Print would exit on SystemExit).
//
//===----------------------------------------------------------------------===//

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "Interpreter.h"
#include "tia/Support/Error.h"
#include <mutex>

#if defined(__SANITIZE_ADDRESS__)
#define TIA_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TIA_ADDRESS_SANITIZER 1
#endif
#endif
#ifndef TIA_ADDRESS_SANITIZER
#define TIA_ADDRESS_SANITIZER 0
#endif

namespace tia {
namespace python {

namespace {

#include "ExtractorSource.inc"
#include "NamesSource.inc"

const char *const Bootstrap = R"py(
import sys, warnings
class _Sink:
    def write(self, text):
        return len(text)
    def flush(self):
        pass
    def isatty(self):
        return False
sys.stdout = sys.stderr = sys.__stdout__ = sys.__stderr__ = _Sink()
sys.stdin = None
warnings.simplefilter("ignore")
)py";

/// The text of the pending Python exception ("TypeError: ..."), cleared.
std::string fetchException() {
  PyObject *Type = nullptr, *Value = nullptr, *Trace = nullptr;
  PyErr_Fetch(&Type, &Value, &Trace);
  PyErr_NormalizeException(&Type, &Value, &Trace);
  std::string Out = "unknown error";
  if (Type) {
    if (const char *Name = reinterpret_cast<PyTypeObject *>(Type)->tp_name)
      Out = Name;
  }
  if (Value) {
    if (PyObject *S = PyObject_Str(Value)) {
      if (const char *Text = PyUnicode_AsUTF8(S))
        if (*Text)
          Out += std::string(": ") + Text;
      Py_DECREF(S);
    }
    PyErr_Clear();
  }
  Py_XDECREF(Type);
  Py_XDECREF(Value);
  Py_XDECREF(Trace);
  return Out;
}

class Interpreter {
public:
  static Interpreter &get() {
    static Interpreter I;
    return I;
  }

  /// Starts the interpreter on first use; the error of that start, if any,
  /// on every use.
  llvm::Error ensureStarted() {
    std::call_once(Once, [this] { StartError = start(); });
    if (!StartError.empty())
      return makeErrorf("cannot start the embedded Python: {0}", StartError);
    return llvm::Error::success();
  }

  PyObject *module() const { return Module; }

private:
  std::string start() {
    if (Py_IsInitialized())
      return "another Python is already running in this process";
#if TIA_ADDRESS_SANITIZER
    // Under AddressSanitizer (the sanitize build) Python allocates with
    // malloc rather than in its own mmap'd arenas, which LeakSanitizer does
    // not scan: whatever is reachable only through a Python object would
    // be reported as leaked. It also lets ASan check accesses to Python's
    // memory. (The isolated configuration ignores PYTHONMALLOC.)
    PyPreConfig Pre;
    PyPreConfig_InitIsolatedConfig(&Pre);
    Pre.allocator = PYMEM_ALLOCATOR_MALLOC;
    PyStatus PreStatus = Py_PreInitialize(&Pre);
    if (PyStatus_Exception(PreStatus))
      return PreStatus.err_msg ? PreStatus.err_msg : "unknown failure";
#endif
    PyConfig Config;
    PyConfig_InitIsolatedConfig(&Config);
    Config.install_signal_handlers = 0;
    Config.site_import = 0;
    Config.write_bytecode = 0;
    Config.user_site_directory = 0;
    Config.parse_argv = 0;
    Config.configure_c_stdio = 0;
    Config.pathconfig_warnings = 0;
    std::string Failure;
    auto Check = [&](PyStatus S) {
      if (PyStatus_Exception(S) && Failure.empty())
        Failure = S.err_msg ? S.err_msg : "unknown failure";
    };
    Check(PyConfig_SetBytesString(&Config, &Config.program_name, "tia"));
    Check(PyConfig_SetBytesString(&Config, &Config.home, TIA_PYTHON_HOME));
    if (Failure.empty())
      Check(Py_InitializeFromConfig(&Config));
    PyConfig_Clear(&Config);
    if (!Failure.empty())
      return Failure + " (tia needs Debian's python3.11 standard library "
                       "under " TIA_PYTHON_HOME ")";

    std::string Error;
    if (PyRun_SimpleString(Bootstrap) != 0)
      Error = "its bootstrap failed";
    // The name analysis first: the extractor imports it.
    if (Error.empty()) {
      PyObject *Code =
          Py_CompileString(namesSource().c_str(), "names.py", Py_file_input);
      if (!Code)
        Error = "cannot compile the name analysis: " + fetchException();
      else {
        PyObject *Names =
            PyImport_ExecCodeModuleEx("tia_names", Code, "names.py");
        Py_DECREF(Code);
        if (!Names)
          Error = "cannot load the name analysis: " + fetchException();
        Py_XDECREF(Names);
      }
    }
    if (Error.empty()) {
      std::string Source = extractorSource();
      PyObject *Code =
          Py_CompileString(Source.c_str(), "extractor.py", Py_file_input);
      if (!Code)
        Error = "cannot compile the extractor: " + fetchException();
      else {
        Module =
            PyImport_ExecCodeModuleEx("tia_extractor", Code, "extractor.py");
        Py_DECREF(Code);
        if (!Module)
          Error = "cannot load the extractor: " + fetchException();
      }
    }
    // Other threads take the GIL with PyGILState_Ensure.
    PyEval_SaveThread();
    return Error;
  }

  std::once_flag Once;
  std::string StartError;
  PyObject *Module = nullptr;
};

/// Holds the GIL for its lifetime.
class GilLock {
public:
  GilLock() : State(PyGILState_Ensure()) {}
  ~GilLock() { PyGILState_Release(State); }

private:
  PyGILState_STATE State;
};

} // namespace

const std::string &extractorSource() {
  static const std::string Source = [] {
    std::string S;
    for (const char *const *P = ExtractorSource; *P; ++P)
      S += *P;
    return S;
  }();
  return Source;
}

const std::string &namesSource() {
  static const std::string Source = [] {
    std::string S;
    for (const char *const *P = NamesSource; *P; ++P)
      S += *P;
    return S;
  }();
  return Source;
}

llvm::Expected<std::string> interpreterVersion() {
  if (llvm::Error E = Interpreter::get().ensureStarted())
    return E;
  llvm::StringRef V = Py_GetVersion();
  return V.take_until([](char C) { return C == ' '; }).str();
}

llvm::Expected<std::string> callExtractor(llvm::StringRef Function,
                                          llvm::ArrayRef<CallArg> Args) {
  Interpreter &I = Interpreter::get();
  if (llvm::Error E = I.ensureStarted())
    return E;
  GilLock Lock;
  auto Failed = [&](const std::string &Why) {
    return makeErrorf("the python extractor failed in {0}: {1}", Function, Why);
  };
  PyObject *Fn = PyObject_GetAttrString(I.module(), Function.str().c_str());
  if (!Fn)
    return Failed(fetchException());
  PyObject *Tuple = PyTuple_New(static_cast<Py_ssize_t>(Args.size()));
  if (!Tuple) {
    Py_DECREF(Fn);
    return Failed(fetchException());
  }
  for (size_t K = 0; K < Args.size(); ++K) {
    const CallArg &A = Args[K];
    PyObject *V =
        A.T == CallArg::Bytes
            ? PyBytes_FromStringAndSize(A.Value.data(), A.Value.size())
            : PyUnicode_DecodeUTF8(A.Value.data(), A.Value.size(),
                                   "surrogateescape");
    if (!V) {
      Py_DECREF(Tuple);
      Py_DECREF(Fn);
      return Failed(fetchException());
    }
    PyTuple_SET_ITEM(Tuple, static_cast<Py_ssize_t>(K), V); // Steals V.
  }
  PyObject *Result = PyObject_CallObject(Fn, Tuple);
  Py_DECREF(Tuple);
  Py_DECREF(Fn);
  if (!Result)
    return Failed(fetchException());
  std::string Out;
  Py_ssize_t Size = 0;
  const char *Text = PyUnicode_Check(Result)
                         ? PyUnicode_AsUTF8AndSize(Result, &Size)
                         : nullptr;
  if (Text)
    Out.assign(Text, Size);
  Py_DECREF(Result);
  if (!Text) {
    std::string Why =
        PyErr_Occurred() ? fetchException() : "it did not return text";
    return Failed(Why);
  }
  return Out;
}

} // namespace python
} // namespace tia
