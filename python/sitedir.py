"""python/sitedir.py PREFIX: prints the directory under PREFIX where this
Python finds installed packages, as `make install` needs it.  Debian's
python3 reads /usr/lib/python3/dist-packages (its own packages, the
'deb_system' scheme) and PREFIX/lib/python3.X/dist-packages for any other
prefix it searches (/usr/local); elsewhere the same layout is used and
PYTHONPATH must name it."""
import sys
import sysconfig

prefix = sys.argv[1] if len(sys.argv) > 1 else "/usr/local"
paths = {"base": prefix, "platbase": prefix}
if prefix == "/usr" and "deb_system" in sysconfig.get_scheme_names():
    print(sysconfig.get_path("platlib", "deb_system", vars=paths))
else:
    lib = sysconfig.get_path("platlib", "posix_prefix", vars=paths)
    print(lib.replace("site-packages", "dist-packages"))
