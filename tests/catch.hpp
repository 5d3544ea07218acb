// Catch2 v2 (Debian 12) / v3 (Ubuntu 24.04) compatibility: include this, never Catch2 directly.
#pragma once
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
