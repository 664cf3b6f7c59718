import os
import sys

import pytest

# The build folder: where the module and the program are.
BUILD = os.environ.get(
    "GEOMKIT_BUILD",
    os.path.join(os.path.dirname(__file__), "..", "..", "build"))
sys.path.insert(0, os.path.join(BUILD, "python"))


@pytest.fixture
def geomcli():
    return os.path.join(BUILD, "geomcli")
