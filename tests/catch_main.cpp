// The one Catch2 main shared by every test binary (Catch2 v3 brings its own).
#ifndef REVIEW_CATCH3
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
