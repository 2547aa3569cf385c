"""Interactive validator for hilo: answers each query with higher, lower or correct.

validate.py input_file answer_file feedback_dir < submission's output > its input.
Exit 42 when the number is found within the query limit, 43 otherwise."""
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
    for queries in range(1, {{max_queries}} + 1):
        line = sys.stdin.readline()
        if not line:
            verdict(feedback_dir, 43, f"end of output after {queries - 1} queries")
        try:
            query = int(line)
        except ValueError:
            verdict(feedback_dir, 43, f"query {queries} is not a number: {line[:30]!r}")
        answer = "correct" if query == secret else "lower" if secret < query else "higher"
        print(answer, flush=True)
        if answer == "correct":
            if sys.stdin.read(1):
                verdict(feedback_dir, 43, "output after the correct query")
            verdict(feedback_dir, 42, f"found in {queries} queries")
    verdict(feedback_dir, 43, "not found within {{max_queries}} queries")


if __name__ == "__main__":
    main()
