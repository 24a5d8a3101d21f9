// The globals a pickle imports, found by walking its opcodes without running any: GLOBAL and
// INST name a module and attribute in their argument; STACK_GLOBAL takes the two strings
// pushed before it; EXT1/2/4 name an entry of copyreg's extension registry. Unpickling
// imports each and may call it, so a global outside what torch.load(weights_only=True)
// allows is code that runs when torch.export.load (weights_only=False) reads the file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pt2lint {

struct PickleImports {
  std::vector<std::string> globals;  // "module.name", in order, each once
  // Why the walk stopped before STOP (an unknown opcode, a cut argument), or empty.
  std::string unreadable;
  // Where the pickle ends (one past its STOP), when it has one.
  std::size_t end = 0;
  // The walk ran off the end of the bytes it was given (not an unknown opcode): more bytes
  // may complete the pickle.
  bool cut = false;
};

PickleImports pickle_imports(std::string_view pickle);

// What torch.load(weights_only=False) unpickles from bytes that are not a zip: the legacy
// torch.save format (torch/serialization.py, _legacy_load), five pickles in a row (the magic
// number, the protocol version, the system info, the object, its storage keys) and then the
// storages' raw bytes. _legacy_load unpickles the first pickle and refuses the bytes ("Invalid
// magic number; corrupt file?") unless it is MAGIC_NUMBER, then the second, refused unless
// 1001. `bytes` may be the first bytes of a larger member (`whole` false).
struct LegacyPickles {
  PickleImports imports;  // the globals of every pickle torch.load unpickles, in order
  // Why torch.load refuses the bytes once it has unpickled what `imports` names, or empty.
  std::string refused;
  // pt2lint cannot tell what torch.load does past `imports` (a first pickle in a form that is
  // not a plain integer, or the pickles run past the bytes given), or empty.
  std::string unknown;
};

LegacyPickles legacy_save_pickles(std::string_view bytes, bool whole);

// Whether torch.load(weights_only=True) of PyTorch 2.11 allows `global` ("module.name")
// by default: tensor and storage rebuilding, dtypes, layouts, devices and a few containers.
bool weights_only_allows(std::string_view global);

}  // namespace pt2lint
