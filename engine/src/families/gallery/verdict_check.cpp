// A gallery record's status and verdict agree (verdict_check.hpp).
#include "families/gallery/verdict_check.hpp"

#include "core/record/record_checks.hpp"

namespace gigacheck::gallery {

void validateVerdict(const std::string& section, const std::string& status, bool verified, std::int64_t wrongCount,
                     const std::string& wrongField, const std::string& verifiedButWrong)
{
    using recordcheck::refuse;
    if (status != "ok" && status != "failed" && status != "cancelled")
        refuse("status", "is '" + status + "', not ok, failed or cancelled");
    if (verified != (status == "ok"))
        refuse(section + ".verified",
               std::string("is ") + (verified ? "true" : "false") + " for a run whose status is '" + status + "'");
    if (verified && wrongCount != 0)
        refuse(section + ".verified", verifiedButWrong);
    if (status == "failed" && wrongCount == 0)
        refuse(section + "." + wrongField, "is 0 for a run whose status is 'failed'");
}

}  // namespace gigacheck::gallery
