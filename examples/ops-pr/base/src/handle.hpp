#pragma once

#include <vector>

#include <minidnn/Plan.hpp>

struct minidnnHandle {
    void execute(const minidnnTensorShape_t& shape);

    std::vector<minidnn::Plan> history_;
};
