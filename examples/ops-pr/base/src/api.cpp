#include <minidnn/minidnn.h>

#include "handle.hpp"

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
    handle->execute(*shape);
    return MINIDNN_STATUS_SUCCESS;
}
