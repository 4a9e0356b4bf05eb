// Writes .npy files byte by byte, as NumPy would and as a broken or lying file would: the tests of
// the reader (engine, CLI, lab) build their inputs here rather than trusting the writer under test.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtEndian>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gigacheck::test {

struct NpySpec {
    std::string descr = "<f8";
    std::string shape = "(2, 3)";  // as Python prints the tuple
    bool fortran = false;
    int major = 1;
    std::string extraKeys;   // appended inside the dict, e.g. "'x': 1, "
    std::string dictOverride;  // when set, the whole dict text instead
};

// Magic, version, length and the padded dict, ending with '\n' on a 64-byte boundary.
inline QByteArray npyHeader(const NpySpec& s)
{
    std::string dict = !s.dictOverride.empty()
                           ? s.dictOverride
                           : "{'descr': '" + s.descr + "', 'fortran_order': " + (s.fortran ? "True" : "False") +
                                 ", 'shape': " + s.shape + ", " + s.extraKeys + "}";
    const std::size_t prefix = s.major == 1 ? 10 : 12;
    const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
    dict.append(total - prefix - dict.size() - 1, ' ');
    dict.push_back('\n');
    QByteArray out("\x93NUMPY", 6);
    out.append(char(s.major));
    out.append(char(0));
    if (s.major == 1) {
        out.append(char(dict.size() & 0xff));
        out.append(char((dict.size() >> 8) & 0xff));
    } else {
        for (int i = 0; i < 4; ++i)
            out.append(char((dict.size() >> (8 * i)) & 0xff));
    }
    return out + QByteArray(dict.data(), qsizetype(dict.size()));
}

// The values in the file's order and byte order, as doubles or floats by `f32`.
inline QByteArray npyValues(const std::vector<double>& values, bool f32, bool bigEndian)
{
    QByteArray out;
    for (double v : values) {
        if (f32) {
            float f = float(v);
            std::uint32_t u;
            std::memcpy(&u, &f, 4);
            u = bigEndian ? qToBigEndian(u) : qToLittleEndian(u);
            out.append(reinterpret_cast<const char*>(&u), 4);
        } else {
            std::uint64_t u;
            std::memcpy(&u, &v, 8);
            u = bigEndian ? qToBigEndian(u) : qToLittleEndian(u);
            out.append(reinterpret_cast<const char*>(&u), 8);
        }
    }
    return out;
}

inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// A well-formed file of a rows x cols matrix whose element (r, c) is value(r, c), stored in the
// order, byte order, type and format version of `spec` (its shape is set from rows and cols).
template <class Value>
QByteArray npyMatrix(NpySpec spec, std::int64_t rows, std::int64_t cols, Value value)
{
    spec.shape = "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
    std::vector<double> values;
    if (spec.fortran) {
        for (std::int64_t c = 0; c < cols; ++c)
            for (std::int64_t r = 0; r < rows; ++r)
                values.push_back(value(r, c));
    } else {
        for (std::int64_t r = 0; r < rows; ++r)
            for (std::int64_t c = 0; c < cols; ++c)
                values.push_back(value(r, c));
    }
    return npyHeader(spec) + npyValues(values, spec.descr[2] == '4', spec.descr[0] == '>');
}

}  // namespace gigacheck::test
