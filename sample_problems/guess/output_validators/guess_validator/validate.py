#!/usr/bin/env python3
"""Interactive validator for guess: answers each guess with lower, higher or correct.

Invoked as: validate.py input_file answer_file feedback_dir < team_output > team_input.
Exit 42 when the number is found within 10 guesses, 43 otherwise."""
import os
import sys


def verdict(feedback_dir: str, code: int, message: str) -> None:
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "a", encoding="utf-8") as f:
        f.write(message + "\n")
    sys.exit(code)


def main() -> None:
    input_file, _answer, feedback_dir = sys.argv[1:4]
    with open(input_file, encoding="ascii") as f:
        secret = int(f.read())
    for guesses in range(1, 11):
        line = sys.stdin.readline()
        if not line:
            verdict(feedback_dir, 43, f"end of output after {guesses - 1} guesses")
        try:
            guess = int(line)
        except ValueError:
            verdict(feedback_dir, 43, f"guess {guesses} is not an integer: {line[:30]!r}")
        answer = "correct" if guess == secret else "lower" if secret < guess else "higher"
        print(answer, flush=True)
        if answer == "correct":
            if sys.stdin.read(1):
                verdict(feedback_dir, 43, "output after the correct guess")
            verdict(feedback_dir, 42, f"found in {guesses} guesses")
    verdict(feedback_dir, 43, "not found in 10 guesses")


if __name__ == "__main__":
    main()
