// Your own matrices for gigacheck run (run_inputs.hpp).
#include "families/cli/run/run_inputs.hpp"

#include "gigacheck/npy.hpp"
#include "gigacheck/operands.hpp"

#include <ostream>
#include <stdexcept>

namespace gigacheck::run_verb {

namespace {

}  // namespace

GivenOperands loadGivenOperands(RunOptions& options)
{
    GivenOperands given;
    if (options.loadA.empty())
        return given;
    given.a = readNpy(options.loadA);
    given.b = readNpy(options.loadB);
    Shape shape;
    try {
        shape = shapeOfOperands(given.a, given.b);
    } catch (const InputError& e) {
        throw InputError("--load-a " + options.loadA + " --load-b " + options.loadB + ": " + e.what());
    }
    requireFinite(given.a, options.loadA);
    requireFinite(given.b, options.loadB);
    RunConfig& c = options.config;
    if (options.shapeGiven && !(c.shape == shape))
        throw InputError("--shape " + shapeText(c.shape) + " disagrees with the files, which make a " +
                         shapeText(shape) + " product; leave --shape out (it follows from the files)");
    c.shape = shape;
    if (!options.typeGiven)
        c.precision = given.a.precision() == Precision::F32 && given.b.precision() == Precision::F32 ? Precision::F32
                                                                                                     : Precision::F64;
    return given;
}

std::vector<InputMatrix> inputsOf(const RunOptions& options)
{
    if (options.loadA.empty())
        return {};
    return {inputMatrixOfFile("A", options.loadA), inputMatrixOfFile("B", options.loadB)};
}

bool saveResult(const RunOptions& options, const HostMatrix& c, const std::string& status, std::ostream& out)
{
    if (options.saveC.empty())
        return true;
    if (status != "ok")
        return false;  // the caller's closing line says so (one line per ending)
    if (c.empty())
        throw std::logic_error("the run ended without its C; " + options.saveC + " not written");
    writeNpy(c, options.saveC);
    if (!options.quiet)
        out << "C written to " << options.saveC << " (" << c.rows() << " x " << c.cols() << ", "
                  << (c.precision() == Precision::F32 ? "float32" : "float64") << ")\n";
    return true;
}

}  // namespace gigacheck::run_verb
