// Notes that point at a related place (Note::location): JSON lists them under the additive
// `note_locations`, SARIF adds a relatedLocation with the note as its message, HTML names the
// place and links the finding there; text, markdown and the other line formats print the note
// as before, and a report without located notes has none of these.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/diagnostic_sink.h"
#include "core/rule_catalogue.h"
#include "reports/formats.h"
#include "render_report.h"

namespace pt2lint {
namespace {

// A swap of output_specs[0] and [1]: the primary at spec 0, a second finding at spec 1, and the
// primary's note about spec 1 located there.
RunReport located_swap_report(bool located) {
  FileResult file;
  file.path = "models/swap.pt2";
  Finding primary;
  primary.rule_id = "PT301";
  primary.rule_name = "mutation-value-derives-from-target";
  primary.program = "model";
  primary.location.output_spec = 0;
  primary.message = "the write-backs of `k` and `v` are swapped";
  primary.notes.push_back("a bare note");
  const std::string text = "output_specs[1] names `k`, but `index_put_1` is the new value of buffer `v`";
  if (located) {
    primary.notes.emplace_back(text, Location::of_output_spec(1));
  } else {
    primary.notes.push_back(text);
  }
  Finding other = primary;
  other.notes.clear();
  other.location.output_spec = 1;
  other.message = "output spec 1 writes `index_put_1` back to buffer `k`";
  file.findings = {primary, other};
  RunReport report;
  report.files.push_back(file);
  return report;
}

TEST(ReportsNoteLocations, JsonAddsNoteLocationsOnlyForLocatedNotes) {
  const std::string located = render_report("json", located_swap_report(true));
  EXPECT_NE(located.find("\"note_locations\": [\n            {\n              \"note\": 1,\n"
                         "              \"location\": {\n                \"output_spec\": 1\n"),
            std::string::npos)
      << located;
  EXPECT_EQ(render_report("json", located_swap_report(false)).find("note_locations"), std::string::npos);
}

TEST(ReportsNoteLocations, SarifWritesARelatedLocationWithTheNote) {
  const std::string sarif = render_report("sarif", located_swap_report(true));
  const std::size_t related = sarif.find("\"relatedLocations\"");
  ASSERT_NE(related, std::string::npos) << sarif;
  EXPECT_NE(sarif.find("\"name\": \"output_specs[1]\"", related), std::string::npos);
  EXPECT_NE(sarif.find("\"text\": \"output_specs[1] names `k`, but", related), std::string::npos);
  EXPECT_EQ(render_report("sarif", located_swap_report(false)).find("relatedLocations"), std::string::npos);
}

TEST(ReportsNoteLocations, HtmlLinksTheFindingAtTheNotesPlace) {
  const std::string html = render_report("html", located_swap_report(true));
  EXPECT_NE(html.find("<a class=\"note-at\" href=\"#finding-2\">→ output_specs[1] (#2)</a>"), std::string::npos)
      << html;
  EXPECT_EQ(render_report("html", located_swap_report(false)).find("note-at"), std::string::npos);
}

TEST(ReportsNoteLocations, LineFormatsAreUnchangedByALocation) {
  for (std::string_view format : {"text", "concise", "markdown", "github", "junit", "rdjson", "gitlab"})
    EXPECT_EQ(render_report(format, located_swap_report(true)), render_report(format, located_swap_report(false)))
        << format;
}

TEST(ReportsNoteLocations, InFlightFindingAttachesALocatedNote) {
  CollectingSink sink;
  emit(sink, kValueNamesUnique, "model", "`add` is defined twice")
      .note("a bare note")
      .note("first defined by node `add` (position 0)", Location::of_input_spec(2));
  ASSERT_EQ(sink.findings().size(), 1u);
  const std::vector<Note>& notes = sink.findings()[0].notes;
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_FALSE(notes[0].location);
  ASSERT_TRUE(notes[1].location);
  EXPECT_EQ(notes[1].location->input_spec, 2);
  EXPECT_TRUE(has_located_note(sink.findings()[0]));
}

}  // namespace
}  // namespace pt2lint
