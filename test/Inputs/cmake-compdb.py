# Writes BUILD/compile_commands.json for the C++ sources of REPO/src and
# REPO/tests as CMake does: each command runs in the build directory, with
# paths relative to it.
#
#   cmake-compdb.py REPO BUILD
import json
import os
import sys

repo, build = sys.argv[1], sys.argv[2]
commands = []
for sub in ("src", "tests"):
    for name in sorted(os.listdir(os.path.join(repo, sub))):
        if name.endswith(".cpp"):
            path = os.path.join(repo, sub, name)
            rel = os.path.relpath(path, build)
            commands.append({
                "directory": build,
                "file": path,
                "arguments": ["clang++", "-std=c++17",
                              "-I" + os.path.relpath(os.path.join(repo, "src"), build),
                              "-c", rel],
            })
with open(os.path.join(build, "compile_commands.json"), "w") as out:
    json.dump(commands, out, indent=1)
