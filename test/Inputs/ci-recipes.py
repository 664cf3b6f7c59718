#!/usr/bin/env python3
"""Runs the sharded pipelines of docs/CI.md in the current directory, one
job after another, as the CI system would fan them out: the GitHub Actions
matrix (the steps named "tia ...") or the GitLab `parallel:` jobs (those
whose script runs tia). What CI does around them (checkout, artifacts,
caches) is one shared directory here.

    ci-recipes.py CI.md github|gitlab [FROM=TO...]

Each FROM=TO replaces text in the commands (a pytest project's `collect
--pytest` for the recipes' `collect -p build`). Prints "== JOB K/N: STEP"
before each command list; stops at the first that fails.
"""
import os
import re
import subprocess
import sys

import yaml


def yaml_blocks(markdown):
    return [yaml.safe_load(b) for b in
            re.findall(r"```yaml\n(.*?)```", markdown, re.S)]


def pick(blocks, needle):
    for b in blocks:
        if needle(b):
            return b
    sys.exit("no such pipeline in the document")


def run(script, env, replacements, title):
    for r in replacements:
        old, new = r.split("=", 1)
        script = script.replace(old, new)
    print("== " + title, flush=True)
    subprocess.run(["bash", "-euo", "pipefail", "-c", script],
                   env={**os.environ, **env}, check=True)


def github(blocks, replacements):
    flow = pick(blocks, lambda b: isinstance(b, dict) and "jobs" in b
                and "merge-index" in b["jobs"])
    base = {k: str(v) for k, v in flow.get("env", {}).items()}
    for name, job in flow["jobs"].items():
        shards = job.get("strategy", {}).get("matrix", {}).get("shard", [1])
        for k in shards:
            for step in job["steps"]:
                if not step.get("name", "").startswith("tia "):
                    continue
                script = step["run"].replace("${{ matrix.shard }}", str(k))
                run(script, base, replacements,
                    f"{name} {k}/{len(shards)}: {step['name']}")


def gitlab(blocks, replacements):
    flow = pick(blocks, lambda b: isinstance(b, dict) and "merge-index" in b
                and "stages" in b)
    base = {k: str(v) for k, v in flow.get("variables", {}).items()}
    for stage in flow["stages"]:
        for name, job in flow.items():
            if not isinstance(job, dict) or job.get("stage") != stage:
                continue
            script = "\n".join(job["script"])
            if "tia " not in script:
                continue
            n = int(job.get("parallel", 1))
            for k in range(1, n + 1):
                env = dict(base, CI_NODE_INDEX=str(k), CI_NODE_TOTAL=str(n))
                run(script, env, replacements, f"{name} {k}/{n}")


def main():
    doc, system, replacements = sys.argv[1], sys.argv[2], sys.argv[3:]
    blocks = yaml_blocks(open(doc).read())
    {"github": github, "gitlab": gitlab}[system](blocks, replacements)


if __name__ == "__main__":
    main()
