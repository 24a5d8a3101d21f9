#include "io/writers/output_file.h"

#include <fstream>

#include <fmt/format.h>
#include <google/protobuf/text_format.h>

#include "io/writers/program_json_writer.h"
#include "io/writers/pt2_archive_writer.h"
#include "support/atomic_file.h"

namespace pt2lint::lowering {
namespace {


Status write_text_file(const std::filesystem::path& path, const std::string& text) {
  return write_file_atomically(path, text);
}

void replace_config(const ir::StateSource& state, ArchiveEdit& edit) {
  if (state.present() && !state.config_path().empty())
    edit.replaced_members[state.config_path()] = to_pytorch_json(state.config());
}

}  // namespace

Status write_lowered(const std::filesystem::path& input, const std::vector<ir::Program>& programs,
                     const std::filesystem::path& output, OutputFormat format, bool state_renamed) {
  if (programs.empty()) return Status::error("the input holds no program to write");
  const ir::ArchiveLayout layout = programs.front().layout();
  if (format == OutputFormat::kTextproto || layout == ir::LAYOUT_TEXTPROTO) {
    ir::ProgramSet set;
    for (const ir::Program& program : programs) *set.add_programs() = program;
    std::string text;
    if (!google::protobuf::TextFormat::PrintToString(set, &text)) return Status::error("cannot print the IR as textproto");
    return write_text_file(output, text);
  }
  switch (layout) {
    case ir::LAYOUT_BARE_JSON: return write_text_file(output, to_pytorch_json(programs.front().program()));
    case ir::LAYOUT_LEGACY_ZIP:
      if (state_renamed) {
        return Status::error("a legacy archive keeps its state dict pickled (serialized_state_dict.pt), which "
                             "pt2lint cannot rename; re-save the program with torch.export.save first");
      }
      [[fallthrough]];
    case ir::LAYOUT_PT2_ARCHIVE: {
      ArchiveEdit edit;
      for (const ir::Program& program : programs) {
        edit.replaced_members[program.json_path()] = to_pytorch_json(program.program());
        if (state_renamed) {
          replace_config(program.weights(), edit);
          replace_config(program.constants(), edit);
        }
      }
      return write_edited_archive(input, output, edit);
    }
    default: return Status::error("the input's layout is unknown, so it cannot be written back");
  }
}

}  // namespace pt2lint::lowering
