#!/usr/bin/env python3
"""Multi-pass output validator for twopass.

Each pass's input is "pass x" (this pass's input is the validator's input file too): pass
1 must print x^2, and writes nextpass.in ("2 x^2"); pass 2 must print x + 1."""
import os
import sys


def finish(feedback_dir: str, code: int, message: str) -> None:
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "a", encoding="utf-8") as f:
        f.write(message + "\n")
    sys.exit(code)


def main() -> None:
    input_file, _answer, feedback_dir = sys.argv[1:4]
    with open(input_file, encoding="ascii") as f:
        number, x = (int(word) for word in f.read().split())
    tokens = sys.stdin.read(1 << 16).split()
    expected = x * x if number == 1 else x + 1
    if len(tokens) != 1 or tokens[0] != str(expected):
        finish(feedback_dir, 43, f"pass {number}: expected {expected}, got {tokens[:3]}")
    if number == 2:
        finish(feedback_dir, 42, "both passes correct")
    with open(os.path.join(feedback_dir, "nextpass.in"), "w", encoding="ascii") as f:
        f.write(f"2 {x * x}\n")
    finish(feedback_dir, 42, "pass 1 correct")


if __name__ == "__main__":
    main()
