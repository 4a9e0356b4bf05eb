// Placeholder until the CLI lands (issue 2).
#include "gigacheck/version.hpp"
#include <cstdio>
int main() { std::printf("gigacheck %s\n", gigacheck::kVersion); return 0; }
