#!/usr/bin/env python3
"""Writers that cannot be redirected or lose data (issue 24), through the real CLI:

    python3 tests/hostile/check_writers.py PT2LINT CORPUS WORK_DIR

1. A symbolic link planted at OUT (check -o, lower -o, fix -o, --update-baseline) is never
   followed: exit 2, the link's target unchanged, nothing left in the folder.
2. Links planted at the temporary names pt2lint used before (OUT.pt2lint-tmp,
   .pt2lint-fix-OUT) are never written through.
3. An output that is a FIFO is refused at once (no hang).
4. `lower IN.json -o IN.json` with `ulimit -f` too small for the output: the write fails, the
   input is byte-for-byte as it was, and no temporary is left.
5. 8 concurrent `check -o OUT` and 8 concurrent `lower -o OUT.pt2` runs: OUT is one whole
   output (it parses, and equals a single run's), each run exits 0/1 or with a clear error.
"""
import concurrent.futures
import json
import os
import resource
import shutil
import subprocess
import sys
import zipfile

PT2LINT, CORPUS, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
PROGRAM = os.path.join(CORPUS, "base", "counter.aten.pt2")
failures = []


def run(args, limit=None):
    def preexec():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([PT2LINT, *args], capture_output=True, text=True, timeout=60,
                          preexec_fn=preexec)


def expect(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def fresh(name):
    folder = os.path.join(WORK, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def read(path):
    with open(path, "rb") as f:
        return f.read()


def links_at_output():
    for name, args in [
        ("check", ["check", PROGRAM, "--format", "json", "-o"]),
        ("lower", ["lower", PROGRAM, "-o"]),
        ("baseline", ["check", PROGRAM, "--update-baseline", "--baseline"]),
    ]:
        folder = fresh("link_" + name)
        victim = os.path.join(folder, "victim")
        with open(victim, "w") as f:
            f.write("precious")
        out = os.path.join(folder, "out.pt2" if name == "lower" else "out.json")
        os.symlink(victim, out)
        r = run(args + [out])
        expect(r.returncode == 2 and "symbolic link" in r.stderr + r.stdout,
               f"{name}: a link at OUT is refused (exit {r.returncode}: {(r.stderr + r.stdout).strip()[:120]})")
        expect(read(victim) == b"precious", f"{name}: the link's target is unchanged")
        expect(sorted(os.listdir(folder)) == sorted(["victim", os.path.basename(out)]),
               f"{name}: nothing left behind ({os.listdir(folder)})")


def links_at_old_temporary_names():
    folder = fresh("old_temporaries")
    victim = os.path.join(folder, "victim")
    with open(victim, "w") as f:
        f.write("precious")
    out = os.path.join(folder, "out.pt2")
    for planted in (out + ".pt2lint-tmp", os.path.join(folder, ".pt2lint-fix-out.pt2")):
        os.symlink(victim, planted)
    r = run(["lower", PROGRAM, "-o", out])
    expect(r.returncode in (0, 1) and zipfile.is_zipfile(out), f"lower writes OUT beside planted links (exit {r.returncode})")
    expect(read(victim) == b"precious", "links at the old temporary names are never written through")


def fifo_output():
    folder = fresh("fifo")
    out = os.path.join(folder, "out.json")
    os.mkfifo(out)
    r = run(["check", PROGRAM, "--format", "json", "-o", out])
    expect(r.returncode == 2 and "FIFO" in r.stderr, f"a FIFO at OUT is refused at once (exit {r.returncode})")


def full_disk():
    folder = fresh("full_disk")
    program = os.path.join(folder, "program.json")
    with zipfile.ZipFile(PROGRAM) as z:
        data = z.read("counter.aten/models/model.json")
    with open(program, "wb") as f:
        f.write(data)
    r = run(["lower", program, "-o", program], limit=2048)
    expect(r.returncode != 0, f"lower IN -o IN under ulimit -f fails (exit {r.returncode}: {r.stderr.strip()[:120]})")
    expect(read(program) == data, "the input survives the full disk byte for byte")
    expect(os.listdir(folder) == ["program.json"], f"no temporary left ({os.listdir(folder)})")


def concurrent_runs():
    folder = fresh("concurrent")
    out = os.path.join(folder, "out.json")
    single = run(["check", os.path.join(CORPUS, "base"), "--format", "json"]).stdout
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        runs = list(pool.map(lambda _: run(["check", os.path.join(CORPUS, "base"), "--format", "json",
                                            "-o", out]), range(8)))
    expect(all(r.returncode in (0, 1, 2) for r in runs), "8 concurrent check -o runs end")
    expect(all(r.returncode in (0, 1) or "cannot" in r.stderr for r in runs), "each says why when it fails")
    expect(read(out).decode() == single and json.loads(read(out)) is not None,
           "OUT is one whole report, equal to a single run's")
    out_pt2 = os.path.join(folder, "out.pt2")
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        runs = list(pool.map(lambda _: run(["lower", PROGRAM, "-o", out_pt2]), range(8)))
    expect(all(r.returncode in (0, 1, 2) for r in runs), "8 concurrent lower -o runs end")
    with zipfile.ZipFile(out_pt2) as z:
        expect(z.testzip() is None, "OUT.pt2 is one whole archive")
    expect(sorted(os.listdir(folder)) == ["out.json", "out.pt2"], f"nothing left behind ({os.listdir(folder)})")


def main():
    os.makedirs(WORK, exist_ok=True)
    links_at_output()
    links_at_old_temporary_names()
    fifo_output()
    full_disk()
    concurrent_runs()
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)


if __name__ == "__main__":
    main()
