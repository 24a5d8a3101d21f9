// The only translation unit that includes toml++: Debian's 3.3 is used header-only
// (TOML_HEADER_ONLY), so its implementation is compiled exactly once, here.
#include "engine/config/config_parser.h"

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0  // parse errors come back as values, with their position
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "support/bounded_file.h"
#include "support/edit_distance.h"
#include "support/http_url.h"
#include "support/printable.h"

namespace pt2lint {
namespace {

// pyproject.toml files of large projects are tens of kB; a config beyond this is not one.
constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{4} << 20;

class Parser {
 public:
  Parser(const std::filesystem::path& file, const RuleRegistry& registry, Config& config)
      : file_(file), registry_(registry), config_(config) {}

  Status parse(const toml::table& settings);

 private:
  Status fail(const toml::node& at, const std::string& message) const {
    const toml::source_position& where = at.source().begin;
    return Status::error(fmt::format("{}:{}:{}: {}", file_.string(), where.line, where.column, message));
  }
  Status check_rule(const toml::node& at, std::string_view selector);
  Status string_list(const toml::node& value, std::string_view key, std::vector<std::string>& out);
  Status parse_severity_table(const toml::node& value);
  Status parse_per_file_ignores(const toml::node& value);
  Status parse_rule_options(const toml::node& value);
  Status parse_op_schemas(const toml::node& value);
  Status glob_list(const toml::node& value, std::string_view key, std::vector<std::string>& out);

  const std::filesystem::path& file_;
  const RuleRegistry& registry_;
  Config& config_;
};

Status Parser::check_rule(const toml::node& at, std::string_view selector) {
  if (!registry_.match(selector).empty()) return {};
  std::string hint = registry_.suggest(selector);
  return fail(at, fmt::format("unknown rule '{}'{}", selector,
                              hint.empty() ? "" : "; did you mean '" + hint + "'?"));
}

Status Parser::string_list(const toml::node& value, std::string_view key,
                         std::vector<std::string>& out) {
  const toml::array* array = value.as_array();
  if (array == nullptr) return fail(value, fmt::format("'{}' must be an array of rule names", key));
  for (const toml::node& item : *array) {
    const auto* text = item.as_string();
    if (text == nullptr) return fail(item, fmt::format("'{}' must hold strings", key));
    if (Status checked = check_rule(item, text->get()); !checked.ok()) return checked;
    out.push_back(text->get());
  }
  return {};
}

Status Parser::parse_severity_table(const toml::node& value) {
  const toml::table* table = value.as_table();
  if (table == nullptr) return fail(value, "'severity' must be a table of rule = \"error|warning|note\"");
  for (const auto& [rule, level] : *table) {
    if (Status checked = check_rule(level, rule.str()); !checked.ok()) return checked;
    const auto* text = level.as_string();
    std::optional<Severity> severity = text ? parse_severity(text->get()) : std::nullopt;
    if (!severity)
      return fail(level, fmt::format("severity of '{}' must be \"error\", \"warning\" or \"note\"", rule.str()));
    config_.severity.emplace_back(std::string(rule.str()), *severity);
  }
  return {};
}

Status Parser::parse_per_file_ignores(const toml::node& value) {
  const toml::table* table = value.as_table();
  if (table == nullptr) return fail(value, "'per-file-ignores' must be a table of \"glob\" = [rules]");
  for (const auto& [pattern, rules] : *table) {
    PerFileIgnore entry{std::string(pattern.str()), {}};
    if (Status checked = string_list(rules, "per-file-ignores", entry.rules); !checked.ok()) return checked;
    config_.per_file_ignores.push_back(std::move(entry));
  }
  return {};
}

Status Parser::parse_rule_options(const toml::node& value) {
  const toml::table* table = value.as_table();
  if (table == nullptr) return fail(value, "'rules' must be a table of [rules.<rule-name>] tables");
  for (const auto& [rule, options] : *table) {
    if (Status checked = check_rule(options, rule.str()); !checked.ok()) return checked;
    const toml::table* option_table = options.as_table();
    if (option_table == nullptr)
      return fail(options, fmt::format("'rules.{}' must be a table of options", rule.str()));
    const RuleInfo* info = registry_.find(rule.str());
    if (info == nullptr)
      return fail(options, fmt::format("'rules.{}' must name one rule, not a prefix", rule.str()));
    auto& parsed = config_.rule_options[std::string(info->name)];
    for (const auto& [key, option] : *option_table) {
      RuleOptionValue converted;
      if (auto v = option.value<bool>(); v && option.is_boolean()) converted = *v;
      else if (option.is_integer()) converted = *option.value<std::int64_t>();
      else if (option.is_floating_point()) converted = *option.value<double>();
      else if (option.is_string()) converted = *option.value<std::string>();
      else if (const toml::array* array = option.as_array()) {
        std::vector<std::string> items;
        for (const toml::node& item : *array) {
          if (!item.is_string()) return fail(item, "rule option arrays must hold strings");
          items.push_back(*item.value<std::string>());
        }
        converted = std::move(items);
      } else {
        return fail(option, fmt::format("option '{}' of rule '{}' must be a boolean, number, "
                                        "string or array of strings", key.str(), rule.str()));
      }
      parsed[std::string(key.str())] = std::move(converted);
    }
  }
  return {};
}

// `op-schemas = ["ops/schemas.txt"]`: custom op schema files, relative to the config's folder.
Status Parser::parse_op_schemas(const toml::node& value) {
  const toml::array* array = value.as_array();
  if (array == nullptr) return fail(value, "'op-schemas' must be an array of file paths");
  for (const toml::node& item : *array) {
    const auto* text = item.as_string();
    if (text == nullptr) return fail(item, "'op-schemas' must hold file paths");
    // A config may come from a pull request: its schema files must be its own files, under
    // its folder, never /proc/self/environ or /dev/zero (read_regular_file refuses devices).
    std::filesystem::path path(text->get());
    const std::filesystem::path folder = file_.parent_path().empty() ? "." : file_.parent_path();
    if (path.is_absolute() || !lies_inside(folder / path, folder)) {
      return fail(item, fmt::format("'op-schemas' names '{}', which is not inside the config's "
                                    "folder; a config may only name schema files under its "
                                    "own folder (pass others with --op-schemas)",
                                    printable_excerpt(text->get(), 200)));
    }
    config_.op_schemas.push_back(folder / path);
  }
  return {};
}

// `exclude = ["legacy/", "*.tmp.pt2"]`: glob patterns, kept as written.
Status Parser::glob_list(const toml::node& value, std::string_view key, std::vector<std::string>& out) {
  const toml::array* array = value.as_array();
  if (array == nullptr) return fail(value, fmt::format("'{}' must be an array of glob patterns", key));
  for (const toml::node& item : *array) {
    const auto* text = item.as_string();
    if (text == nullptr || text->get().empty())
      return fail(item, fmt::format("'{}' must hold non-empty glob patterns", key));
    std::string pattern = text->get();
    while (pattern.size() > 1 && pattern.back() == '/') pattern.pop_back();  // "legacy/"
    out.push_back(std::move(pattern));
  }
  return {};
}

Status Parser::parse(const toml::table& settings) {
  for (const auto& [key, value] : settings) {
    std::string_view name = key.str();
    Status status;
    if (name == "select") {
      config_.select.emplace();
      status = string_list(value, name, *config_.select);
    } else if (name == "extend-select") {
      status = string_list(value, name, config_.extend_select);
    } else if (name == "ignore") {
      status = string_list(value, name, config_.ignore);
    } else if (name == "severity") {
      status = parse_severity_table(value);
    } else if (name == "per-file-ignores") {
      status = parse_per_file_ignores(value);
    } else if (name == "rules") {
      status = parse_rule_options(value);
    } else if (name == "op-schemas") {
      status = parse_op_schemas(value);
    } else if (name == "docs-url") {
      std::optional<std::string> url = value.value<std::string>();
      status = url && !url->empty() ? Status() : fail(value, "docs-url must be a non-empty string (a URL)");
      if (status.ok() && safe_link_target(*url).empty()) {
        status = fail(value, "docs-url must be an http:// or https:// URL without spaces, quotes, "
                         "brackets or parentheses (reports link each rule's page there)");
      }
      if (status.ok()) config_.docs_url = url->back() == '/' ? *url : *url + '/';
    } else if (name == "exclude") {
      status = glob_list(value, name, config_.exclude.emplace());
    } else if (name == "extend-exclude") {
      status = glob_list(value, name, config_.extend_exclude);
    } else if (name == "respect-gitignore") {
      std::optional<bool> respect = value.is_boolean() ? value.value<bool>() : std::nullopt;
      status = respect ? Status() : fail(value, "respect-gitignore must be true or false");
      if (status.ok()) config_.respect_gitignore = *respect;
    } else if (name == "baseline") {
      std::optional<std::string> path = value.value<std::string>();
      status = path && !path->empty() ? Status() : fail(value, "baseline must be a file path");
      if (status.ok()) config_.baseline = std::filesystem::path(*path).is_absolute() ? std::filesystem::path(*path)
                                                                            : file_.parent_path() / *path;
    } else {
      std::vector<std::string_view> keys(std::begin(kConfigKeys), std::end(kConfigKeys));
      std::string hint = closest_match(name, keys);
      status = fail(value, fmt::format("unknown key '{}'{}", name,
                                   hint.empty() ? "" : "; did you mean '" + hint + "'?"));
    }
    if (!status.ok()) return status;
  }
  return {};
}

bool is_pyproject(const std::filesystem::path& file) {
  return file.filename() == "pyproject.toml";
}

}  // namespace

Expected<Config> parse_config(std::string_view text, const std::filesystem::path& file,
                              const RuleRegistry& registry) {
  toml::parse_result parsed = toml::parse(text, file.string());
  if (!parsed) {
    const toml::parse_error& failure = parsed.error();
    return Status::error(fmt::format("{}:{}:{}: {}", file.string(), failure.source().begin.line,
                                     failure.source().begin.column, failure.description()));
  }
  Config config;
  config.file = file;
  config.base_dir = file.parent_path();
  const toml::table& root = parsed.table();
  const toml::table* settings = &root;
  if (is_pyproject(file)) {
    settings = root["tool"]["pt2lint"].as_table();
    if (settings == nullptr) return config;  // nothing for us in this pyproject.toml
  }
  Parser parser(file, registry, config);
  if (Status parsed_settings = parser.parse(*settings); !parsed_settings.ok()) return parsed_settings;
  return config;
}

Expected<Config> load_config(const std::filesystem::path& file, const RuleRegistry& registry) {
  // A config may come from a pull request: a regular file of bounded size, never a FIFO or
  // a device (support/bounded_file.h).
  Expected<std::string> text = read_regular_file(file, kMaxConfigBytes);
  if (!text.ok()) {
    return Status::error(fmt::format("{}: cannot read the config file: {}", file.string(), text.message()));
  }
  return parse_config(text.value(), file, registry);
}

bool pyproject_configures_pt2lint(const std::filesystem::path& pyproject) {
  Expected<std::string> text = read_regular_file(pyproject, kMaxConfigBytes);
  if (!text.ok()) return false;
  toml::parse_result parsed = toml::parse(text.value(), pyproject.string());
  if (!parsed) return true;
  return parsed.table()["tool"]["pt2lint"].is_table();
}

}  // namespace pt2lint
