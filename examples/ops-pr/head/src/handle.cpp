#include "handle.hpp"

#include <mutex>

void minidnnHandle::execute(const minidnnTensorShape_t& shape) {
    std::lock_guard<std::mutex> guard(mutex_);
    minidnn::Plan& plan = minidnn::cachedPlan(shape);
    history_.push_back(plan);
}
