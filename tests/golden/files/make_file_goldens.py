#!/usr/bin/env python3
"""Builds the golden files of issue 13 (files PyTorch writes, archives that lie) from corpus
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
import struct
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CORPUS = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared", "corpus"))
BASE = os.path.join(CORPUS, "base", "counter.aten.pt2")
LEGACY = os.path.join(CORPUS, "legacy", "counter.pt2")
TOKEN_PROGRAM = os.path.join(REPO, "tests", "data", "device", "subgraphs", "print_effect.aten.pt2")
DATE = (2024, 1, 1, 0, 0, 0)
TORCH_MAX_OUT_SPEC_NESTING = 984  # measured: tests/data/device/measurements/measurements.json


# ------------------------------------------------------------------ archives as members
def members(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def write_zip(entries, method=zipfile.ZIP_STORED, methods=None):
    """Bytes of a zip holding `entries` [(name, bytes)] in order, with fixed dates."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = (methods or {}).get(name, method)
            z.writestr(info, data)
    return bytearray(buf.getvalue())


def program_member(entries):
    return next(n for n, _ in entries if "/models/" in n and n.endswith(".json"))


def edit_program(entries, edit):
    """entries with the program JSON replaced by edit(doc) (which may return a new doc)."""
    name = program_member(entries)
    out = []
    for n, data in entries:
        if n == name:
            doc = json.loads(data)
            doc = edit(doc) or doc
            data = json.dumps(doc).encode()
        out.append((n, data))
    return out


# ------------------------------------------------------------------ raw central directory
def central_directory(blob):
    """[(record offset, fields)] of each central-directory record, and the EOCD offset."""
    eocd = blob.rfind(b"PK\x05\x06")
    count, size, start = struct.unpack_from("<HII", blob, eocd + 10)
    records, at = [], start
    for _ in range(count):
        method, = struct.unpack_from("<H", blob, at + 10)
        csize, usize, nlen, xlen, clen = struct.unpack_from("<IIHHH", blob, at + 20)
        local, = struct.unpack_from("<I", blob, at + 42)
        name = bytes(blob[at + 46:at + 46 + nlen]).decode()
        records.append({"pos": at, "name": name, "method": method, "local": local,
                        "csize": csize, "len": 46 + nlen + xlen + clen})
        at += 46 + nlen + xlen + clen
    return records, eocd


def record(blob, suffix):
    records, _ = central_directory(blob)
    return next(r for r in records if r["name"].endswith(suffix))


def append_directory_entry(blob, copy_of, new_name, local):
    """A new central-directory record, a copy of `copy_of`'s with another name and offset."""
    records, eocd = central_directory(blob)
    count, size, start = struct.unpack_from("<HII", blob, eocd + 10)
    raw = bytearray(blob[copy_of["pos"]:copy_of["pos"] + 46])
    struct.pack_into("<HHHI", raw, 28, len(new_name), 0, 0, 0)  # name, extra, comment lengths
    struct.pack_into("<I", raw, 42, local)
    raw += new_name.encode()
    directory_end = start + size
    out = blob[:directory_end] + raw + blob[directory_end:]
    eocd += len(raw)
    struct.pack_into("<HHI", out, eocd + 8, count + 1, count + 1, size + len(raw))
    return out


# ------------------------------------------------------------------ goldens
def put(folder, name, data, expect_lines, comment):
    path = os.path.join(HERE, folder)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(bytes(data))
    with open(os.path.join(path, name + ".expect"), "w") as f:
        for line in comment.strip().splitlines():
            line = line.strip()
            f.write(f"# ignore-rules:{line[len('IGNORE'):]}\n" if line.startswith("IGNORE")
                    else f"# {line}\n")
        for line in expect_lines or ["none"]:
            f.write(f"# expect: {line}\n")


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

    deflated = write_zip(base, methods={program_member(base): zipfile.ZIP_DEFLATED})
    put("suspicious-archive-layout", "good_deflated_program.pt2", deflated, [],
        """The program JSON deflated instead of stored. Measured with PyTorch 2.11: loads and
        runs. No finding.""")


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
        with_depth(TORCH_MAX_OUT_SPEC_NESTING + 1), [f"error output-arity-matches-call-spec {path}"],
        f"""{TORCH_MAX_OUT_SPEC_NESTING + 1} tuples: torch.export.load refuses it (measured with
        PyTorch 2.11). An error.""")
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


# ------------------------------------------------------------------ schema 8.x history
# What each schema minor added, from torch/_export/serde/schema.py at these commits (the
# newest read first); docs/schema-versions.md has the full table.
SCHEMA_SOURCES = {
    "8.2": "ZainRizvi/pytorch 00ef9a22bf688d3ebaf8252e1a67159eee087a1a",
    "8.6": "paolodedios/pytorch c2093ad89a54303239f765be569f343ce4ca9070",
    "8.8": "ROCm/pytorch 10b22ea5c6a60ffa85520eb2d293affc48cea8ee (merge side 5729657180)",
    "8.14": "ROCm/pytorch 10b22ea5c6a60ffa85520eb2d293affc48cea8ee (HEAD side)",
    "8.17": "pytorch/pytorch 011a299df29b9858f57c23669ecf317f7da6d775",
    "8.20": "cyyever/pytorch 2ef3b7f058b6a63a0f7255d3624fd80347e1bfac",
}


def schema_minor_goldens(base):
    doc = json.loads(dict(base)[program_member(base)])

    def graph(d):
        return d["graph_module"]["graph"]

    def version(d, v):
        major, minor = v.split(".")
        d["schema_version"] = {"major": int(major), "minor": int(minor)}

    def dtype(d, value, update=None):
        graph(d)["tensor_values"]["b_count"]["dtype"] = value
        graph(d)["tensor_values"]["add"]["dtype"] = value if update is None else update

    def extra_arg(d, arg):  # a keyword argument on the last node (mul)
        graph(d)["nodes"][3]["inputs"].append({"name": "extra", "arg": arg, "kind": 2})

    def before_8_17(d):  # Node.name, guards_code and treespec_namedtuple_fields came later
        for n in graph(d)["nodes"]:
            n.pop("name", None)
        d.pop("guards_code", None)
        d["graph_module"].pop("treespec_namedtuple_fields", None)

    def before_8_6(d):  # NamedArgument.kind, is_hop_single_tensor_return, sym floats came in 8.6
        before_8_17(d)
        for n in graph(d)["nodes"]:
            n.pop("is_hop_single_tensor_return", None)
            for i in n["inputs"]:
                i.pop("kind", None)
        graph(d).pop("sym_float_values", None)

    cases = {
        "8.2": ("UINT16 (28) dtype; RangeConstraint bounds may be null; forward_arg_names; "
                "None written as []",
                lambda d: (before_8_6(d), dtype(d, 28),
                           d.update(range_constraints={"s0": {"min_val": 2, "max_val": None}}),
                           extra_arg(d, {"as_none": []})),
                lambda d: (before_8_6(d), dtype(d, 28, update=5)),
                "error mutation-shape-matches-target output_specs[0]",
                "the uint16 buffer is written back with an int64 value"),
        "8.6": ("FLOAT8 e4m3fn/e5m2 (29, 30); SymFloat, sym_float_values, as_sym_float(s); "
                "NamedArgument.kind; Node.is_hop_single_tensor_return; None as a bool",
                lambda d: (before_8_17(d), dtype(d, 29),
                           graph(d)["nodes"][3]["inputs"].__setitem__(
                               1, {"name": "other", "arg": {"as_sym_float": {"as_float": 2.0}}, "kind": 1}),
                           extra_arg(d, {"as_none": True})),
                lambda d: (before_8_17(d), graph(d)["nodes"][3]["inputs"].__setitem__(
                    1, {"name": "other", "arg": {"as_sym_float": {"as_name": "zuf0"}}, "kind": 1})),
                "error value-defined-before-use node:mul",
                "mul reads a symbolic float `zuf0` that nothing defines"),
        "8.8": ("Argument.as_optional_tensor",
                lambda d: (before_8_17(d), extra_arg(d, {"as_optional_tensor": {"as_tensor": {"name": "add"}}})),
                lambda d: (before_8_17(d), extra_arg(d, {"as_optional_tensor": {"as_tensor": {"name": "ghost"}}})),
                "error value-defined-before-use node:mul",
                "an optional tensor argument names `ghost`, which nothing defines"),
        "8.14": ("FLOAT8 fnuz (31, 32); as_complex; OutputSpec.parameter_mutation; "
                 "treespec_namedtuple_fields; guards_code",
                 lambda d: (before_8_17(d), dtype(d, 31),
                            d.update(guards_code=["L['x'].size()[0] == 4"]),
                            d["graph_module"].update(treespec_namedtuple_fields={}),
                            graph(d)["nodes"][3]["inputs"].__setitem__(
                                1, {"name": "other", "arg": {"as_complex": {"real": 2.0, "imag": 0.0}}, "kind": 1})),
                 lambda d: (before_8_17(d), d["graph_module"]["signature"]["output_specs"].__setitem__(
                     0, {"parameter_mutation": {"arg": {"name": "add"}, "parameter_name": "count"}})),
                 "error mutation-target-resolves output_specs[0]",
                 "a parameter_mutation names `count`, which is a buffer"),
        "8.17": ("Node.name; as_nested_tensors, as_int_lists, as_string_to_argument",
                 lambda d: (extra_arg(d, {"as_int_lists": [[1, 2], [3]]}),
                            graph(d)["nodes"][2]["inputs"].append(
                                {"name": "nested", "arg": {"as_nested_tensors": [[{"name": "x"}]]}, "kind": 2}),
                            graph(d)["nodes"][1]["inputs"].append(
                                {"name": "kw", "arg": {"as_string_to_argument": {"t": {"as_tensor": {"name": "x"}}}}, "kind": 2})),
                 lambda d: extra_arg(d, {"as_string_to_argument": {"t": {"as_tensor": {"name": "ghost"}}}}),
                 "error value-defined-before-use node:mul",
                 "a string-to-argument map holds `ghost`, which nothing defines"),
        "8.20": ("FLOAT8E8M0FNU (33), UINT32 (34), UINT64 (35); Argument.as_float_lists",
                 lambda d: (dtype(d, 35), extra_arg(d, {"as_float_lists": [[1.0, 2.0], [3.0]]})),
                 lambda d: dtype(d, 35, update=34),
                 "error mutation-shape-matches-target output_specs[0]",
                 "the uint64 buffer is written back with a uint32 value"),
    }
    for v, (added, good, bad, expect, why) in cases.items():
        tag = v.replace(".", "_")
        for kind, edit, lines, what in (("good", good, [], "reads clean"),
                                        ("bad", bad, [expect], f"is caught: {why}")):
            d = copy.deepcopy(doc)
            version(d, v)
            edit(d)
            comment = f"""corpus/base/counter.aten.pt2's program as schema {v} writes it.
            {v} added: {added} (torch/_export/serde/schema.py at {SCHEMA_SOURCES[v]}).
            What {v} added {what}.
            ignore-rules: state-dict-mismatch"""
            put("schema-8x", f"{kind}_{tag}.json", json.dumps(d, indent=1).encode(), lines,
                comment.replace("ignore-rules:", "IGNORE"))


def main():
    base = members(BASE)
    for folder in ("unsupported-schema-version", "aotinductor-package", "malformed-program",
                   "suspicious-archive-layout", "output-arity-matches-call-spec",
                   "nativert-input-order", "schema-8x"):
        shutil.rmtree(os.path.join(HERE, folder), ignore_errors=True)
    schema_goldens(base)
    aoti_goldens()
    archive_goldens(base)
    depth_goldens(base)
    nativert_goldens(base)
    schema_minor_goldens(base)
    print(f"goldens written under {HERE}")


if __name__ == "__main__":
    main()
