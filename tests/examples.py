#!/usr/bin/env python3
"""tests/examples.py: runs the command examples of a document and checks
the output it shows.

    tests/examples.py [--long] FILE...

An example is a line of an indented code block that begins with '$ ': the
command, run by sh from the top of the tree, its standard output and error
together; the lines after it, up to a blank line or the next '$ ' line,
are the output shown.  A line '...' stands for any number of lines left
out.  A block right after a line '<!-- examples: long -->' builds
something big and runs only with --long; after '<!-- examples: not run:
WHY -->' it is shown, never run (a cluster, a server on a given port).

Prints a TAP line an example ("ok N - FILE:LINE: COMMAND") and, for one
that fails, what it printed against what the document shows."""
import os
import re
import subprocess
import sys

MARK = re.compile(r'<!--\s*examples:\s*(long|not run)\b.*-->')


def examples(path):
    """(line, command, shown output, mark) of every example of path."""
    lines = open(path, encoding='utf-8').read().split('\n')
    out, pending, mark, in_block, i = [], None, None, False, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('    ') and not in_block:
            in_block, mark, pending = True, pending, None
        elif line.strip() and not line.startswith('    '):
            in_block = False
            m = MARK.search(line)
            pending = m.group(1) if m else None
        if line.startswith('    $ '):
            cmd, shown, j = line[6:], [], i + 1
            while j < len(lines) and lines[j].startswith('    ') and \
                    not lines[j].startswith('    $ '):
                shown.append(lines[j][4:])
                j += 1
            out.append((i + 1, cmd, shown, mark))
            i = j
            continue
        i += 1
    return out


def matches(got, shown):
    """Whether the lines got are the lines shown, '...' any run of lines."""
    if not shown:
        return not got
    if shown[0] == '...':
        return any(matches(got[k:], shown[1:]) for k in range(len(got) + 1))
    return bool(got) and got[0] == shown[0] and matches(got[1:], shown[1:])


# An example runs as a reader types it in a shell of their own: without
# what make passes its children (a make the example runs would otherwise
# join the test's jobserver, or warn that it cannot).
SHELL_ENV = {k: v for k, v in os.environ.items()
             if k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEFILES')}


def main(argv):
    long_ = '--long' in argv
    files = [a for a in argv if a != '--long']
    n = bad = 0
    for path in files:
        for line, cmd, shown, mark in examples(path):
            n += 1
            what = '%s:%d: %s' % (path, line, cmd)
            if mark == 'not run' or (mark == 'long' and not long_):
                print('ok %d - %s # SKIP %s' % (n, what, mark if mark ==
                                                'not run' else 'long'))
                continue
            r = subprocess.run(['sh', '-c', cmd], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               timeout=3600, env=SHELL_ENV)
            got = r.stdout.rstrip('\n').split('\n') if r.stdout else []
            if matches(got, shown):
                print('ok %d - %s' % (n, what))
            else:
                bad += 1
                print('not ok %d - %s' % (n, what))
                print('# shown:\n#   ' + '\n#   '.join(shown))
                print('# got:\n#   ' + '\n#   '.join(got[:40]))
    print('1..%d' % n)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
