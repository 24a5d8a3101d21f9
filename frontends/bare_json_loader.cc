#include "frontends/bare_json_loader.h"

#include "frontends/program_json.h"

namespace pt2lint {

bool load_bare_json(const PaddedBytes& json, std::string_view file_name, LoadContext& context,
                    std::vector<ir::Program>& out) {
  if (context.options.found_by_folder_walk &&
      !context.json.has_top_level_key(json, {"graph_module", "schema_version"})) {
    return false;
  }
  ir::Program program;
  program.set_name(kDefaultProgramName);
  program.set_layout(ir::LAYOUT_BARE_JSON);
  program.set_json_path(std::string(file_name));
  read_program_json(context, json, program);
  out.push_back(std::move(program));
  return true;
}

}  // namespace pt2lint
