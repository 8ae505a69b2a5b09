"""python/tests/tap.py [MODULE...]: runs unittest test modules (default:
every python/tests/test_*.py) and prints one TAP line per test, "ok N - what
must hold" or "not ok N - ...", the sentence being the test's docstring, so
tests/run can count them.  Subtests that fail are reported as failures of
their test.  Exits 1 when anything failed."""
import os
import sys
import unittest


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0
        self.failed_ids = {}

    @staticmethod
    def what(test):
        doc = getattr(test, "_testMethodDoc", None) or str(test)
        return " ".join(doc.split())

    def report(self, test, ok, detail=""):
        self.n += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", self.n,
                              self.what(test)), flush=True)
        for line in detail.splitlines()[-25:]:
            print("#   " + line, flush=True)

    def addSuccess(self, test):
        super().addSuccess(test)
        if test.id() in self.failed_ids:
            self.report(test, False, self.failed_ids.pop(test.id()))
        else:
            self.report(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.report(test, False, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self.report(test, False, self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        print("ok %d - %s # SKIP %s" % (self.n + 1, self.what(test), reason))
        self.n += 1

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            old = self.failed_ids.get(test.id(), "")
            self.failed_ids[test.id()] = old + str(subtest) + "\n" + \
                self._exc_info_to_string(err, subtest)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    loader = unittest.TestLoader()
    if argv:
        suite = unittest.TestSuite(loader.loadTestsFromName(a) for a in argv)
    else:
        suite = loader.discover(here, pattern="test_*.py", top_level_dir=here)
    result = TapResult()
    suite.run(result)
    print("1..%d" % result.n)
    return 0 if result.wasSuccessful() and not result.failed_ids else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
