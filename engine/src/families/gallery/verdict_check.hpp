// A loaded kernel-gallery record's verdict against its status (reduced matmul, transpose).
#pragma once

#include <cstdint>
#include <string>

namespace gigacheck::gallery {

// Refuses (InputError "record: field '<section>.<field>' ...") a status other than ok, failed or
// cancelled, `verified` other than (status == ok), a verified run with wrong elements
// (verifiedButWrong: why, e.g. "is true, but 3 elements are misplaced") and a failed run without
// any. wrongCount: the elements the run's check found wrong, recorded in field wrongField.
void validateVerdict(const std::string& section, const std::string& status, bool verified, std::int64_t wrongCount,
                     const std::string& wrongField, const std::string& verifiedButWrong);

}  // namespace gigacheck::gallery
