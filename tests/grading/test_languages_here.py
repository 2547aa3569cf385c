"""grading.languages_here: each language built and run once in the sandbox (what setup.sh
--languages reports after installing toolchains)."""

from __future__ import annotations

import shutil

import pytest

from problemtools_py.grading import languages_here as probe


def test_installed_languages_work_and_others_say_why() -> None:
    rows = {r["language"]: r for r in probe.probe(["python3", "cpp", "java", "cobol", "zig"])}
    assert rows["python3"]["ok"] and rows["cpp"]["ok"] and rows["java"]["ok"]
    assert rows["cobol"] == {"language": "cobol", "ok": False,
                             "why": "no such language in languages.yaml"}  # fmt: skip
    if shutil.which("zig") is None:  # (a toolchain the setup never installs: said so)
        how = "scripts/setup.sh --languages zig installs it, or says why it cannot"
        assert rows["zig"] == {"language": "zig", "ok": False,
                               "why": f"'zig' is not installed ({how})"}  # fmt: skip


def test_the_command_names_languages_as_callers_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert probe.main(["python,c++", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"language": "python3", "ok": true' in out and '"language": "cpp", "ok": true' in out
    assert probe.main(["cobol"]) == 1
    assert "cobol: does not work: no such language" in capsys.readouterr().out


def test_every_language_of_the_table_has_a_program() -> None:
    from problemtools_py.judge.languages import Languages

    assert set(Languages.load().table) <= set(probe.HELLO)
