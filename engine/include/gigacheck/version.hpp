#pragma once
namespace gigacheck {
inline constexpr const char* kVersion = "0.1.0";
}
