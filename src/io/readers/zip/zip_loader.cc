#include "io/readers/zip/zip_loader.h"

#include <fmt/format.h>

#include "io/readers/zip/aoti_package.h"
#include "io/readers/zip/archive_integrity.h"
#include "io/readers/zip/legacy_zip_loader.h"
#include "core/rule_catalogue.h"
#include "io/readers/zip/pt2_archive_loader.h"

namespace pt2lint {
namespace {

constexpr std::string_view kLegacyProgramMember = "serialized_exported_program.json";

// One finding for a damaged archive (false: stop, nothing else can be trusted) and one
// for overlapping members (loading goes on: PyTorch's reader does not check overlap).
bool report_layout(const ZipArchive& zip, LoadContext& context) {
  const ArchiveLayoutReport layout = check_archive_layout(zip);
  // One finding about the first member with the problem: `headline` names it, then says
  // `what` is wrong and how many more members are like it.
  const auto report = [&](const RuleInfo& rule, const ArchiveLayoutProblem& p,
                          std::string_view headline, std::string note) {
    const std::string others = p.members <= 1 ? std::string()
                                              : fmt::format(" ({} more member{} too)", p.members - 1,
                                                            p.members == 2 ? "" : "s");
    context.reporter.report(rule, "",
                            fmt::format("{}{}{}", fmt::format(fmt::runtime(headline), p.member->name),
                                        p.what, others),
                            p.member->name, {}, std::move(note));
  };
  if (layout.damage.member != nullptr) {
    report(kMalformedProgram, layout.damage,
           "the archive is damaged: member '{}' cannot be read, because ",
           "torch.export.load refuses such an archive (measured with PyTorch 2.11, "
           "docs/device-measurements.md), so pt2lint checked nothing in it. Write the file again "
           "with torch.export.save, or copy it whole: a truncated or spliced copy leaves this");
    return false;
  }
  if (layout.oddity.member != nullptr) {
    report(kSuspiciousArchiveLayout, layout.oddity, "archive member '{}' has a central-directory "
           "record torch.export.save never writes: ",
           "PyTorch's reader loads the file; Python's zipfile, unzip and other tools may refuse "
           "it or read it differently. Rewrite the file with torch.export.save");
  }
  if (layout.overlap.member != nullptr) {
    report(kSuspiciousArchiveLayout, layout.overlap, "archive member '{}' shares bytes with another: ",
           "torch.export.save never writes overlapping members; overlap is how zip bombs make a "
           "small file expand to gigabytes. PyTorch's zip reader does not check for it, and "
           "whether the file loads depends on the bytes each member then holds; rewrite it with "
           "torch.export.save");
  }
  return true;
}

}  // namespace

void load_zip(const ZipArchive& zip, std::string_view file_name, LoadContext& context,
              ProgramOutput& out) {
  if (!report_layout(zip, context)) return;
  const ZipArchive::Member* first = nullptr;
  for (const auto& m : zip.members()) {
    if (!m.unsafe.empty()) {
      context.reporter.report(
          kUnsafeArchiveMember, "",
          fmt::format("unsafe archive member '{}': {}; pt2lint does not read it", m.name,
                      m.unsafe),
          m.name, {},
          "an extracting tool could write outside its target folder or follow the link");
      continue;
    }
    if (first == nullptr && !m.is_directory) first = &m;
  }
  if (first == nullptr) {
    context.reporter.report(kMalformedProgram, "",
                            fmt::format("the zip archive '{}' holds no member pt2lint can read",
                                        file_name));
    return;
  }

  // PyTorch takes the root folder from the first member, as PyTorchStreamReader does.
  const auto slash = first->name.find('/');
  const std::string root = slash == std::string::npos ? "" : first->name.substr(0, slash + 1);
  // AOTInductor packages come with and without a root folder.
  if (report_if_aoti_only(zip, "", file_name, context) ||
      (!root.empty() && report_if_aoti_only(zip, root, file_name, context))) {
    return;
  }
  if (!root.empty()) {
    if (zip.find(root + "archive_format") != nullptr) {
      load_pt2_archive(zip, root, context, out);
      return;
    }
  }
  if (const auto* program = zip.find(kLegacyProgramMember)) {
    load_legacy_zip(zip, *program, context, out);
    return;
  }
  context.reporter.report(
      kMalformedProgram, "",
      fmt::format("the zip archive '{}' is neither a PT2 archive nor a legacy torch.export "
                  "archive",
                  file_name),
      {}, {},
      "a PT2 archive has '<root>/archive_format' under a single root folder; a legacy one "
      "(PyTorch 2.1 to 2.7) has 'serialized_exported_program.json' at the top level");
}

}  // namespace pt2lint
