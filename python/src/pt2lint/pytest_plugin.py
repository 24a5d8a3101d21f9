"""pytest plugin (registered through the ``pytest11`` entry point).

``pytest --pt2lint`` collects every ``*.pt2`` under the test paths as one test item that
fails with pt2lint's text report, like pytest-ruff or pytest-mypy. ``--pt2lint-select`` and
``--pt2lint-ignore`` filter the rules, ``--pt2lint-baseline FILE`` accepts the findings of a
baseline; config comes from ``pyproject.toml``
``[tool.pt2lint]`` (found the way the CLI finds it, from each file upward). The
``pt2lint`` fixture gives a test ``pt2lint.testing``.

pytest loads this module in every run where pt2lint is installed: it imports nothing of
pt2lint until a .pt2 item runs."""

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("pt2lint", "pt2lint: static checks of exported PyTorch programs")
    group.addoption("--pt2lint", action="store_true", default=False,
                    help="check every *.pt2 file under the test paths with pt2lint")
    group.addoption("--pt2lint-select", default=None, metavar="RULES",
                    help="only these rules (comma-separated IDs, ID prefixes or names)")
    group.addoption("--pt2lint-ignore", default=None, metavar="RULES",
                    help="skip these rules (comma-separated IDs, ID prefixes or names)")
    group.addoption("--pt2lint-baseline", default=None, metavar="FILE",
                    help="findings in this baseline file do not fail (pt2lint check --baseline); "
                         "a file that does not exist yet reads as empty")


def pytest_configure(config):
    config.addinivalue_line("markers", "pt2lint: a pt2lint check of a .pt2 file")


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".pt2" and parent.config.getoption("pt2lint"):
        return Pt2File.from_parent(parent, path=file_path)
    return None


class Pt2lintFindings(Exception):
    """The check found errors; carries the report for repr_failure."""

    def __init__(self, report):
        super().__init__(str(report))
        self.report = report


class Pt2File(pytest.File):
    def collect(self):
        item = Pt2Item.from_parent(self, name="pt2lint")
        item.add_marker("pt2lint")
        yield item


def _rules(value):
    return [part.strip() for part in value.split(",") if part.strip()] if value else None


class Pt2Item(pytest.Item):
    def runtest(self):
        import pt2lint

        config = self.config
        try:
            report = pt2lint.check(
                self.path,
                select=_rules(config.getoption("pt2lint_select")),
                ignore=_rules(config.getoption("pt2lint_ignore")),
                baseline=config.getoption("pt2lint_baseline"),
            )
        except pt2lint.Pt2lintError as error:
            raise Pt2lintFindings(str(error)) from None
        if not report.ok:
            raise Pt2lintFindings(report)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, Pt2lintFindings):
            return str(excinfo.value.report)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"pt2lint {self.path.name}"


@pytest.fixture
def pt2lint():
    """pt2lint.testing: assert_clean, assert_contract_kept, assert_same_state."""
    import pt2lint.testing

    return pt2lint.testing
