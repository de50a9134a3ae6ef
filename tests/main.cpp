// The Catch2 (v2) test runner's main; the tests live in test_*.cpp.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
