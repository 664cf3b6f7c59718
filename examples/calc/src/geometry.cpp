//===- geometry.cpp - Plane vectors ---------------------------------------===//

#include "calc/geometry.h"

#include <cmath>

namespace calc {

Vector::Vector(double X, double Y) : X(X), Y(Y) {}

Vector Vector::operator+(const Vector &Other) const {
  return Vector(X + Other.X, Y + Other.Y);
}

bool Vector::operator==(const Vector &Other) const {
  return X == Other.X && Y == Other.Y;
}

double Vector::length() const { return std::hypot(X, Y); }

double Vector::dot(const Vector &Other) const {
  return X * Other.X + Y * Other.Y;
}

} // namespace calc
