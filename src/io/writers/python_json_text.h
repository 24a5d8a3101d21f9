// Scalars spelled the way Python's json.dumps spells them (ensure_ascii strings, repr floats),
// so that what pt2lint writes reads, byte for byte, like what torch.export.save writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pt2lint {

// A JSON string literal with every byte outside printable ASCII escaped, as ensure_ascii does
// (non-ASCII code points become \uXXXX, astral ones a surrogate pair).
void append_json_string(std::string& out, std::string_view text);

// Python's repr(float): shortest round-trip digits, "1.0" not "1", "1e-05" not "1e-5".
// Non-finite values are the strings "Infinity", "-Infinity" and "NaN" (quoted), which is what
// PyTorch's serializer writes because it dumps with allow_nan=False.
void append_python_float(std::string& out, double value);

void append_int(std::string& out, std::int64_t value);

}  // namespace pt2lint
