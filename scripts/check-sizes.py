#!/usr/bin/env python3
"""Reports source files over 500 lines and function bodies over 80 lines (the project's size rules).

    scripts/check-sizes.py [--since REV] [FILE...]

With no FILE, checks every src/ file (or, with --since, the src/ and tests/ files changed since REV). A function
body is measured from the line of its opening brace to its closing brace, for definitions that start a line at
namespace or class scope (a heuristic on brace depth that ignores braces in strings, characters and comments).
Exits 1 when a limit is exceeded, so it can gate a change.
"""
import re
import subprocess
import sys

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80
# A line that opens a function body: a parameter list's ')' (maybe followed by qualifiers, an initializer list or a
# trailing return type) and the '{'. Control statements and lambdas inside bodies are never at depth 0 or 1.
DEFINITION = re.compile(r"\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->\s*[\w:<>, ]+)?\s*(:.*)?\{\s*(//.*)?$")
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else)\b")


def strip_literals(line, in_comment):
    """The line without string/char literals and comments; whether a block comment is still open after it."""
    out, i = [], 0
    while i < len(line):
        if in_comment:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_comment = end + 2, False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_comment, i = True, i + 2
        elif line[i] in "\"'":
            quote, i = line[i], i + 1
            while i < len(line) and line[i] != quote:
                i += 2 if line[i] == "\\" else 1
            i += 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_comment


def long_functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    found, depth, in_comment, open_at = [], 0, False, None
    scope_depths = []  # depths at which a namespace/class/struct body is open (functions may start there)
    for number, raw in enumerate(lines, 1):
        code, in_comment = strip_literals(raw, in_comment)
        at_scope = depth == 0 or (scope_depths and depth == scope_depths[-1])
        if open_at is None and at_scope and "{" in code and DEFINITION.search(code) and not CONTROL.match(code):
            open_at, body_depth = number, depth
        elif "{" in code and re.search(r"\b(namespace|class|struct|union)\b", code) and open_at is None:
            scope_depths.append(depth + code.count("{") - code.count("}"))
        depth += code.count("{") - code.count("}")
        while scope_depths and depth < scope_depths[-1]:
            scope_depths.pop()
        if open_at is not None and depth <= body_depth:
            length = number - open_at + 1
            if length > MAX_FUNCTION_LINES:
                found.append((open_at, length, lines[open_at - 1].strip()[:90]))
            open_at = None
    return found, len(lines)


def main(argv):
    since = None
    if argv[:1] == ["--since"]:
        since, argv = argv[1], argv[2:]
    files = argv
    if not files:
        cmd = ["git", "ls-files", "src/*.cpp", "src/*.hpp"]
        if since:
            cmd = ["git", "diff", "--name-only", "--diff-filter=AMR", since, "--", "src/*.cpp", "src/*.hpp",
                   "tests/*.cpp", "tests/*.hpp"]
        files = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.split()
    failed = False
    for path in files:
        functions, count = long_functions(path)
        if count > MAX_FILE_LINES:
            print(f"{path}: {count} lines (limit {MAX_FILE_LINES})")
            failed = True
        for line, length, text in functions:
            print(f"{path}:{line}: function of {length} lines (limit {MAX_FUNCTION_LINES}): {text}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
