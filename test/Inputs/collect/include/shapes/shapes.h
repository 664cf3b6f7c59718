// A small library whose tests tia collects coverage of: a constructor, a
// template, an inline function in a header, and a static initializer.
#pragma once

namespace shapes {

class Square {
public:
  explicit Square(int Side);
  int area() const;

private:
  int Side;
};

template <typename T> T doubled(T Value) { return Value + Value; }

inline int halved(int Value) { return Value / 2; }

/// How many shapes the static initializer registered.
int registeredCount();

/// Called by the test suites' SetUpTestSuite.
int prepare();

} // namespace shapes
