#!/usr/bin/env python3
"""What `tia collect` costs on Catch2, doctest and Boost.Test binaries,
against running the same binaries without coverage.

  utils/bench/bench-frameworks.py TIA_BUILD [--cases N] [--runs R]

Generates a project beside examples/frameworks' ops library: per framework
one test file of N cases (default 200), each calling an ops function, built
twice with clang 19: with coverage (tia_add_coverage: one binary with tia's
listener, one without) and without (OPS_COVERAGE=OFF, the plain binaries).
Per framework, the CPU time (user + system of every process, the median of
R runs, default 3) of:

  plain, one process      the plain binary running its N cases
  plain, process per case the plain binary once per case, filtered to it
                          (what a ctest test per case runs)
  collect, listener       tia collect of the listener binary: one process,
                          one profile per case, read and stored
  collect, process per case  tia collect of the binary without listener

and the ratios of each collect to the plain run of the same shape. Prints
Markdown (docs/Benchmarks.md).
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

FRAMEWORKS = {
    "catch2": ('#include "ops/ops.h"\n#include <catch2/catch.hpp>\n',
               'TEST_CASE("case {i}") {{ REQUIRE(ops::add({i}, 1) == {j}); }}\n'),
    "doctest": ('#include "ops/ops.h"\n#include <doctest/doctest.h>\n',
                'TEST_CASE("case {i}") {{ CHECK(ops::add({i}, 1) == {j}); }}\n'),
    "boost": ('#include "ops/ops.h"\n#include <boost/test/unit_test.hpp>\n',
              'BOOST_AUTO_TEST_CASE(case_{i}) {{ BOOST_TEST(ops::add({i}, 1) == {j}); }}\n'),
}

CMAKE = """cmake_minimum_required(VERSION 3.20)
project(bench LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
set(CMAKE_BUILD_TYPE Debug)
option(OPS_COVERAGE "" ON)
if(OPS_COVERAGE)
  find_package(tia CONFIG REQUIRED)
else()
  function(tia_add_coverage)
  endfunction()
endif()
find_package(Catch2 2 REQUIRED)
find_package(doctest REQUIRED)
find_package(Boost 1.74 REQUIRED COMPONENTS unit_test_framework)
enable_testing()
add_library(ops STATIC src/ops.cpp)
target_include_directories(ops PUBLIC include)
tia_add_coverage(ops)
add_library(catch2_main STATIC tests/catch2_main.cpp)
target_link_libraries(catch2_main PUBLIC Catch2::Catch2)
add_library(doctest_main STATIC tests/doctest_main.cpp)
target_link_libraries(doctest_main PUBLIC doctest::doctest)
add_library(boost_main STATIC tests/boost_main.cpp)
target_link_libraries(boost_main PUBLIC Boost::unit_test_framework)
target_compile_definitions(boost_main PUBLIC BOOST_TEST_DYN_LINK)
foreach(fw catch2 doctest boost)
  add_executable(${fw}_listener gen_${fw}.cpp)
  target_link_libraries(${fw}_listener PRIVATE ops ${fw}_main)
  tia_add_coverage(${fw}_listener FRAMEWORK ${fw})
  add_test(NAME ${fw}_listener COMMAND ${fw}_listener)
  add_executable(${fw}_process gen_${fw}.cpp)
  target_link_libraries(${fw}_process PRIVATE ops ${fw}_main)
  tia_add_coverage(${fw}_process NO_LISTENER)
  add_test(NAME ${fw}_process COMMAND ${fw}_process)
endforeach()
"""


def cpu_seconds(cmd, cwd, env=None):
    """User + system CPU seconds of \\p cmd and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                 before.ru_stime)


def case_filter(fw, i):
    if fw == "catch2":
        return [f"case {i}"]
    if fw == "doctest":
        return [f"--test-case=case {i}"]
    return [f"--run_test=case_{i}"]


def make_project(work, cases):
    shutil.copytree(os.path.join(ROOT, "examples", "frameworks"), work)
    with open(os.path.join(work, "CMakeLists.txt"), "w") as f:
        f.write(CMAKE)
    for fw, (head, case) in FRAMEWORKS.items():
        with open(os.path.join(work, f"gen_{fw}.cpp"), "w") as f:
            f.write(head)
            for i in range(cases):
                f.write(case.format(i=i, j=i + 1))
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@invalid"]
    subprocess.run(git + ["init", "-q"], cwd=work, check=True)
    subprocess.run(git + ["add", "-A"], cwd=work, check=True)
    subprocess.run(git + ["commit", "-qm", "bench"], cwd=work, check=True)


def build(work, name, tia_build, coverage):
    subprocess.run(["cmake", "-G", "Ninja", "-S", work, "-B",
                    os.path.join(work, name), "-DCMAKE_CXX_COMPILER=clang++-19",
                    f"-DOPS_COVERAGE={'ON' if coverage else 'OFF'}",
                    f"-Dtia_DIR={tia_build}/cmake/tia"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", os.path.join(work, name), "-j2"],
                   check=True, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tia_build")
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tia_build = os.path.abspath(args.tia_build)
    tia = os.path.join(tia_build, "tools", "tia", "tia")
    tmp = tempfile.mkdtemp(prefix="tia-bench-frameworks.")
    work = os.path.join(tmp, "project")
    try:
        make_project(work, args.cases)
        build(work, "build-cov", tia_build, True)
        build(work, "build-plain", tia_build, False)
        index = os.path.join(tmp, "index.db")
        subprocess.run([tia, "-q", "--db", index, "index", "-p", "build-cov"],
                       cwd=work, check=True)
        # The coverage runs write their profiles away from the project.
        env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(tmp, "%p.profraw"))
        plain = os.path.join(work, "build-plain")

        def collect(only):
            db = os.path.join(tmp, "collect.db")
            shutil.copy(index, db)
            return cpu_seconds([tia, "-q", "--db", db, "collect", "-p",
                                "build-cov", "--jobs", "1", "--only", only],
                               work, env)

        print(f"| framework | cases | plain, one process | collect, listener "
              f"(vs plain) | plain, process per case | collect, process per "
              f"case (vs plain) |")
        print("|---|---|---|---|---|---|")
        for fw in FRAMEWORKS:
            binary = os.path.join(plain, f"{fw}_listener")
            one = statistics.median(cpu_seconds([binary], plain)
                                    for _ in range(args.runs))
            each = statistics.median(
                sum(cpu_seconds([binary] + case_filter(fw, i), plain)
                    for i in range(args.cases)) for _ in range(args.runs))
            listener = statistics.median(collect(f"{fw}:{fw}_listener:*")
                                         for _ in range(args.runs))
            process = statistics.median(collect(f"{fw}:{fw}_process:*")
                                        for _ in range(args.runs))
            print(f"| {fw} | {args.cases} | {one:.3f} s | {listener:.3f} s "
                  f"({listener / one:.1f}x) | {each:.3f} s | {process:.3f} s "
                  f"({process / each:.2f}x) |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
