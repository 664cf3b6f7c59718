#pragma once
namespace geom {
double area(double W, double H);
double scale(double V, double F);
double perimeter(double W, double H);
} // namespace geom
