"""Defects made here, from files PyTorch wrote on the device, where the device pass failed
(PyTorch cannot deepcopy the in-memory ATEN fp8 program after running it; see labels.json):

- fp8_observers__swapped_write_backs.aten.pt2: the BUFFER_MUTATION targets of the two (1,)-shaped
  amax observers of fp8_observers.aten.pt2 exchanged, the edit a pass over
  ep.graph_signature.output_specs makes. Not judged by PyTorch (made off the device).

    python3 make_local_defects.py        (in this folder)"""
import json
import zipfile

SRC, DST = "fp8_observers.aten.pt2", "fp8_observers__swapped_write_backs.aten.pt2"
with zipfile.ZipFile(SRC) as zin:
    members = [(info, zin.read(info.filename)) for info in zin.infolist()]
with zipfile.ZipFile(DST, "w", compression=zipfile.ZIP_STORED) as zout:
    for info, data in members:
        name = info.filename.replace("fp8_observers.aten/", "fp8_observers__swapped_write_backs.aten/")
        if name.endswith("models/model.json"):
            program = json.loads(data)
            specs = program["graph_module"]["signature"]["output_specs"]
            targets = {"amax_x": "amax_w", "amax_w": "amax_x"}
            for spec in specs:
                if "buffer_mutation" in spec and spec["buffer_mutation"]["buffer_name"] in targets:
                    spec["buffer_mutation"]["buffer_name"] = targets[spec["buffer_mutation"]["buffer_name"]]
            data = json.dumps(program).encode()
        zout.writestr(name, data)
print("wrote", DST)
