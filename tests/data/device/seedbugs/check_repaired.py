"""Device check for `pt2lint fix` (docs/fix.md): PyTorch loads each seed bug repaired by
`pt2lint fix` and runs it for three decode steps against the clean program; the outputs of every
step and every buffer after every step must be equal (bit for bit: same graph, same weights).

    python3 tests/data/device/seedbugs/check_repaired.py      (from the repository root)

Inputs (committed): seedbugs/hf_llama_clean.aten.pt2 and seedbugs/repaired/*.fixed.pt2, made by
`pt2lint fix seedbugs/hf_llama__BUG.pt2 -o seedbugs/repaired/hf_llama__BUG.fixed.pt2`.
As a control, the unrepaired dropped_write_back program (which PyTorch runs) must differ from the
clean one, so the comparison is known to see a wrong buffer. Writes $OUT/check_repaired.json and
prints PASS or FAIL per file and overall.
"""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB = 90
STEPS = [(torch.tensor([[(i * 13 + 5) % VOCAB]]), torch.tensor([i])) for i in range(3)]
BUGS = ("pairing_by_position", "rename_one_side", "dropped_write_back")


def run(path):
    """Per step: the outputs and every buffer after the step."""
    module = torch.export.load(path).module()
    trace = []
    for input_ids, position in STEPS:
        out = module(input_ids.clone(), position.clone())
        buffers = {k: v.detach().clone() for k, v in module.named_buffers()}
        trace.append((out.detach().clone(), buffers))
    return trace


def compare(got, want):
    """A list of differences (empty when equal)."""
    diffs = []
    for step, ((out, bufs), (want_out, want_bufs)) in enumerate(zip(got, want)):
        if out.shape != want_out.shape or not torch.equal(out, want_out):
            diffs.append(f"step {step}: logits differ")
        if set(bufs) != set(want_bufs):
            diffs.append(f"step {step}: buffer names differ: {sorted(set(bufs) ^ set(want_bufs))[:4]}")
        for name in sorted(set(bufs) & set(want_bufs)):
            if bufs[name].shape != want_bufs[name].shape or not torch.equal(bufs[name], want_bufs[name]):
                diffs.append(f"step {step}: buffer {name} differs")
    return diffs


def main():
    torch.manual_seed(0)
    print("torch", torch.__version__)
    clean = run(os.path.join(HERE, "hf_llama_clean.aten.pt2"))
    results, ok = {}, True
    for bug in BUGS:
        path = os.path.join(HERE, "repaired", f"hf_llama__{bug}.fixed.pt2")
        try:
            diffs = compare(run(path), clean)
        except Exception as e:  # a load or run failure is a FAIL, with its message
            diffs = [f"{type(e).__name__}: {str(e)[:300]}"]
        results[bug] = {"equal_to_clean": not diffs, "differences": diffs[:10],
                        "buffers_compared": len(clean[0][1]), "steps": len(STEPS)}
        ok &= not diffs
        print(("PASS" if not diffs else "FAIL"), bug, "repaired: 3 steps, logits and",
              len(clean[0][1]), "buffers equal to the clean program" if not diffs else diffs[:3])
    try:
        control = compare(run(os.path.join(HERE, "hf_llama__dropped_write_back.pt2")), clean)
    except Exception as e:
        control = [f"{type(e).__name__}: {e}"]
    results["control_unrepaired_dropped_write_back"] = {"differences": control[:10]}
    print(("PASS" if control else "FAIL"), "control: the unrepaired dropped_write_back differs:", control[:2])
    ok &= bool(control)
    out = os.environ.get("OUT", ".")
    with open(os.path.join(out, "check_repaired.json"), "w") as f:
        json.dump(results, f, indent=1)
    print("PASS" if ok else "FAIL", "overall")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
