import os
import pathlib

DATA = pathlib.Path(__file__).parent.parent / "data"


def test_golden():
    assert (DATA / "golden.txt").read_text() == "expected\n"


def test_other():
    assert open(DATA / "other.txt").read() == "other\n"


def test_listing():
    assert "one.txt" in os.listdir(DATA / "listed")


def test_nothing():
    assert 1 + 1 == 2
