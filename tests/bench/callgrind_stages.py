#!/usr/bin/env python3
"""Instructions per stage of one `pt2lint check` run, from a callgrind output file.

  valgrind --tool=callgrind --callgrind-out-file=OUT build/pt2lint check --quiet FILE.pt2
  tests/bench/callgrind_stages.py OUT

Inclusive counts (callgrind_annotate --inclusive=yes) of the functions that start each stage
of check (docs/performance.md, "Per stage"): zip open, the program JSON walk (simdjson stage 1
inside it), the weights thread (the program member's CRC-32 and the weights config JSON), the
program index, the dataflow summary, the rules (check_program less the index and the
summary), and the rest (start-up, member reads, archive checks, report, exit)."""
import re
import subprocess
import sys

STAGES = [
    ("zip open (central directory, names, duplicates)", r"pt2lint::ZipArchive::open_file\("),
    ("program JSON -> IR (main thread)", r"pt2lint::read_program_json\("),
    ("  of which simdjson stage 1", r"pt2lint::json_reader::iterate_document\("),
    ("weights thread (program CRC-32, weights config -> IR)", r"std::__future_base::_Async_state_impl<.*load_program_beside_state"),
    ("program index", r"pt2lint::ProgramIndex::ProgramIndex\("),
    ("dataflow summary", r"pt2lint::dataflow::summarize_dataflow\("),
    ("check_program (index, summary, every rule)", r"pt2lint::Engine::check_program\("),
]


def main() -> None:
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", sys.argv[1]],
                         capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", out).group(1).replace(",", ""))
    found = {}
    for name, pattern in STAGES:
        for line in out.splitlines():
            m = re.match(r"\s*([\d,]+) \(", line)
            if m and re.search(pattern, line) and "'2" not in line:
                found[name] = int(m.group(1).replace(",", ""))
                break
    rules = found.get(STAGES[6][0], 0) - found.get("program index", 0) - found.get("dataflow summary", 0)
    rest = total - sum(found.get(STAGES[i][0], 0) for i in (0, 1, 3, 6))
    for name, _ in STAGES[:6]:
        print(f"{name:56s} {found.get(name, 0) / 1e6:10.1f} M")
    print(f"{'structural and dataflow rules':56s} {rules / 1e6:10.1f} M")
    print(f"{'rest (start-up, member reads, checks, report, exit)':56s} {rest / 1e6:10.1f} M")
    print(f"{'total':56s} {total / 1e6:10.1f} M")


if __name__ == "__main__":
    main()
