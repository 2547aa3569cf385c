#!/usr/bin/env python3
"""Output validator for divisor: accepts any proper divisor of n.

Invoked as: checker.py input_file answer_file feedback_dir [flags] < team_output.
Exit 42 = accepted, 43 = wrong answer; a message goes to feedback_dir/judgemessage.txt."""
import os
import re
import sys


def reject(feedback_dir: str, message: str) -> None:
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "a", encoding="utf-8") as f:
        f.write(message + "\n")
    sys.exit(43)


def main() -> None:
    input_file, _answer_file, feedback_dir = sys.argv[1:4]
    with open(input_file, encoding="ascii") as f:
        n = int(f.read())
    team = sys.stdin.buffer.read(1 << 16).decode("ascii", errors="replace")
    tokens = team.split()
    if len(tokens) != 1 or not re.fullmatch(r"[0-9]{1,13}", tokens[0]):
        reject(feedback_dir, f"expected one integer, got {team[:40]!r}")
    d = int(tokens[0])
    if not 1 < d < n or n % d != 0:
        reject(feedback_dir, f"{d} is not a proper divisor of {n}")
    sys.exit(42)


if __name__ == "__main__":
    main()
