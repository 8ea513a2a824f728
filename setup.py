"""Build hook for what pyproject.toml cannot say: ship the repo's data/ inside the wheel.

The package is discovered explicitly (spia_core and its subpackages only). The data/ folder
stays beside the repo in a checkout and is mapped into the wheel as ``spia_core/_data``;
``spia_core.paths.DATA_DIR`` finds whichever is there (see docs/install.md).
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["spia_core", "spia_core.*"]), "spia_core._data"],
    package_dir={"spia_core._data": "data"},
    package_data={"spia_core": ["prompts/*.txt"], "spia_core._data": ["**/*"]},
)
