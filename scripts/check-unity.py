#!/usr/bin/env python3
"""Fails when two sources that a unity build of a unit test compiles as one file declare the same file-scope name.

With BANDITFS_UNITY_TESTS (scripts/test.sh), each test of tests/unit/<area>/ compiles its sources in unity files
(cmake/BanditfsDefaults.cmake, banditfs_unity_build), where they share one file scope and one anonymous namespace:
two helpers of the same name would fail to compile or, with different parameters, overload each other silently.
A source that declares a name another source of its test declares too is listed in UNITY_APART (compiled alone).
A `using namespace` directive counts as declaring the names of the headers that open that namespace: after it, the
rest of the unity file sees them unqualified.

Reads the declarations at column 0 (clang-format puts every file-scope declaration there, namespaces unindented):
functions, classes, structs, enums, aliases, constants and macros. A heuristic, erring on the side of
reporting a name too many.

  scripts/check-unity.py
"""
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CALL = re.compile(r"banditfs_add_unit_test\(\s*(\w+)(.*?)\)\s*(?:\n|$)", re.S)
KEYWORDS = ("SOURCES", "DEPS", "LABELS", "TIMEOUT", "UNITY_APART")


def arguments(body):
    """The keyword arguments of one banditfs_add_unit_test call: keyword -> list of values."""
    out, key = collections.defaultdict(list), None
    for word in body.split():
        if word in KEYWORDS:
            key = word
        elif key:
            out[key].append(word)
    return out


def file_scope_names(text):
    """The names a source declares at column 0."""
    names = set()
    for line in re.sub(r"//.*", "", text).splitlines():
        if not line or line[0].isspace() or line[0] in "}{" or line.startswith(("#include", "namespace", "using namespace")):
            continue
        if line.startswith("#define"):
            names.add(re.split(r"[\s(]", line[len("#define"):].strip())[0])
            continue
        # Test cases: two of one name in one suite fail to compile; in two suites (namespaces) they are distinct.
        if line.startswith("BOOST_"):
            continue
        for pattern in (r"(?:template\s*<.*>\s*)?(?:struct|class|enum(?:\s+class)?|union)\s+(\w+)",
                        r"using\s+(\w+)\s*=",
                        r"(?:static\s+|inline\s+)*(?:constexpr|const)\b[^=(]*?\b(\w+)\s*(?:=|\{|\[)",
                        r"(?!return\b)[^=(]*?\b(\w+)\s*\("):
            found = re.match(pattern, line)
            if found:
                names.add(found.group(1))
                break
    return names


def nominated_names(source, text):
    """Names that a `using namespace N;` of source (N other than bfs, which every test nominates) brings into the
    unity file's scope for the sources after it: those declared at column 0 of the headers, of the test's folder or
    of src/, that open namespace N; header -> names."""
    out = {}
    for namespace in re.findall(r"^using namespace ([\w:]+);", text, re.M):
        if namespace == "bfs":
            continue
        opening = re.compile(r"^namespace " + re.escape(namespace) + r" \{", re.M)
        for header in list(source.parent.glob("*.hpp")) + list((ROOT / "src").rglob("*.hpp")):
            header_text = header.read_text()
            if opening.search(header_text):
                out[header.relative_to(ROOT).as_posix()] = file_scope_names(header_text)
    return out


def clashes_of(folder, sources):
    """(name, where) for each name that two of sources, or a source and a header another source nominates, declare.
    Two headers of src/ declaring one name are the library's own overloads or redeclarations, not a clash; a header
    of the test's folder counts as a source of its own."""
    own = collections.defaultdict(set)  # name -> sources and test headers declaring it
    nominated = collections.defaultdict(set)  # name -> (src header, source nominating it)
    for source in sources:
        text = (folder / source).read_text()
        for name in file_scope_names(text):
            own[name].add(source)
        for header, names in nominated_names(folder / source, text).items():
            for name in names:
                if header.startswith("src/"):
                    nominated[name].add((header, source))
                else:
                    own[name].add(header)
    out = []
    for name in sorted(set(own) | set(nominated)):
        where = sorted(own[name])
        leaks = sorted(f"{header} (using namespace in {by})" for header, by in nominated[name]
                       if any(other != by for other in own[name]))
        if name != "main" and (len(where) > 1 or leaks):
            out.append((name, where + leaks))
    return out


def main():
    clashes = 0
    for cmake in sorted(ROOT.glob("tests/unit/*/CMakeLists.txt")):
        for call in CALL.finditer(cmake.read_text()):
            args = arguments(call.group(2))
            together = [s for s in args["SOURCES"] if s not in args["UNITY_APART"]]
            for name, where in clashes_of(cmake.parent, together):
                clashes += 1
                print(f"{cmake.relative_to(ROOT)}: test {call.group(1)}: '{name}' is declared at file scope in "
                      f"{' and '.join(where)}; rename one, or list all but one source in UNITY_APART",
                      file=sys.stderr)
    if clashes:
        sys.exit(1)
    print("check-unity: the unity files of the unit tests share no file-scope name")


if __name__ == "__main__":
    main()
