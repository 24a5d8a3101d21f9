// Issue 24: inputs that lie. Repeated JSON keys, the version record PyTorchStreamReader
// parses, pickles walked without running them, globs that would backtrack, writers that must
// not be redirected, and messages that must stay inert.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "readers_test_support.h"
#include "io/readers/zip/pickle_imports.h"
#include "io/readers/zip/pt2_archive_requirements.h"
#include "io/readers/zip/zip_directory_record.h"
#include "support/atomic_file.h"
#include "support/bounded_file.h"
#include "support/http_url.h"
#include "support/path_glob.h"
#include "support/temp_file.h"

namespace pt2lint {
namespace {

using testing_support::Loaded;
using testing_support::load_memory;

std::string program_with_signature(const std::string& signature) {
  return R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": []}, "signature": )" +
         signature + R"(}, "schema_version": {"major": 8, "minor": 17}})";
}

TEST(HostileJson, RepeatedStructKeyIsMalformedAtItsPath) {
  const Loaded r = load_memory(program_with_signature(
                                   R"({"input_specs": [], "output_specs": [], "output_specs": []})"),
                               "program.json");
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_NE(r.dump().find("graph_module.signature.output_specs"), std::string::npos) << r.dump();
  EXPECT_NE(r.dump().find("json.loads"), std::string::npos) << r.dump();
}

TEST(HostileJson, RepeatedMapKeyAndUnionTagAreMalformed) {
  const std::string json =
      R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [],
      "tensor_values": {"x": {"dtype": 7, "sizes": []}, "x": {"dtype": 7, "sizes": []}}},
      "signature": {"input_specs": [], "output_specs": []}},
      "schema_version": {"major": 8, "minor": 17}})";
  const Loaded map = load_memory(json, "program.json");
  EXPECT_EQ(map.count("malformed-program"), 1u) << map.dump();
  EXPECT_NE(map.dump().find("tensor_values[\"x\"]"), std::string::npos) << map.dump();
}

TEST(HostileJson, DistinctKeysStayClean) {
  const Loaded r = load_memory(program_with_signature(R"({"input_specs": [], "output_specs": []})"),
                               "program.json");
  EXPECT_EQ(r.count("malformed-program"), 0u) << r.dump();
}

TEST(HostileArchive, StreamVersionMirrorsStoull) {
  EXPECT_TRUE(check_stream_version_text("6\n").ok());
  EXPECT_TRUE(check_stream_version_text(" 10").ok());
  EXPECT_TRUE(check_stream_version_text("+3").ok());
  EXPECT_FALSE(check_stream_version_text("11").ok());
  EXPECT_FALSE(check_stream_version_text("0").ok());
  EXPECT_FALSE(check_stream_version_text("-1").ok());  // stoull wraps it past 10
  EXPECT_FALSE(check_stream_version_text("six").ok());
  EXPECT_FALSE(check_stream_version_text("").ok());
  EXPECT_FALSE(check_stream_version_text("99999999999999999999999").ok());
}

std::string directory_record(std::uint32_t csize, std::uint32_t usize, std::uint32_t offset,
                             const std::string& extra, std::uint16_t flags = 0) {
  std::string r(46, '\0');
  const auto put16 = [&](std::size_t at, std::uint16_t v) {
    r[at] = static_cast<char>(v & 0xFF);
    r[at + 1] = static_cast<char>(v >> 8);
  };
  const auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) r[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
  };
  put32(0, 0x02014b50);
  put16(8, flags);
  put32(20, csize);
  put32(24, usize);
  put16(28, 1);
  put16(30, static_cast<std::uint16_t>(extra.size()));
  put32(42, offset);
  return r + "a" + extra;
}

std::string zip64_extra(std::initializer_list<std::uint64_t> values) {
  std::string e;
  const std::uint16_t size = static_cast<std::uint16_t>(8 * values.size());
  e += '\x01';
  e += '\0';
  e += static_cast<char>(size & 0xFF);
  e += static_cast<char>(size >> 8);
  for (std::uint64_t v : values) {
    for (int i = 0; i < 8; ++i) e += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  return e;
}

TEST(HostileArchive, Zip64SizesComeFromTheExtraField) {
  const std::uint64_t big = (std::uint64_t{1} << 32) + 64;
  DirectoryRecord record;
  ASSERT_TRUE(parse_directory_record(
      directory_record(0xFFFFFFFF, 0xFFFFFFFF, 100, zip64_extra({big, big})), record));
  EXPECT_EQ(record.size, big);
  EXPECT_EQ(record.compressed_size, big);
  EXPECT_EQ(record.local_header_offset, 100u);
  EXPECT_TRUE(check_miniz_reads(record, big + 1000).ok());
}

TEST(HostileArchive, RefusalsAndOddities) {
  // Measured with PyTorch 2.11: both load, so they are oddities (a warning), not refusals.
  DirectoryRecord saturated;
  ASSERT_TRUE(parse_directory_record(directory_record(10, 10, 0xFFFFFFFF, zip64_extra({0})),
                                     saturated));
  EXPECT_EQ(saturated.local_header_offset, 0u);
  EXPECT_TRUE(check_miniz_reads(saturated, 5000).ok());
  EXPECT_FALSE(check_ordinary_record(saturated, 5000).ok());
  DirectoryRecord encrypted;
  ASSERT_TRUE(parse_directory_record(directory_record(10, 10, 0, "", 0x0001), encrypted));
  EXPECT_TRUE(check_miniz_reads(encrypted, 5000).ok());
  EXPECT_NE(check_ordinary_record(encrypted, 5000).message().find("encrypted"), std::string::npos);
  DirectoryRecord no_zip64;
  ASSERT_TRUE(parse_directory_record(directory_record(0xFFFFFFFF, 0xFFFFFFFF, 0, ""), no_zip64));
  EXPECT_FALSE(check_miniz_reads(no_zip64, 5000).ok());
}

// torch.save's legacy format (what torch.load reads from bytes that are not a zip): five
// pickles, each walked; the first two must be the magic number and 1001 (_legacy_load).
TEST(HostilePickle, LegacyFormatWalksEveryPickle) {
  const std::string magic("\x80\x02\x8a\nl\xfc\234F\xf9 j\250P\x19.", 15);  // pickle.dumps(MAGIC_NUMBER, 2)
  const std::string version("\x80\x02M\xe9\x03.", 6);                       // pickle.dumps(1001, 2)
  static const char kSystem[] = "\x80\x02" "cposix\nsystem\nX\x04\0\0\0true\x85R.";  // holds NULs
  const std::string system(kSystem, sizeof kSystem - 1);
  const std::string stream = magic + version + "\x80\x02}." + system + "\x80\x02].";
  const LegacyPickles legacy = legacy_save_pickles(stream + std::string(64, '\0'), /*whole=*/true);
  EXPECT_TRUE(legacy.refused.empty()) << legacy.refused;
  EXPECT_TRUE(legacy.unknown.empty()) << legacy.unknown;
  ASSERT_EQ(legacy.imports.globals.size(), 1u);
  EXPECT_EQ(legacy.imports.globals[0], "posix.system");
  // The first bytes only, cut inside the object pickle: what follows is unknown, not refused.
  const LegacyPickles cut = legacy_save_pickles(stream.substr(0, magic.size() + version.size() + 6), false);
  EXPECT_TRUE(cut.refused.empty());
  EXPECT_FALSE(cut.unknown.empty());
  // Not the magic number: refused after the first pickle (its imports still ran).
  EXPECT_NE(legacy_save_pickles("\x80\x02K\x05.", true).refused.find("Invalid magic number"), std::string::npos);
  EXPECT_NE(legacy_save_pickles(magic + "\x80\x02M\xe8\x03.", true).refused.find("Invalid protocol version"),
            std::string::npos);
  const LegacyPickles first = legacy_save_pickles(system, true);
  EXPECT_EQ(first.imports.globals.size(), 1u);
  EXPECT_FALSE(first.unknown.empty());  // posix.system's result is no plain integer
  EXPECT_FALSE(legacy_save_pickles("not a pickle", true).refused.empty());
  EXPECT_FALSE(legacy_save_pickles(std::string(64, '\0'), false).refused.empty());  // zeros: invalid load key
  // Protocol 0's decimal form of the magic number is the same number.
  EXPECT_TRUE(legacy_save_pickles("L119547037146038801333356L\n.I1001\n.}.N.].", true).refused.empty());
}

TEST(HostilePickle, GlobalsOfEachOpcodeForm) {
  const std::string protocol2 = std::string("\x80\x02") + "cposix\nsystem\nX\x04\0\0\0true\x85R.";
  const PickleImports p2 = pickle_imports(protocol2);
  ASSERT_EQ(p2.globals.size(), 1u);
  EXPECT_EQ(p2.globals[0], "posix.system");
  EXPECT_FALSE(weights_only_allows(p2.globals[0]));
  const std::string protocol4 = std::string("\x80\x04\x8c\x08") + "builtins\x94\x8c\x04" +
                                "eval\x94\x93\x94)R.";
  const PickleImports p4 = pickle_imports(protocol4);
  ASSERT_EQ(p4.globals.size(), 1u) << p4.unreadable;
  EXPECT_EQ(p4.globals[0], "builtins.eval");
  EXPECT_TRUE(p4.unreadable.empty());
  EXPECT_FALSE(pickle_imports("\x80\x02\xff").unreadable.empty());
  EXPECT_FALSE(pickle_imports(std::string("\x80\x02X\xff\xff\xff\x7f", 7)).unreadable.empty());
  EXPECT_TRUE(weights_only_allows("torch._utils._rebuild_tensor_v2"));
  EXPECT_TRUE(weights_only_allows("torch.FloatStorage"));
  EXPECT_TRUE(weights_only_allows("collections.OrderedDict"));
  EXPECT_FALSE(weights_only_allows("torch.load"));
  EXPECT_FALSE(weights_only_allows("builtins.getattr"));
}

TEST(HostileGlob, ManyStarsMatchInLinearTime) {
  std::string pattern;
  for (int i = 0; i < 13; ++i) pattern += "a*";
  pattern += "b";
  const std::string path(5000, 'a');
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(glob_match(pattern, path));
  EXPECT_FALSE(glob_match("**a**a**a**a**a**a**a**a**a**a**a**a**a**b", path));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_TRUE(glob_match(pattern, path + "b"));
  EXPECT_TRUE(glob_match("**/x/*.pt2", "x/a.pt2"));
  EXPECT_TRUE(glob_match("**/x/*.pt2", "p/q/x/a.pt2"));
  EXPECT_FALSE(glob_match("**/x", "ax"));
  EXPECT_FALSE(glob_match("*.pt2", "a/b.pt2"));
  EXPECT_TRUE(glob_match("[a-c]?[!x].pt2", "bzy.pt2"));
  EXPECT_TRUE(glob_match("[", "["));
}

TEST(HostileUrl, OnlyHttpAndHttps) {
  EXPECT_EQ(safe_link_target("https://example.com/rules/"), "https://example.com/rules/");
  EXPECT_EQ(safe_link_target("HTTP://example.com/"), "HTTP://example.com/");
  EXPECT_EQ(safe_link_target("javascript:alert(1)//"), "");
  EXPECT_EQ(safe_link_target("https://x/\"onmouseover=\"a"), "");
  EXPECT_EQ(safe_link_target("https://x/) [y](z"), "");
  EXPECT_EQ(safe_link_target("data:text/html,x"), "");
}

class HostileFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pt2lint-hostile-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir_),
                                                  std::filesystem::directory_iterator()));
  }
  std::filesystem::path dir_;
};

TEST_F(HostileFiles, ReadRegularFileRefusesDevicesFifosAndBigFiles) {
  const Expected<std::string> device = read_regular_file("/dev/zero", 1 << 20);
  EXPECT_FALSE(device.ok());
  EXPECT_NE(device.message().find("not a regular file"), std::string::npos);
  const auto fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(read_regular_file(fifo, 1 << 20).ok());  // returns at once, never blocks
  std::ofstream(dir_ / "big") << std::string(100, 'x');
  EXPECT_FALSE(read_regular_file(dir_ / "big", 10).ok());
  const Expected<std::string> big = read_regular_file(dir_ / "big", 100);
  ASSERT_TRUE(big.ok()) << big.message();
  EXPECT_EQ(big->size(), 100u);
}

TEST_F(HostileFiles, LiesInsideResolvesLinks) {
  std::filesystem::create_directories(dir_ / "cfg");
  std::ofstream(dir_ / "cfg" / "ops.txt") << "x";
  std::filesystem::create_symlink("/etc/passwd", dir_ / "cfg" / "link.txt");
  EXPECT_TRUE(lies_inside(dir_ / "cfg" / "ops.txt", dir_ / "cfg"));
  EXPECT_FALSE(lies_inside(dir_ / "cfg" / "link.txt", dir_ / "cfg"));
  EXPECT_FALSE(lies_inside(dir_ / "cfg" / ".." / "x", dir_ / "cfg"));
}

TEST_F(HostileFiles, AtomicWriteNeverFollowsALinkAtTheOutput) {
  const auto victim = dir_ / "victim";
  std::ofstream(victim) << "precious";
  std::filesystem::create_symlink(victim, dir_ / "out.json");
  const Status written = write_file_atomically(dir_ / "out.json", "new");
  EXPECT_NE(written.message().find("symbolic link"), std::string::npos) << written.message();
  std::ifstream in(victim);
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "precious");
  EXPECT_EQ(entries(), 2u);  // nothing left behind
}

TEST_F(HostileFiles, AtomicWriteRefusesAFifoAndReplacesARegularFileWhole) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  EXPECT_NE(write_file_atomically(dir_ / "fifo", "x").message().find("FIFO"), std::string::npos);
  std::ofstream(dir_ / "out.json") << "old";
  ::chmod((dir_ / "out.json").c_str(), 0640);
  EXPECT_TRUE(write_file_atomically(dir_ / "out.json", "new").ok());
  std::ifstream in(dir_ / "out.json");
  std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(now, "new");
  struct stat st {};
  ASSERT_EQ(::stat((dir_ / "out.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(entries(), 2u);
}

TEST_F(HostileFiles, AtomicFileLeavesNothingBehindWhenNotCommitted) {
  {
    Expected<AtomicFile> file = AtomicFile::create(dir_ / "out.pt2");
    ASSERT_TRUE(file.ok()) << file.message();
    EXPECT_EQ(file->temporary().extension(), ".pt2");
    EXPECT_EQ(::write(file->fd(), "x", 1), 1);
  }
  EXPECT_EQ(entries(), 0u);
}

// `check -` copies standard input to a temporary file: never past its cap (2 GiB by default).
TEST_F(HostileFiles, StandardInputCopyStopsAtItsCap) {
  std::istringstream big(std::string(std::size_t{3} << 20, 'x'));
  const std::filesystem::path copy = dir_ / "stdin_copy";
  const Status capped = copy_stream_to_file(big, copy, std::uint64_t{1} << 20);
  ASSERT_FALSE(capped.ok());
  EXPECT_NE(capped.message().find("more than 1048576 bytes"), std::string::npos) << capped.message();
  EXPECT_LE(std::filesystem::file_size(copy), std::uint64_t{1} << 20);  // never more than the cap written
  std::istringstream small("abc");
  EXPECT_TRUE(copy_stream_to_file(small, copy, std::uint64_t{1} << 20, "12").ok());
  EXPECT_EQ(std::filesystem::file_size(copy), 5u);
  EXPECT_EQ(kMaxStandardInputBytes, std::uint64_t{2} << 30);
}

}  // namespace
}  // namespace pt2lint
