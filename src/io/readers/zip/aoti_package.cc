#include "io/readers/zip/aoti_package.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/rule_catalogue.h"

namespace pt2lint {
namespace {

constexpr std::string_view kAotiDir = "data/aotinductor/";

}  // namespace

bool report_if_aoti_only(const ZipArchive& zip, const std::string& root,
                         std::string_view file_name, LoadContext& context) {
  const std::string aoti_dir = root + std::string(kAotiDir);
  const std::string models_dir = root + "models/";
  std::vector<std::string> models;  // folders under data/aotinductor/, in archive order
  std::size_t libraries = 0;
  for (const auto& m : zip.members()) {
    if (!m.unsafe.empty()) continue;
    const std::string_view name = m.name;
    if (name == "serialized_exported_program.json") return false;
    if (name.starts_with(models_dir) && name.size() > 5 &&
        name.substr(name.size() - 5) == ".json") {
      return false;  // an exported program is there: it is checked as usual
    }
    if (!name.starts_with(aoti_dir)) continue;
    const std::string_view rest = name.substr(aoti_dir.size());
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos || slash == 0) continue;
    const std::string model(rest.substr(0, slash));
    if (std::find(models.begin(), models.end(), model) == models.end()) models.push_back(model);
    if (name.size() > 3 && name.substr(name.size() - 3) == ".so") ++libraries;
  }
  if (models.empty()) return false;

  std::string listed;
  for (std::size_t i = 0; i < models.size() && i < 5; ++i) {
    listed += fmt::format("{}'{}'", i == 0 ? "" : ", ", models[i]);
  }
  if (models.size() > 5) listed += fmt::format(" and {} more", models.size() - 5);
  context.reporter.report(
      kAotinductorPackage, "",
      fmt::format("'{}' is a compiled AOTInductor package (model{} {} under '{}', {} shared "
                  "librar{}) with no exported program in it, so pt2lint checked nothing",
                  file_name, models.size() == 1 ? "" : "s", listed, aoti_dir, libraries,
                  libraries == 1 ? "y" : "ies"),
      aoti_dir, {},
      "pt2lint checks the exported program ('models/<name>.json') that torch.export.save "
      "writes; this package holds only the code AOTInductor compiled from one, which "
      "torch._inductor.aoti_load_package runs as it is");
  return true;
}

}  // namespace pt2lint
