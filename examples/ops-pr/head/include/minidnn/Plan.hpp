#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include <minidnn/minidnn.h>

namespace minidnn {

struct Plan {
    std::string key;
    int64_t workspace_bytes = 0;
};

Plan buildPlan(const minidnnTensorShape_t& shape);
Plan& cachedPlan(const minidnnTensorShape_t& shape);
nlohmann::json describe(const Plan& plan);

}  // namespace minidnn
