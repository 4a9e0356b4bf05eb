// Seed 003's own figures, for the bench and the gallery view to print and draw beside ours.
#include "gigacheck/reduced_matmul.hpp"

#include <array>

namespace gigacheck::reduced_matmul {

std::span<const SeedFigure> seedFigures()
{
    using V = Variant;
    static const std::array<SeedFigure, 28> figures{{
        {V::Naive4p, 128, 0.120, true},    {V::NaiveP, 128, 0.0448, true}, {V::Tiled8, 128, 0.01707, true},
        {V::Tiled16, 128, 0.01305, true},  {V::Tiled32, 128, 0.01232, true},
        {V::Naive4p, 512, 5.28, true},     {V::NaiveP, 512, 2.01, true},   {V::Tiled8, 512, 0.648, true},
        {V::Tiled16, 512, 0.455, true},    {V::Tiled32, 512, 0.455, true},
        {V::Naive4p, 2048, 365.55, true},  {V::NaiveP, 2048, 145.72, true}, {V::Tiled8, 2048, 45.15, true},
        {V::Tiled16, 2048, 27.4, true},    {V::Tiled32, 2048, 27.4, true},
        {V::Naive4p, 8192, 24940, true},   {V::NaiveP, 8192, 12080, true}, {V::Tiled8, 8192, 4390, true},
        {V::Tiled16, 8192, 1980, true},    {V::Tiled32, 8192, 1810, true},
        {V::Naive4p, 16384, 193030, true}, {V::NaiveP, 16384, 89050, true}, {V::Tiled8, 16384, 42300, true},
        {V::Tiled16, 16384, 16200, true},  {V::Tiled32, 16384, 14250, true},
        {V::Naive4p, 128, 5.80, false},    {V::Naive4p, 512, 630.94, false}, {V::Naive4p, 2048, 47280, false},
    }};
    return figures;
}

}  // namespace gigacheck::reduced_matmul
