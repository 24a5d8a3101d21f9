#include "io/readers/json/bare_json_loader.h"

#include "io/readers/json/program_json.h"

namespace pt2lint {

bool load_bare_json(const PaddedBytes& json, std::string_view file_name, LoadContext& context,
                    ProgramOutput& out) {
  if (context.options.found_by_folder_walk &&
      !context.json.has_top_level_key(json, {"graph_module", "schema_version"})) {
    return false;
  }
  ir::Program& program = out.add();
  program.set_name(kDefaultProgramName);
  program.set_layout(ir::LAYOUT_BARE_JSON);
  program.set_json_path(std::string(file_name));
  read_program_json(context, json, program);
  return true;
}

}  // namespace pt2lint
