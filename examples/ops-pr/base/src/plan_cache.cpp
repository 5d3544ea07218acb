#include <minidnn/Plan.hpp>

#include <string>

namespace minidnn {

Plan buildPlan(const minidnnTensorShape_t& shape) {
    Plan p;
    for (int i = 0; i < shape.rank; ++i) p.key += std::to_string(shape.dims[i]) + "x";
    p.workspace_bytes = 1 << 20;
    return p;
}

}  // namespace minidnn
