//===- calc/geometry.h - Plane vectors and clamping -------------*- C++ -*-===//
//
// Two-dimensional vectors with the few operations the rest of calc needs.
//
//===----------------------------------------------------------------------===//

#ifndef CALC_GEOMETRY_H
#define CALC_GEOMETRY_H

namespace calc {

/// A vector (or point) in the plane with double coordinates.
class Vector {
public:
  /// Makes the vector (X, Y).
  Vector(double X, double Y);

  double x() const { return X; }
  double y() const { return Y; }

  /// Component-wise sum.
  Vector operator+(const Vector &Other) const;

  /// Exact component-wise equality (no tolerance).
  bool operator==(const Vector &Other) const;
  bool operator!=(const Vector &Other) const { return !(*this == Other); }

  /// Euclidean length; 0 for the zero vector.
  double length() const;

  /// Dot product with \p Other.
  double dot(const Vector &Other) const;

private:
  double X;
  double Y;
};

/// Returns \p Value limited to [\p Low, \p High]; \p Low must not be greater
/// than \p High.
template <typename T> T clamp(const T &Value, const T &Low, const T &High) {
  if (Value < Low)
    return Low;
  if (High < Value)
    return High;
  return Value;
}

} // namespace calc

#endif // CALC_GEOMETRY_H
