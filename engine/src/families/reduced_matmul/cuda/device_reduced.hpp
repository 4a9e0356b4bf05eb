// Whether a CUDA device exists, in plain C++ (nocuda/ stands in without nvcc).
#pragma once

#include <string>

namespace gigacheck::reduced_matmul::device {

bool available(std::string* why);

}  // namespace gigacheck::reduced_matmul::device
