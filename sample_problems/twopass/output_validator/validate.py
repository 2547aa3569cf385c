#!/usr/bin/env python3
"""Multi-pass output validator for twopass.

Pass 1 checks n^2 and writes nextpass.in ("2 m"); pass 2 checks m + 1. The pass number
is kept in feedback_dir/state.txt, which persists between passes."""
import os
import sys


def finish(feedback_dir: str, code: int, message: str) -> None:
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "a", encoding="utf-8") as f:
        f.write(message + "\n")
    sys.exit(code)


def main() -> None:
    input_file, _answer, feedback_dir = sys.argv[1:4]
    with open(input_file, encoding="ascii") as f:
        n = int(f.read().split()[1])
    state = os.path.join(feedback_dir, "state.txt")
    second = os.path.exists(state)
    tokens = sys.stdin.read(1 << 16).split()
    expected = n * n + 1 if second else n * n
    if len(tokens) != 1 or tokens[0] != str(expected):
        finish(feedback_dir, 43, f"pass {2 if second else 1}: expected {expected}, got {tokens[:3]}")
    if second:
        finish(feedback_dir, 42, "both passes correct")
    with open(state, "w", encoding="ascii") as f:
        f.write("1\n")
    with open(os.path.join(feedback_dir, "nextpass.in"), "w", encoding="ascii") as f:
        f.write(f"2 {n * n}\n")
    finish(feedback_dir, 42, "pass 1 correct")


if __name__ == "__main__":
    main()
