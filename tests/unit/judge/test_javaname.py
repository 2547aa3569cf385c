"""A Java completion's file name (judge/javaname.py, issue 60): javac's rule for the
public class, `java NAME`'s for the class holding main, comments and literals ignored."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from problemtools_py.judge.javaname import blank, detect_main, java_class, scala_object

MAIN = "public static void main(String[] args) { System.out.println(1); }"


@pytest.mark.parametrize(("code", "name"), [
    (f"public class Main {{ {MAIN} }}", "Main"),
    (f"class Solution {{ {MAIN} }}", "Solution"),  # (was saved as Main.java: not found)
    (f"// public class Main is below\nclass Solution {{ {MAIN} }}", "Solution"),
    (f"/* public class Wrong */ public class Right {{ {MAIN} }}", "Right"),
    (f'class A {{ String s = "public class B {{"; {MAIN} }}', "A"),
    (f"class Solution {{ static class Pair {{ int a; }} {MAIN} }}", "Solution"),
    (f"class Helper {{ int x; }}\nclass Program {{ {MAIN} }}", "Program"),
    (f"final class Program {{ {MAIN} }}\nclass Helper {{ }}", "Program"),
    (f"import java.util.*;\npublic final class Fast {{ {MAIN} }}", "Fast"),
    (f"record P(int a) {{ }}\nclass Go {{ {MAIN} }}", "Go"),
    ("class Solo { int x; }", "Solo"),
    ("int x = 1;", None),
])  # fmt: skip
def test_the_file_is_named_as_javac_and_java_need(code: str, name: str | None) -> None:
    assert java_class(code) == name


def test_character_literals_and_text_blocks_are_blanked() -> None:
    code = "char c = '{'; String t = \"\"\"\n  public class X {\n\"\"\"; // }\n"
    assert blank(code).count("{") == blank(code).count("}") == 0
    assert blank(code).count("\n") == code.count("\n")


@given(st.text(alphabet=st.sampled_from('ab{}"\'/*\n \\'), max_size=60))
def test_blanking_keeps_every_position(code: str) -> None:
    assert len(blank(code)) == len(code)
    java_class(code)  # (never raises on any text)


@pytest.mark.parametrize(("code", "name"), [
    ("object Main { def main(a: Array[String]): Unit = println(1) }", "Main"),
    ("object Helper { val x = 1 }\nobject Solution {\n  def main(args: Array[String]) = ()\n}", "Solution"),
    ("// object Fake { def main() }\nobject Real extends App { println(2) }", "Real"),
    ('object A { val s = "object B { def main(" }\nobject C extends App', "C"),
    ("class Only { def f = 1 }", None),
])  # fmt: skip
def test_a_scala_program_runs_as_its_object_with_main(code: str, name: str | None) -> None:
    assert scala_object(code) == name


PSVM = "public static void main(String[] a) { }"


@pytest.mark.parametrize(("sources", "name"), [
    # DOMjudge's multifile-multipackage: the class with main, named with its package
    ({"A.java": "package foo.bar.a;\npublic class A { static void f() {} }",
      "B.java": f"package zoo.goo.moo.b;\nimport foo.bar.a.A;\npublic class B {{ {PSVM} }}"},
     "zoo.goo.moo.b.B"),
    # its test-package.java: a class that is not public, in a package
    ({"test-package.java": f"package bin;\nclass Main {{\n {PSVM}\n}}"}, "bin.Main"),
    # its mainclass-missing: `int main()` is no entry point: none (a compile error)
    ({"main.java": "public class main { int main() { return 0; } };"}, None),
    # main neither public nor static, or only named in a comment or a string
    ({"X.java": "class X { static void main(String[] a) {} }"}, None),
    ({"X.java": f"// class Y {{ {PSVM} }}\nclass X {{ String s = \"{PSVM}\"; }}"}, None),
    # two classes with main: the first in the sources' sorted order
    ({"b.java": f"public class b {{ {PSVM} }}", "a.java": f"public class a {{ {PSVM} }}"}, "a"),
    ({"Helper.java": "class Helper {}", "Sol.java": "class Sol { static public void main(String[] x) {} }"}, "Sol"),
])  # fmt: skip
def test_domjudge_runs_the_class_holding_main_named_with_its_package(
    sources: dict[str, str], name: str | None
) -> None:
    assert detect_main("java", sources) == name


@pytest.mark.parametrize(("sources", "name"), [
    ({"hello.kt": "fun main() { println(1) }"}, "HelloKt"),
    ({"util.kt": "fun f() = 1", "solve.kt": "package a.b\n\nfun main(args: Array<String>) {}"}, "a.b.SolveKt"),
    ({"x.kt": "class X { fun main() {} }"}, None),
])  # fmt: skip
def test_kotlin_runs_the_file_class_of_its_top_level_main(
    sources: dict[str, str], name: str | None
) -> None:
    assert detect_main("kotlin", sources) == name
