"""The wheel holds a compiled binary but no Python extension: it is tagged
py3-none-manylinux_<glibc floor>_x86_64, with the floor that tools/stage_binary.py measured
on the binary and the libraries shipped beside it (platform_tag.txt)."""

from pathlib import Path

from setuptools import setup
from setuptools.dist import Distribution
from wheel.bdist_wheel import bdist_wheel


class BinaryDistribution(Distribution):
    """Platform-specific: the package goes to platlib, at the wheel's root."""

    def has_ext_modules(self):
        return True


class BinaryWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        tag_file = Path(__file__).resolve().parent / "platform_tag.txt"
        if not tag_file.is_file():
            raise SystemExit("platform_tag.txt is missing: build the wheel with `make wheel`")
        return "py3", "none", tag_file.read_text().strip()


setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": BinaryWheel})
