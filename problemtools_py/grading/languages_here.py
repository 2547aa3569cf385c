"""Which languages this machine grades: each of ``languages.yaml``'s, built and run once in
the sandbox as a completion would be (a program that reads a number and prints twice
it). ``scripts/setup.sh --languages node,go,rust`` installs their toolchains and runs
this; ``python -m problemtools_py.grading.languages_here [CODES]`` prints a line per language (or
JSON lines with ``--json``) and exits 1 when one asked for does not work."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from problemtools_py.grading.extract import language_named
from problemtools_py.grading.results import GradeResult

if TYPE_CHECKING:
    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.testrun import RunLimits

# A program per language: read an integer, print twice it.
HELLO = {
    "python3": "print(2 * int(input()))\n",
    "pypy3": "print(2 * int(input()))\n",
    "c": '#include <stdio.h>\nint main(void){long x; scanf("%ld",&x); printf("%ld\\n",2*x);}\n',
    "cpp": "#include <iostream>\nint main(){long x; std::cin>>x; std::cout<<2*x<<'\\n';}\n",
    "java": ("import java.util.*;\npublic class Main { public static void main(String[] a) {"
             " System.out.println(2 * new Scanner(System.in).nextLong()); } }\n"),
    "kotlin": "fun main() { println(2 * readLine()!!.trim().toLong()) }\n",
    "rust": ("use std::io::*;\nfn main(){let mut s=String::new();stdin().read_line(&mut s)"
             ".unwrap();let x:i64=s.trim().parse().unwrap();println!(\"{}\",2*x);}\n"),
    "go": ('package main\nimport "fmt"\nfunc main(){var x int64; fmt.Scan(&x);'
           " fmt.Println(2*x)}\n"),
    "haskell": "main = getLine >>= print . (2 *) . (read :: String -> Integer)\n",
    "csharp": ("using System;\nclass P { static void Main() {"
               " Console.WriteLine(2 * long.Parse(Console.ReadLine().Trim())); } }\n"),
    "fsharp": "printfn \"%d\" (2L * int64 (System.Console.ReadLine().Trim()))\n",
    "scala": ("object Main { def main(a: Array[String]): Unit ="
              " println(2 * scala.io.StdIn.readLong()) }\n"),
    "pascal": "program p; var x: int64; begin readln(x); writeln(2 * x); end.\n",
    "fortran": "program p\n  integer(8) :: x\n  read *, x\n  print '(I0)', 2 * x\nend program p\n",
    "d": ("import std.stdio, std.conv, std.string;\n"
          "void main(){ writeln(2 * readln().strip.to!long); }\n"),
    "ada": ("with Ada.Long_Integer_Text_IO; use Ada.Long_Integer_Text_IO;\n"
            "procedure Main is X : Long_Integer; begin Get (X); Put (2 * X, 0); end Main;\n"),
    "ocaml": "let () = Scanf.scanf \" %d\" (fun x -> Printf.printf \"%d\\n\" (2 * x))\n",
    "javascript": ("const x = BigInt(require('fs').readFileSync(0, 'utf8').trim());\n"
                   "console.log(String(2n * x));\n"),
    "typescript": ("declare var require: any;\nconst x: number = parseInt(require('fs')"
                   ".readFileSync(0, 'utf8'));\nconsole.log(2 * x);\n"),
    "php": "<?php\n$x = (int) trim(fgets(STDIN));\necho 2 * $x, \"\\n\";\n",
    "ruby": "puts 2 * gets.to_i\n",
    "perl": "my $x = <STDIN>; print 2 * $x, \"\\n\";\n",
    "lua": "local x = io.read('n')\nprint(string.format('%d', 2 * x))\n",
    "bash": "read x\necho $((2 * x))\n",
    "prolog": ("main :- read_line_to_string(user_input, S), number_string(X, S), "
               "Y is 2 * X, writeln(Y).\n"),
    "swift": "let x = Int(readLine()!)!\nprint(2 * x)\n",
    "zig": ("const std = @import(\"std\");\npub fn main() !void {\n"
            "    var buf: [64]u8 = undefined;\n"
            "    const in = std.io.getStdIn().reader();\n"
            "    const line = (try in.readUntilDelimiterOrEof(&buf, '\\n')).?;\n"
            "    const x = try std.fmt.parseInt(i64, std.mem.trim(u8, line, \" \\r\"), 10);\n"
            "    try std.io.getStdOut().writer().print(\"{d}\\n\", .{2 * x});\n}\n"),
}  # fmt: skip


def probe(codes: list[str] | None = None) -> list[dict[str, object]]:
    """Each language built and run once (None: each installed): its code, whether it
    works, and why not."""
    from problemtools_py.grading.grader import Grader
    from problemtools_py.grading.testrun import RunLimits

    rows: list[dict[str, object]] = []
    with Grader(None, jobs=1) as grader:
        installed = grader.languages() | {"python3"}
        for code in codes if codes is not None else sorted(installed & set(HELLO)):
            rows.append(_one(grader, code, installed, RunLimits(10.0, 1 << 16)))
    return rows


def _one(
    grader: Grader, code: str, installed: frozenset[str], limits: RunLimits
) -> dict[str, object]:
    row: dict[str, object] = {"language": code, "ok": False}
    if code not in HELLO:
        return {**row, "why": "no such language in languages.yaml"}
    if code not in installed:
        from problemtools_py.judge.languages import Languages

        language = Languages.load().get(code)
        tool = language.missing_tool() if language is not None else code
        how = f"scripts/setup.sh --languages {code} installs it, or says why it cannot"
        return {**row, "why": f"'{tool}' is not installed ({how})"}
    start = time.perf_counter()
    got = grader.execute(HELLO[code], code, "21\n", limits)
    row["seconds"] = round(time.perf_counter() - start, 2)
    if isinstance(got, GradeResult):
        return {**row, "why": f"{got.status}: {got.message[:300]}"}
    out = got.stdout.decode("utf-8", "replace").strip()
    if not got.ok or out != "42":
        why = got.stderr.decode("utf-8", "replace")[-300:] or f"printed {out[:40]!r}"
        return {**row, "why": f"{got.outcome.value}: {why}"}
    return {**row, "ok": True}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="problemtools_py.grading.languages_here", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "languages", nargs="?", default="", help="node,go,rust... (default: those installed)"
    )
    parser.add_argument("--json", action="store_true", help="JSON lines")
    args = parser.parse_args(argv)
    asked = [n.strip() for n in args.languages.split(",") if n.strip()]
    codes = [language_named(n, frozenset(HELLO)) or n for n in asked]
    rows = probe(codes or None)
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            verdict = "works" if row["ok"] else f"does not work: {row['why']}"
            print(f"{row['language']:>11}: {verdict}")
    return 0 if all(row["ok"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
