// minidnn: a small synthetic deep-learning primitives library (written for this example).
#pragma once

#include <stddef.h>
#include <stdint.h>

#define MINIDNN_EXPORT __attribute__((visibility("default")))

typedef enum {
    MINIDNN_STATUS_SUCCESS = 0,
    MINIDNN_STATUS_BAD_PARAM = 1,
    MINIDNN_STATUS_ALLOC_FAILED = 2,
    MINIDNN_STATUS_INTERNAL_ERROR = 3,
} minidnnStatus_t;

typedef struct {
    int64_t dims[8];
    int32_t rank;
} minidnnTensorShape_t;

typedef struct minidnnHandle* minidnnHandle_t;

MINIDNN_EXPORT minidnnStatus_t minidnnCreate(minidnnHandle_t* handle);
MINIDNN_EXPORT minidnnStatus_t minidnnDestroy(minidnnHandle_t handle);
MINIDNN_EXPORT minidnnStatus_t minidnnExecute(minidnnHandle_t handle, const minidnnTensorShape_t* shape);
