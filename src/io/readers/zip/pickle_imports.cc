#include "io/readers/zip/pickle_imports.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>


namespace pt2lint {
namespace {

// How an opcode's argument is laid out.
enum class Arg { kNone, kFixed, kLength, kLine, kTwoLines, kUnknown };

struct Layout {
  Arg arg = Arg::kUnknown;
  std::size_t bytes = 0;  // kFixed: the argument's size; kLength: the size of the length field
};

Layout layout_of(unsigned char op) {
  switch (op) {
    // No argument.
    case '(': case '.': case '0': case '1': case '2': case 'N': case 'R': case 'a': case 'b':
    case 'd': case '}': case 'e': case 'l': case ']': case 'o': case 's': case 't': case ')':
    case 'u': case 0x81: case 0x85: case 0x86: case 0x87: case 0x88: case 0x89: case 'Q':
    case 0x8f: case 0x90: case 0x91: case 0x92: case 0x93: case 0x94: case 0x97: case 0x98:
      return {Arg::kNone};
    case 'K': case 'h': case 'q': case 0x82: case 0x80: return {Arg::kFixed, 1};
    case 'M': case 0x83: return {Arg::kFixed, 2};
    case 'J': case 'j': case 'r': case 0x84: return {Arg::kFixed, 4};
    case 'G': case 0x95: return {Arg::kFixed, 8};
    case 'C': case 'U': case 0x8c: case 0x8a: return {Arg::kLength, 1};
    case 'T': case 'X': case 'B': case 0x8b: return {Arg::kLength, 4};
    case 0x8d: case 0x8e: case 0x96: return {Arg::kLength, 8};
    case 'I': case 'L': case 'F': case 'S': case 'V': case 'p': case 'g': case 'P':
      return {Arg::kLine};
    case 'c': case 'i': return {Arg::kTwoLines};
    default: return {};
  }
}

std::uint64_t little_endian(std::string_view bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) {
    value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  }
  return value;
}

bool is_string_push(unsigned char op) {
  return op == 0x8c || op == 'X' || op == 0x8d || op == 'V' || op == 'U' || op == 'T' ||
         op == 'S';
}

}  // namespace

PickleImports pickle_imports(std::string_view pickle) {
  PickleImports out;
  const auto add = [&](std::string global) {
    if (std::find(out.globals.begin(), out.globals.end(), global) == out.globals.end()) {
      out.globals.push_back(std::move(global));
    }
  };
  // The two values pushed last, when they are strings (what STACK_GLOBAL takes), and the
  // memo of string values (BINGET of a memoized module name).
  std::optional<std::string> last, before_last;
  std::unordered_map<std::uint64_t, std::string> memo;
  std::uint64_t next_memo = 0;
  const auto push = [&](std::optional<std::string> value) {
    before_last = std::move(last);
    last = std::move(value);
  };
  std::size_t at = 0;
  while (at < pickle.size()) {
    const auto op = static_cast<unsigned char>(pickle[at++]);
    const Layout layout = layout_of(op);
    std::string_view arg;
    switch (layout.arg) {
      case Arg::kUnknown:
        out.unreadable = fmt::format("unknown opcode {:#04x} at byte {}", op, at - 1);
        return out;
      case Arg::kNone: break;
      case Arg::kFixed:
        if (pickle.size() - at < layout.bytes) {
          out.unreadable = "the pickle ends inside an opcode";
          out.cut = true;
          return out;
        }
        arg = pickle.substr(at, layout.bytes);
        at += layout.bytes;
        break;
      case Arg::kLength: {
        if (pickle.size() - at < layout.bytes) {
          out.unreadable = "the pickle ends inside an opcode";
          out.cut = true;
          return out;
        }
        const std::uint64_t length = little_endian(pickle.substr(at, layout.bytes));
        at += layout.bytes;
        if (length > pickle.size() - at) {
          out.unreadable = "a value's length runs past the end of the pickle";
          out.cut = true;
          return out;
        }
        arg = pickle.substr(at, static_cast<std::size_t>(length));
        at += static_cast<std::size_t>(length);
        break;
      }
      case Arg::kLine:
      case Arg::kTwoLines: {
        std::size_t end = pickle.find('\n', at);
        if (end != std::string_view::npos && layout.arg == Arg::kTwoLines) {
          end = pickle.find('\n', end + 1);
        }
        if (end == std::string_view::npos) {
          out.unreadable = "the pickle ends inside an opcode";
          out.cut = true;
          return out;
        }
        arg = pickle.substr(at, end - at);
        at = end + 1;
        break;
      }
    }
    if (op == 'c' || op == 'i') {
      const std::size_t newline = arg.find('\n');
      add(std::string(arg.substr(0, newline)) + "." + std::string(arg.substr(newline + 1)));
      push(std::nullopt);
    } else if (op == 0x93) {
      add(last && before_last ? *before_last + "." + *last
                              : std::string("(a global whose name pt2lint cannot tell)"));
      push(std::nullopt);
    } else if (op == 0x82 || op == 0x83 || op == 0x84) {
      add(fmt::format("(copyreg extension code {})", little_endian(arg)));
      push(std::nullopt);
    } else if (is_string_push(op)) {
      // Protocol 0 strings keep their quotes; names are plain ASCII either way.
      std::string_view text = arg;
      if ((op == 'S') && text.size() >= 2) text = text.substr(1, text.size() - 2);
      push(std::string(text));
    } else if (op == 0x94) {
      if (last) memo[next_memo] = *last;
      ++next_memo;
    } else if (op == 'q' || op == 'r' || op == 'p') {
      const std::uint64_t index =
          op == 'p' ? std::strtoull(std::string(arg).c_str(), nullptr, 10) : little_endian(arg);
      if (last) memo[index] = *last;
    } else if (op == 'h' || op == 'j' || op == 'g') {
      const std::uint64_t index =
          op == 'g' ? std::strtoull(std::string(arg).c_str(), nullptr, 10) : little_endian(arg);
      const auto it = memo.find(index);
      push(it == memo.end() ? std::nullopt : std::optional<std::string>(it->second));
    } else if (op == 0x95 || op == 0x80) {
      // FRAME and PROTO change nothing on the stack.
    } else if (op == '.') {
      out.end = at;
      return out;
    } else {
      push(std::nullopt);
    }
  }
  out.unreadable = "the pickle has no STOP opcode";
  out.cut = true;
  return out;
}

namespace {

// The integer a pickle of one plain integer holds, as decimal digits, or nullopt for any other
// pickle: [PROTO] [FRAME] one of INT, LONG, BININT, BININT1, BININT2, LONG1, LONG4, then any
// memo puts, then STOP, which is how pickle writes an int (torch.save: protocol 2, LONG1 for
// the magic number, BININT2 for the protocol version).
std::optional<std::string> plain_integer(std::string_view pickle) {
  std::size_t at = 0;
  const auto take = [&](std::size_t n) -> std::optional<std::string_view> {
    if (pickle.size() - at < n) return std::nullopt;
    const std::string_view bytes = pickle.substr(at, n);
    at += n;
    return bytes;
  };
  const auto line = [&]() -> std::optional<std::string_view> {
    const std::size_t end = pickle.find('\n', at);
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view text = pickle.substr(at, end - at);
    at = end + 1;
    return text;
  };
  // Little-endian two's complement bytes as decimal digits (negative: nullopt, never torch's).
  const auto decimal = [](std::string_view le) -> std::optional<std::string> {
    if (!le.empty() && (static_cast<unsigned char>(le.back()) & 0x80)) return std::string("-");  // negative
    std::vector<unsigned> digits{0};  // little-endian base 10
    for (std::size_t i = le.size(); i-- > 0;) {
      unsigned carry = static_cast<unsigned char>(le[i]);
      for (unsigned& d : digits) {
        const unsigned v = d * 256 + carry;
        d = v % 10;
        carry = v / 10;
      }
      for (; carry; carry /= 10) digits.push_back(carry % 10);
    }
    std::string out;
    for (std::size_t i = digits.size(); i-- > 0;) out += static_cast<char>('0' + digits[i]);
    return out;
  };
  const auto canonical = [](std::string_view text) -> std::optional<std::string> {
    if (!text.empty() && text.back() == 'L') text.remove_suffix(1);
    if (!text.empty() && text.front() == '-') return std::string("-");  // negative: never torch's
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    const std::size_t first = text.find_first_not_of('0');
    return std::string(first == std::string_view::npos ? "0" : text.substr(first));
  };
  if (at < pickle.size() && static_cast<unsigned char>(pickle[at]) == 0x80 && !take(2)) return std::nullopt;
  if (at < pickle.size() && static_cast<unsigned char>(pickle[at]) == 0x95 && !take(9)) return std::nullopt;
  if (at >= pickle.size()) return std::nullopt;
  const auto op = static_cast<unsigned char>(pickle[at++]);
  std::optional<std::string> value;
  if (op == 'I' || op == 'L') {
    const auto text = line();
    if (!text || (op == 'I' && (*text == "00" || *text == "01"))) return std::nullopt;  // False, True
    value = canonical(*text);
  } else if (op == 'J' || op == 'K' || op == 'M') {
    const auto bytes = take(op == 'J' ? 4 : op == 'K' ? 1 : 2);
    if (!bytes) return std::nullopt;
    value = op == 'J' ? decimal(*bytes) : decimal(std::string(*bytes) + '\0');
  } else if (op == 0x8a || op == 0x8b) {
    const auto size = take(op == 0x8a ? 1 : 4);
    if (!size) return std::nullopt;
    const auto bytes = take(static_cast<std::size_t>(little_endian(*size)));
    if (!bytes) return std::nullopt;
    value = bytes->empty() ? std::optional<std::string>("0") : decimal(*bytes);
  }
  if (!value) return std::nullopt;
  while (at < pickle.size()) {
    const auto next = static_cast<unsigned char>(pickle[at++]);
    if (next == '.') return value;
    if (next == 0x94) continue;
    if ((next == 'q' && take(1)) || (next == 'r' && take(4)) || (next == 'p' && line())) continue;
    return std::nullopt;
  }
  return std::nullopt;
}

constexpr std::string_view kLegacyMagicNumber = "119547037146038801333356";  // 0x1950A86A20F9469CFC6C
constexpr std::string_view kLegacyProtocolVersion = "1001";

}  // namespace

LegacyPickles legacy_save_pickles(std::string_view bytes, bool whole) {
  LegacyPickles out;
  static constexpr const char* kWhat[] = {"magic number", "protocol version", "system info", "object",
                                          "storage keys"};
  std::size_t at = 0;
  for (int i = 0; i < 5; ++i) {
    const std::string_view pickle = bytes.substr(at);
    PickleImports one = pickle_imports(pickle);
    for (std::string& global : one.globals) {
      if (std::find(out.imports.globals.begin(), out.imports.globals.end(), global) == out.imports.globals.end()) {
        out.imports.globals.push_back(std::move(global));
      }
    }
    if (!one.unreadable.empty()) {
      if (one.cut && !whole) {
        out.unknown = fmt::format("its {} pickle runs past the first {} bytes pt2lint read", kWhat[i], bytes.size());
      } else {
        out.imports.unreadable = one.unreadable;
        out.refused = i == 0 ? fmt::format("it is neither a zip nor a pickle the unpickler reads ({})", one.unreadable)
                             : fmt::format("its {} pickle, at byte {}, cannot be unpickled ({})", kWhat[i], at,
                                           one.unreadable);
      }
      return out;
    }
    if (i < 2) {
      const std::optional<std::string> value = plain_integer(pickle.substr(0, one.end));
      if (!value) {
        out.unknown = fmt::format("its {} pickle is not a plain integer in a form pt2lint knows, so pt2lint "
                                  "cannot tell whether torch.load accepts it",
                                  kWhat[i]);
        return out;
      }
      const std::string_view want = i == 0 ? kLegacyMagicNumber : kLegacyProtocolVersion;
      if (*value != want) {
        const std::string shown = *value == "-" ? "a negative integer"
                                  : value->size() > 40 ? value->substr(0, 40) + "..." : *value;
        out.refused = i == 0 ? fmt::format("it is neither a zip nor torch.save's legacy format: its first pickle "
                                           "is {}, not the magic number (\"Invalid magic number; corrupt file?\")",
                                           shown)
                             : fmt::format("its protocol version pickle is {}, not 1001 (\"Invalid protocol "
                                           "version\")",
                                           shown);
        return out;
      }
    }
    at += one.end;
  }
  return out;
}

bool weights_only_allows(std::string_view global) {
  const std::size_t dot = global.rfind('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view module = global.substr(0, dot);
  const std::string_view name = global.substr(dot + 1);
  const auto one_of = [&](std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (module == "torch._utils") return name.substr(0, 9) == "_rebuild_";
  if (module == "torch._tensor") return name == "_rebuild_from_type_v2";
  if (module == "torch.nn.parameter") return name == "Parameter";
  if (module == "torch.serialization") return name == "_get_layout";
  if (module == "collections") return one_of({"OrderedDict", "Counter"});
  if (module == "_codecs") return name == "encode";
  if (module == "builtins" || module == "__builtin__") {
    return one_of({"set", "frozenset", "bytearray", "slice", "complex"});
  }
  if (module != "torch") return false;
  if (name.size() > 7 && name.substr(name.size() - 7) == "Storage") return true;
  if (name.substr(0, 6) == "float8" || name.substr(0, 4) == "uint" || name.substr(0, 3) == "int") {
    return name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string_view::npos;
  }
  return one_of({"float32", "float", "float64", "double", "float16", "half", "bfloat16",
                 "complex32", "complex64", "complex128", "cfloat", "cdouble", "chalf", "bool",
                 "long", "short", "qint8", "quint8", "qint32", "quint4x2", "quint2x4",
                 "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc",
                 "_mkldnn", "contiguous_format", "channels_last", "channels_last_3d",
                 "preserve_format", "device", "Size", "Tensor", "per_tensor_affine",
                 "per_channel_affine", "per_tensor_symmetric", "per_channel_symmetric",
                 "per_channel_affine_float_qparams"});
}

}  // namespace pt2lint
