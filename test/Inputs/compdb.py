"""Writes a compile_commands.json for the given sources.

    compdb.py OUT_DIR PROJECT_DIR FLAG... -- SOURCE...

Every source (relative to PROJECT_DIR) is compiled from PROJECT_DIR with
clang++ -std=c++17 and the flags.
"""
import json, os, sys

out, project, *rest = sys.argv[1:]
sep = rest.index("--")
flags, sources = rest[:sep], rest[sep + 1:]
entries = [{"directory": project, "file": os.path.join(project, s),
            "arguments": ["clang++", "-std=c++17", *flags, "-c", s]} for s in sources]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "compile_commands.json"), "w") as f:
    json.dump(entries, f, indent=1)
