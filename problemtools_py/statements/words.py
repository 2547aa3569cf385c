"""Section and sample headings, per statement language (English when not listed). The
sample headings are Kattis problemtools' own (its problemset class translates them for
English, Swedish and Icelandic)."""

from __future__ import annotations

WORDS = {
    "en": {
        "Input": "Input",
        "Output": "Output",
        "Interaction": "Interaction",
        "sample_input": "Sample Input",
        "sample_output": "Sample Output",
        "sample_interaction": "Sample Interaction",
        "read": "Read",
        "write": "Write",
        "pass": "Pass",
        "time_limit": "Time limit",
        "memory_limit": "Memory limit",
    },
    "sv": {
        "Input": "Indata",
        "Output": "Utdata",
        "Interaction": "Interaktion",
        "sample_input": "Exempel på indata",
        "sample_output": "Exempel på utdata",
        "sample_interaction": "Exempel på interaktion",
        "read": "Läs",
        "write": "Skriv",
        "pass": "Omgång",
        "time_limit": "Tidsgräns",
        "memory_limit": "Minnesgräns",
    },
    "is": {
        "Input": "Inntak",
        "Output": "Úttak",
        "Interaction": "Samskipti",
        "sample_input": "Sýniinntak",
        "sample_output": "Sýniúttak",
        "sample_interaction": "Sýnisamskipti",
        "read": "Lestur",
        "write": "Skrif",
        "pass": "Umferð",
        "time_limit": "Tímatakmörk",
        "memory_limit": "Minnistakmörk",
    },
}


def word(lang: str, key: str) -> str:
    return WORDS.get(lang.split("-")[0], WORDS["en"]).get(key, WORDS["en"][key])


def interaction_lines(transcript: str) -> list[tuple[str, str]]:
    """(direction, text) per line of an ``.interaction`` file: ``<`` lines go from the
    validator to the program (it reads them), ``>`` lines from the program (it writes).
    A multi-pass problem's ``---`` line, which starts the next pass, is ("pass", "N")."""
    lines = []
    passes = 1
    for line in transcript.splitlines():
        if line.rstrip() == "---":
            passes += 1
            lines.append(("pass", str(passes)))
        elif line[:1] in "<>" and line:
            lines.append(("read" if line[0] == "<" else "write", line[1:]))
    return lines
