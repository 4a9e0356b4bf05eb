// A kernel-gallery record file read with its family's reader (reduced matmul, transpose).
#pragma once

#include "core/record/envelope_json.hpp"
#include "gigacheck/types.hpp"

#include <string>

namespace gigacheck::gallery {

// fromJson(the file's text); InputError naming the file when it cannot be read or its record is
// refused (the reader's own messages that name it already are kept as they are).
template <class Record> Record loadRecordFile(const std::string& path, Record (*fromJson)(const std::string&))
{
    try {
        return fromJson(recordjson::loadRecordText(path));
    } catch (const InputError& e) {
        const std::string what = e.what();
        throw InputError(what.find(path) != std::string::npos ? what : path + ": " + what);
    }
}

}  // namespace gigacheck::gallery
