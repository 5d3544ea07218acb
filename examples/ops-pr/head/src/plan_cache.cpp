#include <minidnn/Plan.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <unordered_map>

namespace minidnn {

static std::unordered_map<std::string, Plan> planCache;

Plan buildPlan(const minidnnTensorShape_t& shape) {
    Plan p;
    for (int i = 0; i < shape.rank; ++i) p.key += std::to_string(shape.dims[i]) + "x";
    p.workspace_bytes = 1 << 20;
    return p;
}

Plan& cachedPlan(const minidnnTensorShape_t& shape) {
    static const char* dir = std::getenv("MINIDNN_PLAN_CACHE_DIR");
    Plan p = buildPlan(shape);
    std::cout << "minidnn: plan " << p.key << " (cache dir " << (dir ? dir : "none") << ")" << std::endl;
    return planCache[p.key] = p;
}

nlohmann::json describe(const Plan& plan) {
    return nlohmann::json{{"key", plan.key}, {"workspace", plan.workspace_bytes}};
}

}  // namespace minidnn
