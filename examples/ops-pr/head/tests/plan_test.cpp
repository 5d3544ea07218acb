#include <gtest/gtest.h>

#include <minidnn/Plan.hpp>
#include <minidnn/minidnn.h>

#include <chrono>
#include <fstream>
#include <thread>

TEST(Plan, KeyNamesEveryDimension) {
    minidnnTensorShape_t s{};
    s.rank = 2;
    s.dims[0] = 4;
    s.dims[1] = 8;
    EXPECT_EQ(minidnn::buildPlan(s).key, "4x8x");
}

TEST(Api, ExecuteRejectsNullHandle) {
    EXPECT_EQ(minidnnExecute(nullptr, nullptr), MINIDNN_STATUS_BAD_PARAM);
}

TEST(PlanCache, DISABLED_PersistsAcrossHandles) {
    std::ofstream out("/tmp/minidnn_plans.bin");
    minidnnHandle_t h = nullptr;
    minidnnCreate(&h);
    while (!out.good()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    minidnnDestroy(h);
}
