#include "io/readers/zip/pickle_imports.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <unordered_map>

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
          return out;
        }
        arg = pickle.substr(at, layout.bytes);
        at += layout.bytes;
        break;
      case Arg::kLength: {
        if (pickle.size() - at < layout.bytes) {
          out.unreadable = "the pickle ends inside an opcode";
          return out;
        }
        const std::uint64_t length = little_endian(pickle.substr(at, layout.bytes));
        at += layout.bytes;
        if (length > pickle.size() - at) {
          out.unreadable = "a value's length runs past the end of the pickle";
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
      return out;
    } else {
      push(std::nullopt);
    }
  }
  out.unreadable = "the pickle has no STOP opcode";
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
