# lit configuration for tia's command tests.
import os
import subprocess
import sys
import lit.formats

config.name = "tia"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".cpp"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tia_obj_root, "test")

# tia first, then FileCheck, not, count and split-file from the LLVM tools.
# --param tia_tools_dir=DIR puts another folder's tia first (the profile of
# utils/bench/bench-suite-profile.sh wraps it there).
config.tia_tools_dir = lit_config.params.get("tia_tools_dir", config.tia_tools_dir)
config.environment["PATH"] = os.pathsep.join(
    [config.tia_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

# A fixed, clean environment: no database or resource dir from the caller,
# and git that does not read the user's configuration.
for var in ["TIA_DB", "TIA_RESOURCE_DIR", "TIA_ALL", "GITHUB_STEP_SUMMARY",
            "GIT_DIR", "GIT_WORK_TREE"]:
    config.environment.pop(var, None)
config.environment["GIT_CONFIG_NOSYSTEM"] = "1"
# The test folders may lie inside a checkout (of tia itself): neither git
# nor tia may find a repository above them.
config.environment["GIT_CEILING_DIRECTORIES"] = config.test_exec_root
config.environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
config.environment["GIT_AUTHOR_NAME"] = "tia test"
config.environment["GIT_AUTHOR_EMAIL"] = "test@tia.invalid"
config.environment["GIT_COMMITTER_NAME"] = "tia test"
config.environment["GIT_COMMITTER_EMAIL"] = "test@tia.invalid"
config.environment["GIT_AUTHOR_DATE"] = "2026-01-01T00:00:00Z"
config.environment["GIT_COMMITTER_DATE"] = "2026-01-01T00:00:00Z"
config.environment["TERM"] = "dumb"

# A coverage build's tia (the `coverage` preset) writes a profile wherever it
# runs; in a fixture's repository that would be an untracked file, a change.
# Under `tia collect` LLVM_PROFILE_FILE names tia's folder for the test and
# lit passes it on; otherwise the profiles go to one pool in the build.
if (config.tia_coverage.upper() in ("ON", "1", "TRUE", "YES")
        and "LLVM_PROFILE_FILE" not in config.environment):
    config.environment["LLVM_PROFILE_FILE"] = os.path.join(
        config.test_exec_root, "profiles", "tia-%4m.profraw")

config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%llvm-profdata", os.path.join(config.llvm_tools_dir, "llvm-profdata")))
config.substitutions.append(("%llvm-cov", os.path.join(config.llvm_tools_dir, "llvm-cov")))
config.substitutions.append(("%examples", os.path.join(config.tia_src_root, "examples")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%gen-history", sys.executable + " " + os.path.join(config.tia_src_root, "utils", "bench", "gen-history.py")))
config.substitutions.append(("%resource-dir", config.clang_resource_dir))
# The collect fixture (test/CMakeLists.txt): a git repository with a clang
# and a gcc build of its tests, and its index.
config.substitutions.append(("%fixture", config.collect_fixture))
# The frameworks fixture: the same for Catch2 (and other frameworks') cases.
config.substitutions.append(("%fwfixture", config.frameworks_fixture))

# The Python that runs pytest in the tests: Debian's, which has pytest,
# pytest-cov and coverage (utils/setup/install-deps.sh), whatever is first on PATH.
config.tia_python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
config.substitutions.append(("%python", config.tia_python))
# The lit running this suite, to run a lit suite of a test's own.
config.substitutions.append(("%lit", sys.executable + " " + os.path.abspath(sys.argv[0])))
config.environment["TIA_TEST_PYTHON"] = config.tia_python
for var in ["PYTHONPATH", "COVERAGE_FILE", "COVERAGE_PROCESS_START", "PYTEST_ADDOPTS"]:
    config.environment.pop(var, None)

# For the scripts in Inputs/.
config.environment["TIA_TEST_CLANG"] = config.clang
config.environment["TIA_TEST_LLVM_TOOLS"] = config.llvm_tools_dir
# Test programs built by Inputs/make-project.sh, shared by the tests that
# build the same inputs (see the script).
config.environment["TIA_TEST_CACHE"] = os.path.join(config.test_exec_root, ".cache", "make-project")
# The compiler's version, part of that cache's key: asked here once, not
# by each of the 93 tests (clang takes 85 ms to start).
config.environment["TIA_TEST_CLANG_VERSION"] = subprocess.run(
    [config.clang, "--version"], capture_output=True, text=True).stdout

# Hostile-input tests run tia under a memory and time bound
# (Inputs/bounded.sh); a sanitizer build keeps only the time bound.
config.substitutions.append(("%bounded", os.path.join(config.test_source_root, "Inputs", "bounded.sh")))
if config.tia_sanitize.upper() in ("ON", "1", "TRUE", "YES"):
    config.environment["TIA_TEST_SANITIZED"] = "1"

# Sanitizer builds: every binary carries its runtime options and
# suppressions (utils/sanitizers/Options.cpp); a caller's ASAN_OPTIONS,
# UBSAN_OPTIONS and LSAN_OPTIONS still reach tia and override them.
for var in ["ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
