#!/usr/bin/env python3
"""Archives only the device judges (no golden: what pt2lint should say follows from PyTorch's
verdict, recorded in docs/reliability.md). From corpus/base/counter.aten.pt2:

    python3 make_device_extras.py CORPUS OUT_DIR
"""
import os
import sys
import zipfile

DATE = (2024, 1, 1, 0, 0, 0)


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with zipfile.ZipFile(os.path.join(corpus, "base", "counter.aten.pt2")) as z:
        base = [(i.filename, z.read(i.filename)) for i in z.infolist()]

    def write(name, entries):
        with zipfile.ZipFile(os.path.join(out, name), "w") as z:
            for n, d in entries:
                z.writestr(zipfile.ZipInfo(n, DATE), d)

    write("extra_weights_config_bom.pt2",
          [(n, b"\xef\xbb\xbf" + d if n.endswith("model_weights_config.json") else d) for n, d in base])
    write("extra_models_folder_uppercase_only.pt2",
          [(n.replace("/models/", "/MODELS/"), d) for n, d in base])
    write("extra_weights_config_duplicate_key.pt2",
          [(n, d.replace(b'{"config": {', b'{"config": {}, "config": {', 1)
            if n.endswith("model_weights_config.json") else d) for n, d in base])
    write("extra_nested_models_entry.pt2", base + [("counter.aten/models/sub/x.json", b"{}")])


if __name__ == "__main__":
    main()
