#!/usr/bin/env python3
"""Writes the module section of docs/architecture.md from Package.swift: the Segue modules (Swift targets that are
not tests, tools or C shims), the modules each depends on, a diagram of the layers (each module on the row after the
last of the modules it depends on), and what each holds (the `// Name: …` comment above its target).

  python3 docs/make-modules.py            prints the section
  python3 docs/make-modules.py --write    replaces the section in docs/architecture.md
  python3 docs/make-modules.py --check    exits 1 (saying what differs) when docs/architecture.md's section is not
                                          what Package.swift gives (ArchitectureDocTests runs this)
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- modules: written by docs/make-modules.py from Package.swift; do not edit by hand -->"
END = "<!-- end of modules -->"


def targets():
    """(name, kind, dependencies, description) of each target, in Package.swift's order."""
    text = open(os.path.join(ROOT, "Package.swift")).read()
    out, comment = [], None
    for line in text.split("\n"):
        m = re.match(r'\s*// (\w[\w-]*): (.*)$', line)
        if m:
            comment = (m.group(1), m.group(2))
            continue
        t = re.match(r'\s*\.(target|executableTarget|testTarget|systemLibrary|plugin)\(name: "([\w-]+)"(.*)$', line)
        if t:
            kind, name, rest = t.groups()
            deps = re.search(r'dependencies: \[([^\]]*)\]', rest)
            names = re.findall(r'"([\w-]+)"', deps.group(1)) if deps else []
            about = comment[1] if comment and comment[0] == name else None
            out.append((name, kind, names, about))
        if not line.strip().startswith("//"):
            comment = None
    return out


def modules():
    """The Segue modules: targets with a `// Name: …` description (the rest are C shims, tools and tests)."""
    all_targets = targets()
    segue = {n for n, k, d, a in all_targets if a and k in ("target", "executableTarget")}
    return [(n, [x for x in d if x in segue], a, [x for x in d if x not in segue]) for n, k, d, a in all_targets if n in segue]


def section():
    mods = modules()
    depth = {}
    for n, deps, _, _ in mods:   # Package.swift lists a target after what it depends on
        depth[n] = 1 + max((depth[d] for d in deps), default=-1)
    rows = {}
    for n, _, _, _ in mods:
        rows.setdefault(depth[n], []).append(n)
    lines = [BEGIN, "", "The modules, each depending only on modules on the rows above it (`Package.swift`):", "", "```"]
    for d in sorted(rows):
        lines.append(("    " * 0) + "   ".join(rows[d]))
    lines += ["```", "", "| module | depends on | what it holds |", "|---|---|---|"]
    for n, deps, about, c in mods:
        uses = ", ".join(f"`{d}`" for d in deps) or "—"
        if c:
            uses += " (C: " + ", ".join(f"`{x}`" for x in c) + ")"
        lines.append(f"| `{n}` | {uses} | {about} |")
    lines += ["", END]
    return "\n".join(lines)


def main():
    doc = os.path.join(ROOT, "docs", "architecture.md")
    text = open(doc).read()
    wanted = section()
    if len(sys.argv) == 1:
        print(wanted)
        return
    if BEGIN not in text or END not in text:
        sys.exit(f"{doc} has no module section ({BEGIN} … {END})")
    a, b = text.index(BEGIN), text.index(END) + len(END)
    if sys.argv[1] == "--write":
        open(doc, "w").write(text[:a] + wanted + text[b:])
    elif sys.argv[1] == "--check":
        if text[a:b] != wanted:
            have, want = text[a:b].split("\n"), wanted.split("\n")
            diff = [f"- {x}" for x in have if x not in want] + [f"+ {x}" for x in want if x not in have]
            sys.exit("docs/architecture.md's module section is not what Package.swift gives (run python3 docs/make-modules.py --write):\n"
                     + "\n".join(diff))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
