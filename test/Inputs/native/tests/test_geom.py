import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build"))

import _cgeom  # noqa: E402
import _geom  # noqa: E402

CLI = os.path.join(os.path.dirname(__file__), "..", "build", "geomcli")


def test_area():
    assert _geom.area(2, 3) == 6


def test_twice():
    assert _cgeom.twice(4) == 8


def test_cli_scale():
    out = subprocess.run([CLI, "2", "5"], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin"}, check=True)
    assert out.stdout.strip() == "10"


def test_cli_scale_shell():
    out = subprocess.run(CLI + " 3 3", shell=True, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "9"


def test_python_only():
    assert sum([1, 2]) == 3
