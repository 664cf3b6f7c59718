#include "geomkit/geom.h"
#include <gtest/gtest.h>

TEST(GeomTest, Perimeter) { EXPECT_DOUBLE_EQ(geom::perimeter(2, 3), 10); }

TEST(GeomTest, Scale) { EXPECT_DOUBLE_EQ(geom::scale(2, 3), 6); }
