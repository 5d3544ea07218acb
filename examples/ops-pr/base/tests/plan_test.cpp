#include <gtest/gtest.h>

#include <minidnn/Plan.hpp>

TEST(Plan, KeyNamesEveryDimension) {
    minidnnTensorShape_t s{};
    s.rank = 2;
    s.dims[0] = 4;
    s.dims[1] = 8;
    EXPECT_EQ(minidnn::buildPlan(s).key, "4x8x");
}
