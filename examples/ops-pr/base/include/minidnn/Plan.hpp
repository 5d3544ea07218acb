#pragma once

#include <cstdint>
#include <string>

#include <minidnn/minidnn.h>

namespace minidnn {

struct Plan {
    std::string key;
    int64_t workspace_bytes = 0;
};

Plan buildPlan(const minidnnTensorShape_t& shape);

}  // namespace minidnn
