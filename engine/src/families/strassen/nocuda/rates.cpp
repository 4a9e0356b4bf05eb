// Without CUDA there is no cuBLAS to compare with: the strassen bench says so.
#include "families/strassen/bench/rates.hpp"

namespace gigacheck::strassen {

double cublasGemmSeconds(const Shape&, Precision, bool, int, int)
{
    throw BackendError("bench strassen compares with cuBLAS: this build has no CUDA");
}
double deviceCopyGBs(int) { throw BackendError("bench strassen needs CUDA"); }
double peerCopyGBs(int, int) { throw BackendError("bench multi-gpu-strassen needs CUDA"); }

}  // namespace gigacheck::strassen
