#ifndef GEOMKIT_GEOM_H
#define GEOMKIT_GEOM_H

namespace geom {

/// The area of a W by H rectangle.
double area(double W, double H);

/// The perimeter of a W by H rectangle.
double perimeter(double W, double H);

/// \p V times \p Factor.
double scale(double V, double Factor);

} // namespace geom

#endif // GEOMKIT_GEOM_H
