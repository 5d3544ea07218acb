#include <minidnn/minidnn.h>

#include "handle.hpp"

#include <cstdlib>

extern "C" minidnnStatus_t minidnnCreate(minidnnHandle_t* handle) {
    if (handle == nullptr) return MINIDNN_STATUS_BAD_PARAM;
    *handle = new minidnnHandle();
    return MINIDNN_STATUS_SUCCESS;
}

extern "C" minidnnStatus_t minidnnDestroy(minidnnHandle_t handle) {
    delete handle;
    return MINIDNN_STATUS_SUCCESS;
}

extern "C" minidnnStatus_t minidnnExecute(minidnnHandle_t handle, const minidnnTensorShape_t* shape) {
    if (handle == nullptr || shape == nullptr) return MINIDNN_STATUS_BAD_PARAM;
    try {
        handle->execute(*shape);
    } catch (...) {
        return MINIDNN_STATUS_INTERNAL_ERROR;
    }
    return MINIDNN_STATUS_SUCCESS;
}

extern "C" minidnnStatus_t minidnnClearPlanCache(minidnnHandle_t handle) {
    if (handle == nullptr) std::abort();
    handle->history_.clear();
    return MINIDNN_STATUS_SUCCESS;
}
