def test_pure():
    assert "a" * 2 == "aa"
