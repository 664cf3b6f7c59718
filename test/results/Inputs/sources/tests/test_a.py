import pytest
def test_pass(): pass
def test_fail(): assert 1 == 2, "a <b> & c"
@pytest.mark.skip(reason="nope")
def test_skip(): pass
@pytest.mark.parametrize("x", [1, "a b", "c::d"])
def test_param(x): pass
class TestK:
    def test_m(self): pass
    class TestInner:
        def test_n(self): pass
@pytest.fixture
def broken(): raise RuntimeError("fixture")
def test_err(broken): pass
@pytest.mark.xfail
def test_xf(): assert 0
