#include "engine/parallel_check.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <system_error>
#include <thread>

#include "support/other_core_thread.h"

namespace pt2lint {

std::vector<FileResult> check_in_parallel(const RuleRegistry& registry,
                                          const std::vector<DiscoveredFile>& files,
                                          const std::vector<const RuleFilter*>& filters,
                                          const std::vector<const opschema::SchemaCatalog*>& catalogs,
                                          const ParallelCheckOptions& options) {
  std::vector<FileResult> results(files.size());
  unsigned jobs = options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, std::max<std::size_t>(1, files.size()));
  // Largest files first: a big archive picked up last would leave the other threads idle
  // while it finishes. Results still land at their discovery index.
  std::vector<std::size_t> order(files.size());
  std::vector<std::uintmax_t> sizes(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    order[i] = i;
    std::error_code error;
    sizes[i] = std::filesystem::file_size(files[i].path, error);
    if (error) sizes[i] = 0;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&sizes](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  std::mutex progress_mutex;  // the callback is told one file at a time
  std::size_t done = 0;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t n = next++; n < files.size(); n = next++) {
      const std::size_t i = order[n];
      LoadOptions load;
      load.found_by_folder_walk = files[i].found_by_folder_walk;
      load.verify_data = options.verify_data;
      load.max_file_cpu_seconds = options.max_file_cpu_seconds;
      Engine engine(registry, filters[i]->for_file(files[i].path),
                    OpKnowledge{catalogs[i], options.unknown_ops_parameters});
      results[i] = engine.check_file(files[i].path, load, options.disposal, options.observer);
      if (options.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        options.progress(++done, files.size());
      }
    }
  };
  std::vector<OtherCoreThread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& thread : threads) thread.join();
  return results;
}

}  // namespace pt2lint
