// The points of one ceilings measurement counted off against MeasureProgress (gigacheck/
// measure_progress.hpp): the CPU's and the CUDA module's measurements call next() before each
// point, so a cancel stops them within a stage. Plain C++, header-only: the CUDA module uses it too.
#pragma once

#include "gigacheck/measure_progress.hpp"

#include <string>

namespace gigacheck {

class MeasureSteps {
public:
    MeasureSteps(MeasureProgress* progress, int total) : progress_(progress), total_(total) {}

    // Before a point of `stage`: throws MeasureCancelled when the caller cancelled, else reports it.
    void next(const std::string& stage)
    {
        if (!progress_)
            return;
        if (progress_->cancelled())
            throw MeasureCancelled();
        progress_->stage(stage, done_ < total_ ? done_ : total_, total_);
        ++done_;
    }
    // After the last point: a cancel during it still counts, then "done" with every point.
    void finish()
    {
        if (!progress_)
            return;
        if (progress_->cancelled())
            throw MeasureCancelled();
        progress_->stage("done", total_, total_);
    }

private:
    MeasureProgress* progress_ = nullptr;
    int total_ = 0;
    int done_ = 0;
};

}  // namespace gigacheck
