// Which rules run on each checked file, and with which custom op schemas: the config that
// governs the file (found next to it, or given), merged with the command line's selection.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/opschema/schema_catalog.h"
#include "core/rule_filter.h"
#include "core/rule_registry.h"
#include "engine/config/config.h"
#include "engine/config/config_filter.h"
#include "engine/file_discovery.h"

namespace pt2lint {

// Where the rule selection of a run comes from, lowest precedence first.
struct RuleSources {
  std::string config;      // --config FILE: this config for every file, instead of a search
  bool no_config = false;  // --no-config: no config at all
  CommandLineSelection command_line;  // --select, --ignore, --extend-select
  std::vector<std::string> op_schemas;  // --op-schemas files, read before each config's own
};

// Loads `config_file` ("" for none) into `config` and merges it with `command_line` into
// `filter`. Fails on a bad config or selector. `pt2lint graph` uses this alone, so that its
// finding numbers agree with `check`.
Status filter_from_config(const std::filesystem::path& config_file, const CommandLineSelection& command_line,
                          const RuleRegistry& registry, Config& config, RuleFilter& filter);

// The rule filter and op schemas of every checked file. Each distinct config is read once
// and its filter and catalogue are shared by the files it governs.
class RuleSelection {
 public:
  RuleSelection(const RuleRegistry& registry, const RuleSources& sources)
      : registry_(registry), sources_(sources) {}

  // Fills filters() and catalogs() with one entry per file. Every reason it cannot (a
  // config, a selector or an op schema file is invalid), one message each; empty on success.
  [[nodiscard]] std::vector<std::string> resolve(const std::vector<DiscoveredFile>& files);

  // Per file, in the order resolve() saw them; they live as long as this object.
  const std::vector<const RuleFilter*>& filters() const { return filter_of_; }
  const std::vector<const opschema::SchemaCatalog*>& catalogs() const { return catalog_of_; }
  const std::string& docs_url() const { return docs_url_; }

 private:
  bool select_for_config(const std::filesystem::path& config_file, std::size_t times,
                         std::vector<std::string>& errors);

  const RuleRegistry& registry_;
  const RuleSources& sources_;
  std::map<std::filesystem::path, std::optional<std::filesystem::path>> found_in_;
  std::map<std::filesystem::path, RuleFilter> filters_;                // node-based: stable
  std::map<std::filesystem::path, opschema::SchemaCatalog> catalogs_;  // node-based: stable
  std::vector<const RuleFilter*> filter_of_;
  std::vector<const opschema::SchemaCatalog*> catalog_of_;
  std::string docs_url_;
};

}  // namespace pt2lint
