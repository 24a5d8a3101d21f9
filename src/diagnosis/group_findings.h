// Groups the findings of one root cause under one primary finding (docs/fix.md): the
// primary names the cause and carries the repair (`fix.edits`), the others point at it.
// Every finding stays in the report, so rule IDs, names and counts do not change.
#pragma once

namespace pt2lint {

struct FileResult;

namespace diagnosis {

void group_findings(FileResult& file);

}  // namespace diagnosis
}  // namespace pt2lint
