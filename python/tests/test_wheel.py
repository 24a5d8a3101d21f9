"""The wheel itself: its tag, its files, the binary's libraries, the console script and
`python -m pt2lint`, and the cost of `import pt2lint`."""

import re
import subprocess
import zipfile

from conftest import DEMO, needs_tool


def test_wheel_tag_is_interpreter_independent_manylinux(installed):
    assert re.fullmatch(r"pt2lint-0\.1\.0-py3-none-manylinux_2_\d+_x86_64\.whl", installed.wheel.name)
    assert installed.wheel.stat().st_size < 16 * 1024 * 1024
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = wheel.namelist()
        info = wheel.read("pt2lint-0.1.0.dist-info/WHEEL").decode()
        entry_points = wheel.read("pt2lint-0.1.0.dist-info/entry_points.txt").decode()
    assert "Root-Is-Purelib: false" in info
    assert re.search(r"^Tag: py3-none-manylinux_2_\d+_x86_64$", info, re.M)
    for name in ("pt2lint/__init__.py", "pt2lint/_bin/pt2lint", "pt2lint/testing.py", "pt2lint/pytest_plugin.py"):
        assert name in names
    assert "pt2lint = pt2lint.__main__:main" in entry_points
    # The release artifact carries its license and a long description that stands alone.
    assert "pt2lint-0.1.0.dist-info/LICENSE" in names
    with zipfile.ZipFile(installed.wheel) as wheel:
        license_text = wheel.read("pt2lint-0.1.0.dist-info/LICENSE").decode()
        metadata = wheel.read("pt2lint-0.1.0.dist-info/METADATA").decode()
    assert license_text.startswith("BSD 3-Clause License")
    assert re.search(r"^License: BSD-3-Clause$", metadata, re.M)
    description = metadata.split("\n\n", 1)[1]
    for heading in ("## Install", "## Quickstart", "## The three uses"):
        assert heading in description
    assert "the project README" not in description and "github.com/pt2lint" not in description
    assert "[pytest11]" in entry_points and "pt2lint = pt2lint.pytest_plugin" in entry_points


@needs_tool("objdump")
def test_glibc_floor_in_the_tag_covers_every_shipped_elf_file(installed):
    floor = tuple(map(int, re.search(r"manylinux_(\d+)_(\d+)", installed.wheel.name).groups()))
    files = [installed.site / "pt2lint" / "_bin" / "pt2lint", *(installed.site / "pt2lint" / "_bin" / "lib").iterdir()]
    for file in files:
        symbols = subprocess.run(["objdump", "-T", str(file)], capture_output=True, text=True, check=True).stdout
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", symbols):
            assert (int(major), int(minor)) <= floor, f"{file.name} needs GLIBC_{major}.{minor}"


@needs_tool("readelf")
def test_binary_loads_only_glibc_from_the_system(binary, installed):
    rpath = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
    assert "$ORIGIN/lib" in rpath
    ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    assert "not found" not in ldd
    lib_dir = str((installed.site / "pt2lint" / "_bin" / "lib").resolve())
    glibc = ("libc.so", "libm.so", "ld-linux", "linux-vdso", "libpthread", "libdl.so", "librt.so")
    for line in ldd.splitlines():
        if "=>" in line and not any(name in line for name in glibc):
            assert lib_dir in line, f"loaded from the system, not the wheel: {line.strip()}"


def test_console_script_runs_the_binary(installed, clean_pt2, broken_pt2):
    clean = subprocess.run([str(installed.bin / "pt2lint"), "check", str(clean_pt2)], capture_output=True, text=True)
    assert clean.returncode == 0, clean.stderr
    broken = subprocess.run([str(installed.bin / "pt2lint"), "check", str(broken_pt2)], capture_output=True, text=True)
    assert broken.returncode == 1
    assert "[PT204 mutation-target-resolves]" in broken.stdout


def test_python_dash_m_runs_the_binary(installed, broken_pt2):
    run = subprocess.run([str(installed.python), "-m", "pt2lint", "check", str(broken_pt2), "--format", "json"],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert '"rule": "PT204"' in run.stdout
    usage = subprocess.run([str(installed.python), "-m", "pt2lint", "check"], capture_output=True, text=True)
    assert usage.returncode == 2


def _best_of(python, code, runs=15):
    """The least CPU time (user + system) of `python -c code` over `runs` runs: CPU time, not
    wall time, so that a loaded machine (CI beside other jobs, parallel builds) does not fail the
    bound while an import that does more work still does."""
    import resource

    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([str(python), "-c", code], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def test_import_costs_under_50_ms_and_never_imports_torch(installed, tmp_path):
    # A `torch` that fails loudly when imported: neither the import nor a check of a file
    # may touch it.
    fake = tmp_path / "fake" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise RuntimeError('pt2lint imported torch')\n")
    env_code = (
        "import sys; sys.path.insert(0, %r); import pt2lint; r = pt2lint.check(%r); "
        "assert 'torch' not in sys.modules; print(r.ok)" % (str(fake.parent), str(DEMO / "kv_cache_clean.pt2"))
    )
    out = subprocess.run([str(installed.python), "-c", env_code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr
    baseline = _best_of(installed.python, "pass")
    with_import = _best_of(installed.python, "import pt2lint")
    print(f"python -c pass: {baseline * 1000:.1f} ms of CPU; import pt2lint: {with_import * 1000:.1f} ms of CPU")
    assert with_import - baseline < 0.050
