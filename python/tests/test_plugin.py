"""The pytest plugin, run through pytester: `pytest --pt2lint` on a clean and a broken .pt2,
its filters, pyproject config, and the `pt2lint` fixture. The plugin is found through the
installed wheel's pytest11 entry point (the `pkg` fixture puts the venv on sys.path)."""

import shutil

import pytest


@pytest.fixture
def project(pytester, pkg, clean_pt2, broken_pt2):
    shutil.copy(clean_pt2, pytester.path / "clean.pt2")
    shutil.copy(broken_pt2, pytester.path / "broken.pt2")
    return pytester


def test_collects_every_pt2_and_fails_the_broken_one(project):
    result = project.runpytest("--pt2lint", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    assert result.ret == 1
    result.stdout.fnmatch_lines([
        "*broken.pt2:model: error: output_specs?0? is a buffer_mutation of*PT204 mutation-target-resolves*",
        "*fix: set the target to `layers.0.self_attn.kv_cache.k_cache`",
        "*FAILED broken.pt2::pt2lint*",
    ])


def test_off_without_the_option(project):
    result = project.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_select_and_ignore(project):
    project.runpytest("--pt2lint", "--pt2lint-ignore", "PT204,PT303").assert_outcomes(passed=2)
    project.runpytest("--pt2lint", "--pt2lint-select", "PT1,PT4").assert_outcomes(passed=2)
    project.runpytest("--pt2lint", "--pt2lint-select", "PT2").assert_outcomes(passed=1, failed=1)


def test_baseline_option(project):
    project.runpytest("--pt2lint", "--pt2lint-baseline", "accepted.json").assert_outcomes(passed=1, failed=1)
    import subprocess

    import pt2lint

    # The plugin checks each file by its absolute path, which the fingerprints hold.
    subprocess.run([pt2lint.find_pt2lint_bin(), "check", str(project.path / "broken.pt2"), "--baseline",
                    "accepted.json", "--update-baseline"], cwd=project.path, capture_output=True, check=False)
    project.runpytest("--pt2lint", "--pt2lint-baseline", "accepted.json").assert_outcomes(passed=2)


def test_config_from_pyproject(project):
    project.makepyprojecttoml('[tool.pt2lint]\nignore = ["mutation-target-resolves", "buffer-write-has-write-back"]\n')
    project.runpytest("--pt2lint").assert_outcomes(passed=2)


def test_marker_selects_the_checks(project):
    project.makepyfile(test_other="def test_other():\n    pass\n")
    project.runpytest("--pt2lint", "-m", "pt2lint").assert_outcomes(passed=1, failed=1, deselected=1)


def test_fixture_gives_pt2lint_testing(project):
    project.makepyfile(
        test_oracle="""
        def test_clean(pt2lint):
            pt2lint.assert_clean("clean.pt2")

        def test_broken(pt2lint):
            pt2lint.assert_clean("broken.pt2")

        def test_contract(pt2lint):
            pt2lint.assert_contract_kept("clean.pt2", "clean.pt2")

        def test_contract_broken(pt2lint):
            pt2lint.assert_contract_kept("clean.pt2", "broken.pt2")
        """
    )
    result = project.runpytest("test_oracle.py")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines([
        "*AssertionError: pt2lint found 1 error(s):*",
        "*PT204 mutation-target-resolves*",
    ])
    result.stdout.fnmatch_lines(["*breaks * promise(s) of the original's mutation contract*"])
