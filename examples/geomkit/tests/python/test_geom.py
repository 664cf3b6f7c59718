import subprocess

import _geom


def test_area():
    assert _geom.area(2, 3) == 6


def test_perimeter():
    assert _geom.perimeter(2, 3) == 10


def test_cli_scale(geomcli):
    out = subprocess.run([geomcli, "2", "5"], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "10"


def test_pure_python():
    assert "-".join(["a", "b"]) == "a-b"
