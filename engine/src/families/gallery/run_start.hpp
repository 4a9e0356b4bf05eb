// The start of a kernel-gallery run (reduced matmul, transpose): the record's envelope and config,
// the backend resolved and the config checked against it, then the backend itself.
#pragma once

#include "core/timestamp.hpp"
#include "gigacheck/backend.hpp"
#include "gigacheck/version.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace gigacheck::gallery {

// Fills rec's envelope (family, tool version, time) and config, and rec.backend ("cpu" / "cuda");
// returns the resolved backend. resolveBackend and checkConfig are the family's own (found in the
// namespace of its Config); checkConfig throws InputError for a request the backend cannot run.
template <class Record, class Config> BackendKind startRecord(Record& rec, const Config& config, std::string_view family)
{
    rec.config = config;
    rec.family = std::string(family);
    rec.toolVersion = kVersion;
    rec.createdAt = nowIso8601();
    const BackendKind kind = resolveBackend(config);
    checkConfig(config, kind);
    rec.backend = kind == BackendKind::Cuda ? "cuda" : "cpu";
    return kind;
}

// The CPU backend, or the CUDA one on `device` (-1: the default); InputError "<what> on CUDA: no
// CUDA device: <why>" when there is none. what: e.g. "transpose variant 'naive'".
std::unique_ptr<Backend> galleryBackend(BackendKind kind, int device, const std::string& what);

}  // namespace gigacheck::gallery
