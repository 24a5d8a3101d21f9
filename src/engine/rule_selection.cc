#include "engine/rule_selection.h"

#include "engine/config/config_discovery.h"
#include "engine/config/config_parser.h"

namespace pt2lint {

Status filter_from_config(const std::filesystem::path& config_file, const CommandLineSelection& command_line,
                          const RuleRegistry& registry, Config& config, RuleFilter& filter) {
  if (!config_file.empty()) {
    Expected<Config> loaded = load_config(config_file, registry);
    if (!loaded.ok()) return loaded.status();
    config = std::move(loaded).value();
  }
  Expected<RuleFilter> built = build_rule_filter(config, command_line, registry);
  if (!built.ok()) return built.status();
  filter = std::move(built).value();
  return {};
}

std::vector<std::string> RuleSelection::resolve(const std::vector<DiscoveredFile>& files) {
  filter_of_.clear();
  catalog_of_.clear();
  std::vector<std::string> errors;
  if (sources_.no_config || !sources_.config.empty() || files.empty()) {
    // One config for every file: none, the --config file, or none for no file at all (the
    // command line's --select and --ignore are still validated).
    const std::filesystem::path config =
        sources_.no_config ? std::filesystem::path() : std::filesystem::path(sources_.config);
    select_for_config(config, files.size(), errors);
    return errors;
  }
  for (const DiscoveredFile& file : files) {
    // Files of one folder share their config: look it up once per folder.
    std::filesystem::path folder = file.path.parent_path();
    auto found = found_in_.find(folder);
    if (found == found_in_.end()) found = found_in_.emplace(folder, find_config(file.path)).first;
    if (!select_for_config(found->second.value_or(std::filesystem::path()), 1, errors)) break;
  }
  return errors;
}

bool RuleSelection::select_for_config(const std::filesystem::path& config_file, std::size_t times,
                                      std::vector<std::string>& errors) {
  auto it = filters_.find(config_file);
  if (it == filters_.end()) {
    Config config;
    RuleFilter filter;
    if (Status selected = filter_from_config(config_file, sources_.command_line, registry_, config, filter);
        !selected.ok()) {
      errors.push_back(selected.message());
      return false;
    }
    if (docs_url_.empty()) docs_url_ = config.docs_url;  // the first config that sets it
    it = filters_.emplace(config_file, std::move(filter)).first;
    // --op-schemas files, then the config's `op-schemas`; every bad line is reported.
    std::vector<std::string> schema_files = sources_.op_schemas;
    for (const std::filesystem::path& path : config.op_schemas) schema_files.push_back(path.string());
    opschema::SchemaCatalog& catalog = catalogs_[config_file];
    bool ok = true;
    for (const std::string& path : schema_files) {
      for (std::string& problem : catalog.add_file(path)) {
        errors.push_back(std::move(problem));
        ok = false;
      }
    }
    if (!ok) return false;
  }
  filter_of_.insert(filter_of_.end(), times, &it->second);
  catalog_of_.insert(catalog_of_.end(), times, &catalogs_.at(config_file));
  return true;
}

}  // namespace pt2lint
