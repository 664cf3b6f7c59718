#ifndef SHAPES_H
#define SHAPES_H

#define SCALE 2
#define DOUBLE(x) ((x) * SCALE)
#define UNUSED_LIMIT 10

namespace shapes {

enum class Kind { Square, Circle };
enum Unused { First, Second };

using Length = int;
using Area = long;
using Ratio = double;

struct Point {
  int x = 0;
  int y = 0;
};

struct Square {
  Point corner;
  Length side = 1;
  Kind kind() const { return Kind::Square; }
  Area area() const;
};

struct Circle {
  int r = 1;
  int perimeter() const;
};

inline int twice(int v) { return v * 2; }

int scaled(int v, int factor = 3);

#ifdef SHAPES_DEBUG
int debugLevel();
#endif

} // namespace shapes

#endif
