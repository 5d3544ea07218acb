#pragma once

#include <mutex>
#include <vector>

#include <minidnn/Plan.hpp>

struct minidnnHandle {
    void execute(const minidnnTensorShape_t& shape);

    std::vector<minidnn::Plan> history_;
    std::mutex mutex_;
};
