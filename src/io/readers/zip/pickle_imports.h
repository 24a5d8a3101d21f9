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
};

PickleImports pickle_imports(std::string_view pickle);

// Whether torch.load(weights_only=True) of PyTorch 2.11 allows `global` ("module.name")
// by default: tensor and storage rebuilding, dtypes, layouts, devices and a few containers.
bool weights_only_allows(std::string_view global);

}  // namespace pt2lint
