// What torch.export.load requires of a PT2 archive beyond the programs pt2lint checks: each
// check mirrors one step of PyTorch 2.11's reader (caffe2/serialize/inline_container.cc,
// torch/export/pt2_archive/_package.py, torch/_export/serde/serialize.py) and reports
// malformed-program when PyTorch would refuse the file there.
#pragma once

#include <string>
#include <string_view>

#include "io/readers/load_context.h"
#include "io/readers/padded_bytes.h"
#include "io/readers/zip/zip_archive.h"
#include "program.pb.h"

namespace pt2lint {

// `<root>.data/version`, else `<root>version`: PyTorchStreamReader parses it with
// std::stoull and accepts 1 to 10.
void check_stream_version(const ZipArchive& zip, std::string_view root, LoadContext& context);

// Fails, saying why, when PyTorchStreamReader refuses this version record's bytes. Exposed for
// tests.
Status check_stream_version_text(std::string_view text);

// Members under models/ that are not `models/<name>.json`: load_pt2 takes every record
// there for a program and fails on each such one.
void check_model_entries(const ZipArchive& zip, std::string_view root, LoadContext& context);

// `data/sample_inputs/<name>.pt`, torch.load-ed unconditionally: it must exist and be a
// torch.save zip PyTorchStreamReader opens (a root folder, data.pkl, a supported version).
void check_sample_inputs(const ZipArchive& zip, std::string_view root, const std::string& name,
                         LoadContext& context);

// `extra/*`, each decoded as UTF-8 by load_pt2.
void check_extra_files(const ZipArchive& zip, std::string_view root, LoadContext& context);

// A UTF-8 byte-order mark before a JSON member (the program, a weights or constants config):
// torch.export.load decodes the bytes as UTF-8 and json.loads refuses the BOM it then sees
// (measured with PyTorch 2.11 for both).
void check_json_bom(const PaddedBytes& json, std::string_view program, std::string_view member,
                       LoadContext& context);

// Every pickle torch.export.load unpickles with weights_only=False for `program`: its sample
// inputs, weights and constants stored with use_pickle, opaque objects (opaque_obj_*) its
// constants config names, and
// legacy whole-state .pt files. Reports pickle-runs-code-at-load for each that imports a
// global torch.load(weights_only=True) refuses, naming the member and the globals.
void check_pickles(const ZipArchive& zip, std::string_view root, const ir::Program& program,
                   LoadContext& context);

}  // namespace pt2lint
