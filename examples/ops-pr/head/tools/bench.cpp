#include <minidnn/minidnn.h>

#include <cstdio>

int main() {
    minidnnHandle_t h = nullptr;
    minidnnCreate(&h);
    minidnnTensorShape_t s{};
    s.rank = 1;
    s.dims[0] = 1024;
    for (int i = 0; i < 100; ++i) minidnnExecute(h, &s);
    std::printf("done\n");
    minidnnDestroy(h);
    return 0;
}
