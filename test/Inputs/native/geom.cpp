#include "geom.h"

namespace geom {

double area(double W, double H) { return W * H; }

double scale(double V, double F) { return V * F; }

double perimeter(double W, double H) { return 2 * (W + H); }

} // namespace geom
