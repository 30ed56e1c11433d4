#!/usr/bin/env python3
"""Summarises a -Xlog:class+load:file=F:uptime log of one server start: gaps of 40 ms or more
between two class loads, the first load of each package family, and how many classes came from
a class-data-sharing archive."""
import re, sys
prev = None
firsts = {}
shared = total = 0
for l in open(sys.argv[1]):
    m = re.match(r'\[(\d+\.\d+)s\] (\S+) source: (.*)', l)
    if not m:
        continue
    t, cls, src = float(m.group(1)), m.group(2), m.group(3)
    total += 1
    shared += "shared objects file" in src
    if prev and t - prev[0] > 0.04:
        print(f"gap {t - prev[0]:.3f}s before {t:.3f} {cls}  (after {prev[1]})")
    pkg = '.'.join(cls.split('.')[:3])
    firsts.setdefault(pkg, t)
    prev = (t, cls)
print(f"{total} classes, {shared} from the archive; last at {prev[0]:.3f}s ({prev[1]})")
for k, v in sorted(firsts.items(), key=lambda x: x[1]):
    if k.startswith(('io.artuditu', 'org.apache.felix', 'aQute', 'com.fasterxml', 'com.pty4j', 'org.newsclub', 'com.sun.jna')):
        print(f"{v:.3f} {k}")
