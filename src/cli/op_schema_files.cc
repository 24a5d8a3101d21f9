#include "cli/op_schema_files.h"

#include "cli/terminal.h"

namespace pt2lint {

void add_op_schemas_option(CLI::App& command, std::vector<std::string>& files) {
  command.add_option("--op-schemas", files,
                     "file of custom op schemas, one per line (`mylib::f(Tensor(a!) x) -> ()`); repeatable");
}

bool load_op_schema_files(const std::vector<std::string>& files, opschema::SchemaCatalog& catalog) {
  bool ok = true;
  for (const std::string& path : files) {
    for (const std::string& problem : catalog.add_file(path)) {
      print_error(problem);
      ok = false;
    }
  }
  return ok;
}

}  // namespace pt2lint
