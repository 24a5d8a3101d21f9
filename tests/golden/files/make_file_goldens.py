#!/usr/bin/env python3
"""Builds the golden files of the files PyTorch writes and of archives that lie, from corpus
programs, with their `.expect` sidecars (see tests/golden/run_golden.py).

    python3 tests/golden/files/make_file_goldens.py [CORPUS]     (default: ../shared/corpus)

Deterministic: run it again and `git diff` shows nothing. What each file is, and what PyTorch
2.11 does with the same construction (tests/data/device/measurements), is said in its sidecar.
Sources: corpus/base/counter.aten.pt2 (a 2-parameter, 1-buffer program, schema 8.17),
corpus/legacy/counter.pt2 (the legacy zip layout), and the device corpus' print_effect program
(an effect token).
"""
import copy
import io
import json
import os
import shutil
import stat
import struct
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ beside the goldens
from golden_files_lib import (DATE, append_directory_entry, central_directory,  # noqa: E402
                              edit_program, members, program_member, put, record, write_zip)
from schema_history_goldens import schema_minor_goldens  # noqa: E402
import make_hostile_goldens  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CORPUS = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared", "corpus"))
BASE = os.path.join(CORPUS, "base", "counter.aten.pt2")
LEGACY = os.path.join(CORPUS, "legacy", "counter.pt2")
TOKEN_PROGRAM = os.path.join(REPO, "tests", "data", "device", "subgraphs", "print_effect.aten.pt2")
TORCH_MAX_OUT_SPEC_NESTING = 984  # measured: tests/data/device/measurements/measurements.json


def legacy_union_style(value):
    """2.2-era unions: every member written, all but one null (as the Argument union did)."""
    argument_members = ["as_none", "as_tensor", "as_tensors", "as_int", "as_ints", "as_float",
                        "as_floats", "as_string", "as_sym_int", "as_sym_ints", "as_scalar_type",
                        "as_memory_format", "as_layout", "as_device", "as_bool", "as_bools"]
    if isinstance(value, list):
        return [legacy_union_style(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: legacy_union_style(v) for k, v in value.items()}
    if len(out) == 1 and next(iter(out)) in argument_members:
        for m in argument_members:
            out.setdefault(m, None)
    return out


def schema_goldens(base):
    def legacy(doc):
        doc = legacy_union_style(doc)
        doc["schema_version"] = 2
        doc["dialect"] = "ATEN"
        for k in ("verifiers", "torch_version", "guards_code"):
            doc.pop(k, None)
        return doc
    # The legacy zip layout, as 2.2 wrote it: version "2" beside the program JSON.
    legacy_entries = []
    for n, data in members(LEGACY):
        if n == "serialized_exported_program.json":
            data = json.dumps(legacy(json.loads(data))).encode()
        elif n == "version":
            data = b"2"
        legacy_entries.append((n, data))
    put("unsupported-schema-version", "bad_integer_version_legacy.pt2", write_zip(legacy_entries),
        ["error unsupported-schema-version json:schema_version"],
        """A PyTorch 2.2-style legacy archive (built from corpus/legacy/counter.pt2): integer
        schema_version 2, a top-level "dialect", unions with every member present and all but
        one null. One finding and nothing else (pt2lint on main gave 706 malformed-program
        findings and 2 unsupported-schema-version ones).""")

    future = edit_program(base, lambda d: d.update(schema_version={"major": 9, "minor": 0}))
    put("unsupported-schema-version", "bad_future_major_9.pt2", write_zip(future),
        ["error unsupported-schema-version json:schema_version"],
        """corpus/base/counter.aten.pt2 with schema_version 9.0 (upstream PyTorch has a
        prototype major 9): one finding, nothing else.""")

    legacy_version = []
    for n, data in members(LEGACY):
        legacy_version.append((n, b"7.3" if n == "version" else data))
    put("unsupported-schema-version", "bad_legacy_version_entry_7.pt2", write_zip(legacy_version),
        ["error unsupported-schema-version member:version"],
        """corpus/legacy/counter.pt2 whose 'version' entry reads 7.3 (PyTorch 2.5): refused
        on that entry alone; the program JSON is not read.""")

    put("unsupported-schema-version", "bad_archive_version_1.pt2",
        write_zip([(n, b"1" if n.endswith("/archive_version") else data) for n, data in base]),
        ["error unsupported-schema-version member:counter.aten/archive_version"],
        """corpus/base/counter.aten.pt2 whose 'archive_version' record reads 1 (PyTorch writes
        0): a future archive layout, refused on that record; the program is not checked. Not
        measured with PyTorch yet (tests/files/device_check_goldens.py would say whether
        torch.export.load refuses it too).""")

    put("unsupported-schema-version", "good_schema_8_17_archive_version_0.pt2", write_zip(base), [],
        """corpus/base/counter.aten.pt2 as PyTorch 2.11 wrote it: schema 8.17, archive version
        0, both read. No finding (the near miss of bad_future_major_9 and
        bad_archive_version_1).""")

    put("unsupported-schema-version", "good_legacy_version_entry_8_17.pt2", write_zip(members(LEGACY)),
        ["note state-dict-mismatch -"],
        """corpus/legacy/counter.pt2 as PyTorch 2.11 wrote it in the legacy zip layout: its
        'version' entry reads 8.17, which is read (the near miss of bad_legacy_version_entry_7).
        The one finding is the note that a legacy zip's pickled weights are not checked.""")


def aoti_goldens():
    def package(root):
        return [(root + "archive_format", b"pt2"), (root + "archive_version", b"0"),
                (root + "data/aotinductor/model/model.so", b"\x7fELF" + bytes(60)),
                (root + "data/aotinductor/model/model.wrapper.cpp", b"// wrapper\n"),
                (root + "data/aotinductor/model/model.kernel.cpp", b"// kernels\n"),
                (root + "data/aotinductor/model/model_metadata.json", b'{"AOTI_DEVICE_KEY": "cpu"}')]
    put("aotinductor-package", "bad_package_without_root.pt2", write_zip(package("")),
        ["note aotinductor-package member:data/aotinductor/"],
        """An AOTInductor package laid out without a root folder (archive_format at the top,
        data/aotinductor/model/*.so and sources, no models/*.json): a note, exit 0.""")
    put("aotinductor-package", "bad_package_with_root.pt2", write_zip(package("pkg/")),
        ["note aotinductor-package member:pkg/data/aotinductor/"],
        """The same package under a root folder 'pkg/': a note, exit 0.""")


def aoti_good_goldens(base):
    put("aotinductor-package", "good_exported_program.pt2", write_zip(base), [],
        """corpus/base/counter.aten.pt2: an exported program, no compiled code. Checked as
        usual, no finding.""")
    root = base[0][0].split("/")[0] + "/"
    compiled = [(root + "data/aotinductor/model/model.so", b"\x7fELF" + bytes(60)),
                (root + "data/aotinductor/model/model.wrapper.cpp", b"// wrapper\n"),
                (root + "data/aotinductor/model/model_metadata.json", b'{"AOTI_DEVICE_KEY": "cpu"}')]
    put("aotinductor-package", "good_program_beside_compiled_code.pt2", write_zip(base + compiled), [],
        """corpus/base/counter.aten.pt2 with AOTInductor's compiled code added under
        counter.aten/data/aotinductor/model/ (a PT2 archive may hold both, as
        torch.export.pt2_archive's package_pt2 writes them): the near miss of the bad
        packages. The exported program is there, so it is checked and no note is given.""")


def archive_goldens(base):
    clean = write_zip(base)
    notes = ("counter.aten/extra/notes.txt", b"notes " * 20)
    with_notes = write_zip(base + [notes])

    past_end = bytearray(with_notes)
    r = record(past_end, "extra/notes.txt")
    struct.pack_into("<I", past_end, r["pos"] + 42, len(past_end) + 1000)
    put("malformed-program", "bad_offset_past_end.pt2", past_end,
        ["error malformed-program member:counter.aten/extra/notes.txt"],
        """The central directory puts the local header of a member pt2lint never reads past
        the end of the file. Measured with PyTorch 2.11: torch.export.load refuses it.""")

    bzip2 = write_zip(base + [notes], methods={notes[0]: zipfile.ZIP_BZIP2})
    put("malformed-program", "bad_unsupported_method.pt2", bzip2,
        ["error malformed-program member:counter.aten/extra/notes.txt"],
        """A member compressed with bzip2 (method 12). Measured with PyTorch 2.11:
        torch.export.load refuses any bzip2 or LZMA member, read or not.""")

    shared = append_directory_entry(clean, record(clean, "data/weights/weight_0"),
                                    "counter.aten/extra/notes.txt",
                                    record(clean, "data/weights/weight_0")["local"])
    put("malformed-program", "bad_shared_local_header.pt2", shared,
        ["error malformed-program member:counter.aten/extra/notes.txt"],
        """A second central-directory entry points at weight_0's local header: two names for
        one member's bytes. Measured with PyTorch 2.11: torch.export.load refuses it.""")

    # Partial overlap: the last stored member before the directory claims 8 more bytes than it
    # has, so its data runs over the next member's local header.
    overlap = bytearray(clean)
    records, _ = central_directory(overlap)
    ordered = sorted(records, key=lambda x: x["local"])
    victim = ordered[-2]
    struct.pack_into("<II", overlap, victim["pos"] + 20, victim["csize"] + 8, victim["csize"] + 8)
    put("suspicious-archive-layout", "bad_overlapping_members.pt2", overlap,
        [f"warning suspicious-archive-layout member:{victim['name']}"],
        f"""Member '{victim['name']}' (never read) declares 8 more bytes than it has, so its
        data overlaps the next member's local header, as zip bombs are built. A warning: PyTorch's
        zip reader does not check overlap.""")

    name_disagrees = bytearray(clean)
    r = record(name_disagrees, "models/model.json")
    local = r["local"]
    nlen, = struct.unpack_from("<H", name_disagrees, local + 26)
    name_disagrees[local + 30 + nlen - 1:local + 30 + nlen] = b"o"  # model.json -> model.jsoo
    put("suspicious-archive-layout", "bad_local_name_disagrees.pt2", name_disagrees,
        ["warning suspicious-archive-layout member:counter.aten/models/model.json"],
        """The program JSON's local header names it 'model.jsoo'; the central directory says
        'model.json'. Measured with PyTorch 2.11: loads and runs (it reads the central
        directory); Python's zipfile calls the archive damaged. A warning.""")

    crc_disagrees = bytearray(clean)
    local = record(crc_disagrees, "models/model.json")["local"]
    struct.pack_into("<I", crc_disagrees, local + 14, 0x12345678)
    put("suspicious-archive-layout", "bad_local_crc_disagrees.pt2", crc_disagrees,
        ["warning suspicious-archive-layout member:counter.aten/models/model.json"],
        """The program JSON's local header carries another CRC-32 than the central directory.
        Measured with PyTorch 2.11: loads and runs. A warning (pt2lint used to refuse it).""")

    put("malformed-program", "good_clean_archive.pt2", clean, [],
        """corpus/base/counter.aten.pt2 rewritten member for member: a well-formed archive,
        no finding.""")
    put("malformed-program", "good_unread_member_intact.pt2", with_notes, [],
        """The archive the bad_* goldens start from: counter.aten plus a stored member
        extra/notes.txt that pt2lint never reads, with its central-directory entry, local
        header and data intact. No finding (the near miss of bad_offset_past_end).""")

    deflated = write_zip(base, methods={program_member(base): zipfile.ZIP_DEFLATED})
    put("suspicious-archive-layout", "good_deflated_program.pt2", deflated, [],
        """The program JSON deflated instead of stored. Measured with PyTorch 2.11: loads and
        runs. No finding.""")


def unsafe_member_goldens(base):
    root = base[0][0].split("/")[0] + "/"

    def symlink(name, target):
        info = zipfile.ZipInfo(name, DATE)
        info.create_system = 3  # unix: the mode in external_attr counts
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        return info, target

    def zip_with(extra):
        """base, then `extra` [(name or ZipInfo, bytes)] appended last (the root folder is
        taken from the first member, so it stays counter.aten/)."""
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for name, data in base + extra:
                z.writestr(name if isinstance(name, zipfile.ZipInfo) else zipfile.ZipInfo(name, DATE), data)
        return bytearray(buf.getvalue())

    put("unsafe-archive-member", "bad_absolute_member.pt2",
        zip_with([("/etc/cron.d/pt2lint-golden", b"* * * * * root true\n")]),
        ["error unsafe-archive-member member:/etc/cron.d/pt2lint-golden"],
        """corpus/base/counter.aten.pt2 with one more member, '/etc/cron.d/pt2lint-golden': an
        absolute path, which an extracting tool would write outside its target folder. The
        member is reported and not read; the program is still checked (clean).""")
    put("unsafe-archive-member", "bad_dotdot_member.pt2",
        zip_with([(root + "../../home/user/.bashrc", b"echo pwned\n")]),
        ["error unsafe-archive-member member:counter.aten/../../home/user/.bashrc"],
        """counter.aten with a member 'counter.aten/../../home/user/.bashrc' whose '..'
        components climb out of the archive (zip slip). Reported and not read; the program is
        still checked (clean).""")
    put("unsafe-archive-member", "bad_drive_letter_member.pt2",
        zip_with([("C:/Users/Public/evil.bat", b"@echo off\r\n")]),
        ["error unsafe-archive-member member:C:/Users/Public/evil.bat"],
        """counter.aten with a member 'C:/Users/Public/evil.bat': absolute on Windows.
        Reported and not read.""")
    put("unsafe-archive-member", "bad_symlink_member.pt2",
        zip_with([symlink(root + "extra/weights_link", b"/etc/shadow")]),
        ["error unsafe-archive-member member:counter.aten/extra/weights_link"],
        """counter.aten with a member 'counter.aten/extra/weights_link' whose unix mode (the
        high half of external_attr, made on host 3) marks it as a symbolic link to
        /etc/shadow. Reported and never followed; the program is still checked (clean).""")
    put("unsafe-archive-member", "good_clean_archive.pt2", write_zip(base), [],
        """corpus/base/counter.aten.pt2 as PyTorch 2.11 wrote it: every member a plain file
        under counter.aten/. No finding.""")
    put("unsafe-archive-member", "good_dots_inside_names.pt2",
        zip_with([(root + "extra/v1..v2/notes..txt", b"notes\n"),
                  (root + "extra/.../readme", b"dots\n")]),
        [],
        """The near miss of bad_dotdot_member: members 'counter.aten/extra/v1..v2/notes..txt'
        and 'counter.aten/extra/.../readme' hold '..' inside a component, or a '...' component,
        but no component is '..', so nothing escapes the archive. No finding.""")


def nest(leaf_spec, depth):
    protocol, node = json.loads(leaf_spec)
    head = '{"type": "builtins.tuple", "context": "null", "children_spec": ['
    return f"[{protocol}, " + head * depth + json.dumps(node) + "]}" * depth + "]"


def depth_goldens(base):
    def with_depth(depth):
        def edit(doc):
            sig = doc["graph_module"]["module_call_graph"][0]["signature"]
            sig["out_spec"] = nest(sig["out_spec"], depth)
        return write_zip(edit_program(base, edit))
    path = "json:graph_module.module_call_graph[0].signature.out_spec"
    put("output-arity-matches-call-spec", "good_out_spec_at_torch_limit.pt2",
        with_depth(TORCH_MAX_OUT_SPEC_NESTING), [],
        f"""The out_spec wraps the one output in {TORCH_MAX_OUT_SPEC_NESTING} one-element tuples,
        the deepest torch.export.load accepts (measured with PyTorch 2.11). No finding.""")
    put("output-arity-matches-call-spec", "bad_out_spec_past_torch_limit.pt2",
        with_depth(TORCH_MAX_OUT_SPEC_NESTING + 1), [f"warning output-arity-matches-call-spec {path}"],
        f"""{TORCH_MAX_OUT_SPEC_NESTING + 1} tuples: past the {TORCH_MAX_OUT_SPEC_NESTING} that loaded in the
        measurement (PyTorch 2.11), but under Python's recursion limit of 1000, so whether
        torch.export.load takes it depends on its caller's stack (a later, shallower run loaded
        it). A warning.""")
    put("output-arity-matches-call-spec", "bad_out_spec_at_recursion_limit.pt2", with_depth(1000),
        [f"error output-arity-matches-call-spec {path}"],
        """1,000 tuples: treespec_loads needs a Python frame per level, so no caller loads it
        under the default recursion limit of 1000. An error.""")
    put("output-arity-matches-call-spec", "bad_out_spec_50000_deep.pt2", with_depth(50000),
        [f"error output-arity-matches-call-spec {path}"],
        """50,000 tuples, past pt2lint's reader bound too: an error, as PyTorch refuses it.""")


def reorder_inputs(doc, order):
    """Input specs and graph inputs permuted together (so input-specs-match-placeholders holds)."""
    g = doc["graph_module"]
    specs, inputs = g["signature"]["input_specs"], g["graph"]["inputs"]
    g["signature"]["input_specs"] = [specs[i] for i in order]
    g["graph"]["inputs"] = [inputs[i] for i in order]


def nativert_goldens(base):
    # counter.aten inputs: [p_lin_weight, p_lin_bias, b_count (persistent), x].
    put("nativert-input-order", "good_in_order.pt2", write_zip(base), [],
        """corpus/base/counter.aten.pt2 as exported: parameters, then the buffer, then x.""")
    put("nativert-input-order", "bad_buffer_before_parameter.pt2",
        write_zip(edit_program(base, lambda d: reorder_inputs(d, [2, 0, 1, 3]))),
        ["note nativert-input-order input_specs[1]"],
        """The buffer moved before the parameters. nativert's checkInputOrders refuses it in
        PyTorch's source; measured with PyTorch 2.11, torch.export.load and nativert's
        PyModelRunner both load it: a note.""")

    def non_persistent_first(doc):
        specs = doc["graph_module"]["signature"]["input_specs"]
        extra = copy.deepcopy(specs[2])
        extra["buffer"].update(persistent=False, buffer_name="scratch")
        extra["buffer"]["arg"]["name"] = "b_scratch"
        specs.insert(2, extra)
        graph = doc["graph_module"]["graph"]
        graph["inputs"].insert(2, {"as_tensor": {"name": "b_scratch"}})
        graph["tensor_values"]["b_scratch"] = graph["tensor_values"]["b_count"]
        # read it, so that state-is-used stays quiet
        graph["nodes"][0]["inputs"][0]["arg"] = {"as_tensor": {"name": "b_count"}}
    def transient(doc):
        non_persistent_first(doc)
        nodes = doc["graph_module"]["graph"]["nodes"]
        nodes.insert(0, {"target": "torch.ops.aten.clone.default", "name": "clone",
                         "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "b_scratch"}},
                                     "kind": 1}],
                         "outputs": [{"as_tensor": {"name": "clone"}}], "metadata": {}})
        doc["graph_module"]["graph"]["tensor_values"]["clone"] = \
            doc["graph_module"]["graph"]["tensor_values"]["b_count"]
        doc["graph_module"]["graph"]["outputs"].append({"as_tensor": {"name": "clone"}})
        doc["graph_module"]["signature"]["output_specs"].append(
            {"user_output": {"arg": {"as_tensor": {"name": "clone"}}}})
        sig = doc["graph_module"]["module_call_graph"][0]["signature"]
        sig["out_spec"] = ('[1, {"type": "builtins.tuple", "context": "null", "children_spec": '
                           '[{"type": null, "context": null, "children_spec": []}, '
                           '{"type": null, "context": null, "children_spec": []}]}]')
    def with_scratch_constant(entries):
        """Non-persistent buffers are saved with the constants: one 8-byte record for it."""
        out = []
        for n, data in entries:
            if n.endswith("model_constants_config.json"):
                weights = json.loads(dict(entries)["counter.aten/data/weights/model_weights_config.json"])
                meta = copy.deepcopy(weights["config"]["count"])
                meta["path_name"] = "tensor_0"
                data = json.dumps({"config": {"scratch": meta}}).encode()
                out.append(("counter.aten/data/constants/tensor_0", bytes(8)))
            out.append((n, data))
        return out
    put("nativert-input-order", "bad_non_persistent_buffer_first.pt2",
        write_zip(with_scratch_constant(edit_program(base, transient))),
        ["note nativert-input-order input_specs[3]"],
        """A non-persistent buffer 'scratch' placed before the persistent 'count'. nativert's
        source refuses it; PyTorch 2.11 (torch.export.load and PyModelRunner) loads it: a note.""")

    token = members(TOKEN_PROGRAM)
    put("nativert-input-order", "bad_token_program.pt2", write_zip(token),
        ["warning nativert-input-order input_specs[0]"],
        """The device corpus' print_effect program (aten._print threads an effect token).
        Measured with PyTorch 2.11: torch.export.load loads and runs it; nativert's
        PyModelRunner refuses it ("Token inputs not implemented yet."): a warning.""")


def main():
    base = members(BASE)
    for folder in ("unsupported-schema-version", "aotinductor-package", "malformed-program",
                   "unsafe-archive-member", "suspicious-archive-layout",
                   "output-arity-matches-call-spec", "nativert-input-order", "schema-8x"):
        shutil.rmtree(os.path.join(HERE, folder), ignore_errors=True)
    schema_goldens(base)
    aoti_goldens()
    aoti_good_goldens(base)
    archive_goldens(base)
    unsafe_member_goldens(base)
    depth_goldens(base)
    nativert_goldens(base)
    schema_minor_goldens(base)
    make_hostile_goldens.main()  # issue 24's files share these folders: written after the wipe
    print(f"goldens written under {HERE}")


if __name__ == "__main__":
    main()
