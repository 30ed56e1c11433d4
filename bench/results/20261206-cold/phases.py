#!/usr/bin/env python3
"""The main thread's execution samples of a start recording (JFR), by phase of the start, and
the component constructors under SCR that took the most: phases.py START.jfr"""
import re, subprocess, sys
txt = subprocess.run(["jfr", "print", "--stack-depth", "80", "--events", "jdk.ExecutionSample", sys.argv[1]],
                     capture_output=True, text=True, check=True).stdout
evs = [e for e in txt.split('jdk.ExecutionSample {')[1:] if 'sampledThread = "main"' in e]
cats, comps = {}, {}
for e in evs:
    if 'Launcher.installEmbedded' in e or 'Launcher.update' in e: k = 'launcher installs the bundles'
    elif 'scr.impl' in e: k = 'SCR: components created and activated'
    elif 'Launcher.startBundles' in e or 'Felix.startBundle' in e: k = 'bundle starts, other'
    elif 'Felix.resolve' in e or 'resolver' in e: k = 'resolving'
    elif 'jdk.jfr' in e: k = 'JFR itself'
    elif 'Felix.init' in e or 'Felix.<init>' in e: k = 'framework init'
    else: k = 'other (JVM boot, launcher set-up, first request)'
    cats[k] = cats.get(k, 0) + 1
    if 'scr.impl' in e:
        fr = re.findall(r'\n\s+([\w.$<>]+)\(', e)
        a = [f for f in fr if f.startswith('io.artuditu')]
        c = a[-1] if a else '(SCR itself: component XML, references, registration)'
        comps[c] = comps.get(c, 0) + 1
print(f"{len(evs)} execution samples on main")
for k, v in sorted(cats.items(), key=lambda x: -x[1]):
    print(f"{v:5d} {100 * v / len(evs):5.1f}%  {k}")
print("\nunder SCR, by the outermost project frame:")
for k, v in sorted(comps.items(), key=lambda x: -x[1])[:15]:
    print(f"{v:5d}  {k}")
