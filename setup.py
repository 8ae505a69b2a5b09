"""setup.py: the C half of `pip install .` (pyproject.toml has the rest).

Builds build/libpuzzletb.a with make (the library and its build-time
tables), then compiles python/_puzzletb.c against it, linked statically as
`make python` does.  The module's default tables directory is
$PUZZLETB_TABLESDIR at build time, else /usr/local/share/puzzletb/tables,
where `make install` puts the tables by default.  Build files go under
build/setuptools."""
import os
import re
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = open(os.path.join(HERE, "lib", "puzzletb.h")).read()
VERSION = re.search(r'#define PTB_VERSION_STRING "([^"]+)"', HEADER).group(1)
TABLESDIR = os.environ.get("PUZZLETB_TABLESDIR",
                           "/usr/local/share/puzzletb/tables")


class BuildExt(build_ext):
    """build_ext that makes libpuzzletb.a first."""

    def run(self):
        subprocess.run(["make", "-C", HERE, "build/libpuzzletb.a"],
                       check=True)
        super().run()


os.makedirs(os.path.join(HERE, "build", "setuptools"), exist_ok=True)
setup(
    version=VERSION,
    ext_modules=[Extension(
        "puzzletb._puzzletb", ["python/_puzzletb.c"],
        include_dirs=["lib"],
        define_macros=[("PTB_TABLES_DIR", '"%s"' % TABLESDIR)],
        extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wpedantic"],
        extra_objects=["build/libpuzzletb.a"],
        libraries=["lmdb", "zstd", "pthread"],
        depends=["lib/puzzletb.h", "build/libpuzzletb.a"])],
    cmdclass={"build_ext": BuildExt},
    options={"build": {"build_base": "build/setuptools"},
             "egg_info": {"egg_base": "build/setuptools"}},
)
