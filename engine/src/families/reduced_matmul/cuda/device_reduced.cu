#include "families/reduced_matmul/cuda/device_reduced.hpp"

#include "core/cuda/devices.hpp"

namespace gigacheck::reduced_matmul::device {

bool available(std::string* why) { return !gigacheck::cuda::cudaDevices(why).empty(); }

}  // namespace gigacheck::reduced_matmul::device
