#include "families/strassen/bench/shared_target_table.hpp"

#include "core/bench_filter.hpp"
#include "core/table.hpp"
#include "families/strassen/bench/shared_target_products.hpp"

#include <string>

namespace gigacheck::strassen {

nlohmann::json printSharedTargetTable(int device, bool quick, std::uint64_t deviceBytes, std::ostream& out,
                                      std::ostream& err)
{
    using bench::fixed;
    nlohmann::json rows = nlohmann::json::array();
    if (!bench::selected("GIGACHECK_BENCH_ATOMICS", "on"))
        return rows;
    out << "\natomics against ordering (msmes product stages, one level of size N: products (N/2)^3 with the\n"
           "multi-target kernel; serial = one stream (the lab's --leaf kernel), ordered = rounds of products with\n"
           "disjoint C blocks on their own streams, atomic = every product at once with atomicAdd (the thesis's),\n"
           "racy = at once without atomics; small-integer inputs, so every correct order is exact: 'exact' = equal\n"
           "to serial bit for bit, 'racy wrong' = cells that lost an update in the racy run; median of 5)\n";
    bench::Table table({"N", "type", "stage", "products", "rounds", "serial ms", "ordered ms", "atomic ms",
                        "atomic/ordered", "exact (ord/atom)", "racy ms", "racy wrong"});
    for (const char* type : {"f32", "f64"}) {
        if (!bench::selected("GIGACHECK_BENCH_TYPES", type))
            continue;
        const Precision precision = std::string(type) == "f64" ? Precision::F64 : Precision::F32;
        for (std::int64_t n = quick ? 1024 : 2048; n <= (quick ? 2048 : 16384); n *= 2) {
            // A, B, C and serial's copy of C.
            if (deviceBytes > 0 && double(4 * n * n) * double(elementSize(precision)) > 0.8 * double(deviceBytes))
                continue;
            std::vector<SharedTargetTiming> stages;
            try {
                stages = measureSharedTargetProducts(device, n, precision, 5);
            } catch (const std::exception& e) {
                table.add({std::to_string(n), type, "-", "failed", e.what()});
                continue;
            }
            for (const SharedTargetTiming& t : stages) {
                err << "bench strassen: atomics " << n << " " << type << " stage " << t.stage << ": ordered "
                    << fixed(t.orderedSeconds * 1e3, 3) << " ms, atomic " << fixed(t.atomicSeconds * 1e3, 3) << " ms\n"
                    << std::flush;
                table.add({std::to_string(n), type, std::to_string(t.stage), std::to_string(t.products),
                           std::to_string(t.rounds), fixed(t.serialSeconds * 1e3, 3), fixed(t.orderedSeconds * 1e3, 3),
                           fixed(t.atomicSeconds * 1e3, 3), fixed(t.atomicSeconds / t.orderedSeconds, 3),
                           std::string(t.orderedExact ? "yes" : "NO") + "/" + (t.atomicExact ? "yes" : "NO"),
                           fixed(t.racySeconds * 1e3, 3), std::to_string(t.racyWrongCells)});
                rows.push_back({{"n", n},
                                {"type", type},
                                {"stage", t.stage},
                                {"products", t.products},
                                {"rounds", t.rounds},
                                {"serial_seconds", t.serialSeconds},
                                {"ordered_seconds", t.orderedSeconds},
                                {"atomic_seconds", t.atomicSeconds},
                                {"racy_seconds", t.racySeconds},
                                {"ordered_exact", t.orderedExact},
                                {"atomic_exact", t.atomicExact},
                                {"racy_wrong_cells", t.racyWrongCells}});
            }
        }
    }
    table.print(out);
    return rows;
}

}  // namespace gigacheck::strassen
