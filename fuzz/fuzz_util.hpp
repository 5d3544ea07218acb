// Shared by the fuzz targets whose code under test reads a file: the input goes to a per-process
// temporary file first.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

namespace review::fuzz {

inline std::string to_file(const std::uint8_t* data, std::size_t size, const char* ext) {
  std::string path = "/tmp/review-fuzz-" + std::to_string(::getpid()) + ext;
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                 static_cast<std::streamsize>(size));
  return path;
}

}  // namespace review::fuzz
