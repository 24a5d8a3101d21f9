// Checks many files on a pool of threads. Each file gets its own Engine (its rule filter
// and op schemas differ by config); results land at the file's index, so a report never
// depends on the number of jobs.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "analysis/opschema/schema_catalog.h"
#include "core/check_result.h"
#include "core/rule_filter.h"
#include "core/rule_registry.h"
#include "engine/engine.h"
#include "engine/file_discovery.h"

namespace pt2lint {

// Told after each file, one call at a time, how many of `total` files are done.
using ProgressCallback = std::function<void(std::size_t done, std::size_t total)>;

struct ParallelCheckOptions {
  unsigned jobs = 0;  // threads; 0: one per core
  bool unknown_ops_parameters = false;  // PT310 also for parameters
  IrDisposal disposal = IrDisposal::kFree;
  CheckedFileObserver observer;  // called on the worker threads: must be thread-safe
  ProgressCallback progress;
  bool verify_data = false;            // LoadOptions::verify_data
  double max_file_cpu_seconds = 60.0;  // LoadOptions::max_file_cpu_seconds
};

// One result per file, at the file's index. `filters[i]` and `catalogs[i]` belong to
// `files[i]`.
std::vector<FileResult> check_in_parallel(const RuleRegistry& registry,
                                          const std::vector<DiscoveredFile>& files,
                                          const std::vector<const RuleFilter*>& filters,
                                          const std::vector<const opschema::SchemaCatalog*>& catalogs,
                                          const ParallelCheckOptions& options);

}  // namespace pt2lint
