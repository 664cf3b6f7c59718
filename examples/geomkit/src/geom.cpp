#include "geomkit/geom.h"

namespace geom {

double area(double W, double H) { return W * H; }

double perimeter(double W, double H) { return 2 * (W + H); }

double scale(double V, double Factor) { return V * Factor; }

} // namespace geom
