// Archives: both layouts built in the test, and damaged or hostile zips that must each be
// a finding, never a crash, an extraction or a huge allocation.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "readers_test_support.h"
#include "io/readers/padded_bytes.h"
#include "io/readers/zip/zip_archive.h"
#include "support/temp_file.h"

namespace pt2lint {
namespace {

using testing_support::Loaded;
using testing_support::load_memory;
using testing_support::make_zip;
using testing_support::ZipEntry;

const std::string kProgram =
    R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": []},
        "signature": {"input_specs": [], "output_specs": []}},
        "schema_version": {"major": 8, "minor": 17}})";
const std::string kWeightsConfig =
    R"({"config": {"lin.weight": {"path_name": "weight_0", "is_param": true,
        "use_pickle": false, "tensor_meta": null}}})";

std::vector<ZipEntry> pt2_entries(const std::string& root = "m") {
  return {
      {root + "/data/weights/weight_0", std::string(64, '\0')},
      {root + "/data/weights/model_weights_config.json", kWeightsConfig},
      {root + "/data/constants/model_constants_config.json", R"({"config": {}})"},
      {root + "/models/model.json", kProgram},
      {root + "/archive_format", "pt2"},
      {root + "/archive_version", "0"},
      {root + "/.data/version", "6\n"},
      // What torch.load needs of a torch.save zip: a root folder, a version and data.pkl (an
      // empty tuple: PROTO 2, EMPTY_TUPLE, STOP).
      {root + "/data/sample_inputs/model.pt",
       make_zip({{"model/data.pkl", std::string("\x80\x02).")}, {"model/.data/version", "3\n"}})},
  };
}

TEST(ReadersZip, Pt2ArchiveBuiltInTestLoads) {
  const Loaded r = load_memory(make_zip(pt2_entries()));
  ASSERT_TRUE(r.findings.empty()) << r.dump();
  ASSERT_EQ(r.file.programs.size(), 1u);
  const auto& p = r.file.programs[0];
  EXPECT_EQ(p.name(), "model");
  EXPECT_EQ(p.layout(), ir::LAYOUT_PT2_ARCHIVE);
  EXPECT_EQ(p.json_path(), "m/models/model.json");
  EXPECT_EQ(p.archive_version(), "0");
  EXPECT_TRUE(p.weights().present());
  EXPECT_EQ(p.weights().config_path(), "m/data/weights/model_weights_config.json");
  ASSERT_EQ(p.weights().config().config_size(), 1);
  EXPECT_EQ(p.weights().config().config(0).value().path_name(), "weight_0");
  ASSERT_EQ(p.weights().records_size(), 1);
  EXPECT_EQ(p.weights().records(0).path(), "weight_0");
  EXPECT_EQ(p.weights().records(0).size(), 64u);
  EXPECT_TRUE(p.constants().present());
  EXPECT_EQ(p.constants().records_size(), 0);
}

TEST(ReadersZip, DeflatedMembersAreRead) {
  auto entries = pt2_entries();
  for (auto& e : entries) e.compress = true;
  const Loaded r = load_memory(make_zip(entries));
  EXPECT_TRUE(r.findings.empty()) << r.dump();
  EXPECT_EQ(r.file.programs.size(), 1u);
}

TEST(ReadersZip, ArchiveVersionAndFormatAreChecked) {
  auto entries = pt2_entries();
  entries[4].data = "pt3";
  entries[5].data = "7";
  const Loaded r = load_memory(make_zip(entries));
  EXPECT_EQ(r.count("unsupported-schema-version"), 1u) << r.dump();
  EXPECT_NE(r.first("unsupported-schema-version")->message.find("archive version 0"),
            std::string::npos);
  EXPECT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_EQ(r.file.programs.size(), 1u);
}

TEST(ReadersZip, NoModelIsMalformed) {
  auto entries = pt2_entries();
  entries.erase(entries.begin() + 3);
  const Loaded r = load_memory(make_zip(entries));
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_NE(r.first("malformed-program")->message.find("models/' holds no program"),
            std::string::npos);
}

TEST(ReadersZip, LegacyLayoutBuiltInTestLoads) {
  const Loaded r = load_memory(make_zip({{"serialized_exported_program.json", kProgram},
                                         {"serialized_state_dict.pt", "not read"},
                                         {"version", "8.17"}}));
  ASSERT_TRUE(r.findings.empty()) << r.dump();
  ASSERT_EQ(r.file.programs.size(), 1u);
  EXPECT_EQ(r.file.programs[0].layout(), ir::LAYOUT_LEGACY_ZIP);
  EXPECT_FALSE(r.file.programs[0].weights().present());
  const Loaded no_version =
      load_memory(make_zip({{"serialized_exported_program.json", kProgram}}));
  EXPECT_EQ(no_version.count("malformed-program"), 1u) << no_version.dump();
}

TEST(ReadersZip, NeitherLayoutIsMalformed) {
  const Loaded r = load_memory(make_zip({{"readme.txt", "hello"}, {"dir/a.json", "{}"}}));
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_TRUE(r.file.programs.empty());
}

TEST(ReadersZip, UnsafeMembersAreReportedAndIgnored) {
  auto entries = pt2_entries();
  entries.insert(entries.begin(), {"../../etc/passwd", "x"});  // not the root-folder source
  entries.push_back({"/abs/path", "x"});
  entries.push_back({"m/models/evil.json", "/etc/shadow", /*symlink=*/true});
  entries.push_back({"C:\\windows\\x", "x"});
  entries.push_back({"m/a/../../b", "x"});
  const Loaded r = load_memory(make_zip(entries));
  EXPECT_EQ(r.count("unsafe-archive-member"), 5u) << r.dump();
  EXPECT_EQ(r.count("malformed-program"), 0u) << r.dump();
  ASSERT_EQ(r.file.programs.size(), 1u);  // the symlinked "model" was never read
  EXPECT_EQ(r.first("unsafe-archive-member")->location.archive_member, "../../etc/passwd");
}

TEST(ReadersZip, DuplicateNamesAreUnsafe) {
  // libzip refuses duplicates when writing, so rename one entry's bytes in place.
  auto entries = pt2_entries();
  entries.push_back({"m/models/modeX.json", kProgram});
  std::string bytes = make_zip(entries);
  std::size_t at = 0;
  while ((at = bytes.find("m/models/modeX.json", at)) != std::string::npos) {
    bytes[at + 13] = 'l';
    ++at;
  }
  const Loaded r = load_memory(bytes);
  EXPECT_EQ(r.count("unsafe-archive-member"), 1u) << r.dump();
  EXPECT_EQ(r.file.programs.size(), 1u);  // the first copy is read, the second is not
}

TEST(ReadersZip, TruncatedZipIsOneFinding) {
  const std::string bytes = make_zip(pt2_entries());
  for (std::size_t cut : {bytes.size() - 1, bytes.size() - 30, bytes.size() / 2, std::size_t{10}}) {
    const Loaded r = load_memory(bytes.substr(0, cut));
    EXPECT_EQ(r.count("malformed-program"), 1u) << cut << "\n" << r.dump();
    EXPECT_TRUE(r.file.programs.empty());
  }
}

TEST(ReadersZip, LyingSizesAndOffsetsAreFindings) {
  const std::string good = make_zip(pt2_entries());
  const std::size_t cd = testing_support::central_directory(good);
  ASSERT_NE(cd, std::string::npos);
  // Every central-directory header: sizes at +20/+24, local header offset at +42.
  std::vector<std::string> variants;
  {
    std::string b = good;
    for (std::size_t at = cd; (at = b.find(std::string("PK\1\2", 4), at)) != std::string::npos; ++at) {
      testing_support::write_u32(b, at + 20, 0xFFFFFFF0u);
      testing_support::write_u32(b, at + 24, 0xFFFFFFF0u);
    }
    variants.push_back(b);
  }
  {
    std::string b = good;
    for (std::size_t at = cd; (at = b.find(std::string("PK\1\2", 4), at)) != std::string::npos; ++at) {
      testing_support::write_u32(b, at + 42, 0x7FFFFFF0u);
    }
    variants.push_back(b);
  }
  {
    std::string b = good;  // the model's data altered under an unchanged CRC
    const std::size_t at = b.find("\"graph_module\"");
    b[at + 1] = 'G';
    variants.push_back(b);
  }
  for (const auto& b : variants) {
    const Loaded r = load_memory(b);
    EXPECT_GE(r.count("malformed-program"), 1u) << r.dump();
    for (const auto& p : r.file.programs) {
      EXPECT_FALSE(p.program().has_graph_module());
    }
  }
}

// A weights config of 256 KB or more is converted on a second thread, and the program JSON's
// CRC-32 is checked there too: the same findings as the one-thread path.
TEST(ReadersZip, LargeArchivesCheckTheProgramCrcBesideTheWeights) {
  std::string config = R"({"config": {)";
  for (int i = 0; i < 4000; ++i) {
    if (i != 0) config += ", ";
    config += "\"layer" + std::to_string(i) + R"(.weight": {"path_name": "weight_0", "is_param": true, "use_pickle": false, "tensor_meta": null})";
  }
  config += "}}";
  ASSERT_GE(config.size(), std::size_t{256} << 10);
  std::vector<ZipEntry> entries = pt2_entries();
  entries[1].data = config;
  const std::string good = make_zip(entries);
  const Loaded clean = load_memory(good);
  EXPECT_EQ(clean.count("malformed-program"), 0u) << clean.dump();
  ASSERT_EQ(clean.file.programs.size(), 1u);
  EXPECT_TRUE(clean.file.programs[0].program().has_graph_module());
  EXPECT_EQ(clean.file.programs[0].weights().config().config_size(), 4000);

  std::string damaged = good;  // the program's data altered under an unchanged CRC
  const std::size_t at = damaged.find("\"graph_module\"");
  ASSERT_NE(at, std::string::npos);
  damaged[at + 1] = 'G';
  const Loaded r = load_memory(damaged);
  ASSERT_EQ(r.count("malformed-program"), 1u) << r.dump();
  EXPECT_NE(r.first("malformed-program")->message.find("CRC-32"), std::string::npos);
  ASSERT_EQ(r.file.programs.size(), 1u);
  EXPECT_FALSE(r.file.programs[0].program().has_graph_module());
  EXPECT_EQ(r.file.programs[0].weights().config().config_size(), 4000);
}

// A member of 16 MB and more is read from the file in two halves, the second on another
// thread (archive_bytes.cc): every byte lands where it belongs, and a file cut short inside
// the second half is a read error, never a buffer with a hole of zeros in it.
TEST(ReadersZip, LargeStoredMemberReadFromAFileInTwoHalves) {
  std::string data(std::size_t{20} << 20, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>((i * 2654435761u) >> 13);
  const std::string zip = make_zip({{"m/big.bin", data}});
  for (const bool cut : {false, true}) {
    SCOPED_TRACE(cut ? "cut inside the second half" : "whole");
    Expected<TempFile> file = TempFile::create(".zip");
    ASSERT_TRUE(file.ok());
    {
      std::ofstream out(file->path(), std::ios::binary);
      out << zip;
    }
    auto opened = ZipArchive::open_file(file->path(), 16);
    ASSERT_TRUE(opened.ok()) << opened.message();
    const ZipArchive& archive = *opened.value();
    const ZipArchive::Member* member = archive.find("m/big.bin");
    ASSERT_NE(member, nullptr);
    if (cut) {
      // The directory is read; now the data ends three quarters of the way through.
      std::filesystem::resize_file(file->path(), zip.size() - data.size() / 4);
    }
    PaddedBytes bytes;
    const Status read = archive.read(*member, data.size(), bytes);
    if (cut) {
      EXPECT_FALSE(read.ok());
    } else {
      ASSERT_TRUE(read.ok()) << read.message();
      ASSERT_EQ(bytes.view().size(), data.size());
      EXPECT_TRUE(bytes.view() == data);
    }
  }
}

// The central directory is listed from its bytes when minizip cannot fail on it, and by
// minizip's stepping otherwise: both must give the same members. The last record's comment
// length pointing past the archive sends it to minizip (which never reads that comment).
TEST(ReadersZip, DirectoryListedInOnePassMatchesMinizip) {
  const std::vector<ZipEntry> entries = pt2_entries();
  const std::string clean = make_zip(entries);
  std::string odd = clean;
  const std::size_t last = odd.rfind("PK\x01\x02");
  ASSERT_NE(last, std::string::npos);
  odd[last + 32] = '\xFF';
  odd[last + 33] = '\xFF';
  auto a = ZipArchive::open_memory(clean, 1000);
  auto b = ZipArchive::open_memory(odd, 1000);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  const auto& one = a.value()->members();
  const auto& two = b.value()->members();
  ASSERT_EQ(one.size(), entries.size());
  ASSERT_EQ(two.size(), one.size());
  std::size_t record = 0;
  for (std::size_t i = 0; i < one.size(); ++i) {
    // Each record where the last one ended (a stored member may hold a zip of its own, so
    // the signature is not searched for).
    if (i > 0) {
      EXPECT_EQ(one[i].directory_offset, record);
    }
    record = static_cast<std::size_t>(one[i].directory_offset);
    ASSERT_EQ(clean.compare(record, 4, "PK\x01\x02"), 0);
    ASSERT_EQ(clean.compare(record + 46, one[i].name.size(), one[i].name), 0);
    EXPECT_EQ(one[i].name, entries[i].name);
    EXPECT_EQ(one[i].size, entries[i].data.size());
    EXPECT_TRUE(ZipArchive::crc_matches(one[i], entries[i].data));
    EXPECT_EQ(one[i].unsafe, "");
    EXPECT_EQ(two[i].name, one[i].name);
    EXPECT_EQ(two[i].index, one[i].index);
    EXPECT_EQ(two[i].directory_offset, one[i].directory_offset);
    EXPECT_EQ(two[i].size, one[i].size);
    EXPECT_EQ(two[i].compressed_size, one[i].compressed_size);
    EXPECT_EQ(two[i].method, one[i].method);
    EXPECT_EQ(two[i].crc, one[i].crc);
    EXPECT_EQ(two[i].flags, one[i].flags);
    // (the damaged last record's layout is the reader's own parse, not minizip's: not compared)
    if (i + 1 < one.size()) {
      EXPECT_EQ(two[i].local_header_offset, one[i].local_header_offset);
    }
    record += 46 + one[i].name.size();  // make_zip writes no extra field or comment
  }
}

TEST(ReadersZip, MemberNameChecks) {
  EXPECT_TRUE(check_member_name("root/models/model.json").ok());
  EXPECT_TRUE(check_member_name("root/..data/x").ok());
  EXPECT_FALSE(check_member_name("..").ok());
  EXPECT_FALSE(check_member_name("a\\..\\b").ok());
  EXPECT_FALSE(check_member_name("\\\\server\\share").ok());
  EXPECT_FALSE(check_member_name("d:x").ok());
  EXPECT_FALSE(check_member_name("").ok());
}

TEST(ReadersZip, TextprotoFilesLoad) {
  const std::string dir = std::string(PT2LINT_TESTS_DIR) + "/data/json/";
  const auto set = testing_support::load_path(dir + "program.textproto");
  EXPECT_TRUE(set.findings.empty()) << set.dump();
  ASSERT_EQ(set.file.programs.size(), 2u);
  EXPECT_EQ(set.file.programs[0].name(), "model");
  EXPECT_EQ(set.file.programs[1].name(), "decode");
  EXPECT_EQ(set.file.programs[0].layout(), ir::LAYOUT_TEXTPROTO);

  const auto single = testing_support::load_path(dir + "single_program.pbtxt");
  ASSERT_EQ(single.file.programs.size(), 1u);
  EXPECT_EQ(single.file.programs[0].name(), "only");
  EXPECT_EQ(single.count("unsupported-schema-version"), 1u) << single.dump();

  const Loaded bad = load_memory("programs {\n  name: \"x\"\n  bogus_field: 3\n}\n", "t.textproto");
  ASSERT_EQ(bad.count("malformed-program"), 1u) << bad.dump();
  EXPECT_NE(bad.findings[0].message.find("t.textproto:3:"), std::string::npos) << bad.dump();
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "programs { program { graph_module { graph { nodes { inputs { arg { as_graph { graph { ";
  EXPECT_GE(load_memory(deep, "deep.pbtxt").count("malformed-program"), 1u);
}

}  // namespace
}  // namespace pt2lint
