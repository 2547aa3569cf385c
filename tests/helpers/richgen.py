"""A package of our own whose generators.yaml uses every key generatedata reads: a C++
and a Python generator, a directory generator with a build script, the generators: map,
count in all three forms, random_salt, include, numbered and named data, inline and
copied cases, test_group.yaml, match, and a generator that needs retries."""

from __future__ import annotations

from pathlib import Path

FILES = {
    "problem.yaml": """problem_format_version: 2025-09
type: pass-fail
name: Rich Generators
uuid: 0e6b1f4a-7d2c-4b8e-9a3f-5c1d2e3f4a5b
credits:
  authors: problemtools_py authors <authors@problemtools-py.invalid>
license: cc0
""",
    "statement/problem.en.md": "Print the input back.\n\n## Input\n\nLines of integers.\n",
    "input_validators/validate.py": """import re, sys
data = sys.stdin.read()
sys.exit(42 if re.fullmatch(r"(-?[0-9]+( -?[0-9]+)*\\n)+", data) else 43)
""",
    "submissions/accepted/echo.py": "import sys\nsys.stdout.write(sys.stdin.read())\n",
    "generators/gen.cpp": """#include <cstdio>
#include <cstdlib>
int main(int argc, char** argv) {
    unsigned long long x = std::strtoull(argv[1], nullptr, 10);
    int n = std::atoi(argv[2]);
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        std::printf(i ? " %llu" : "%llu", (x >> 33) % 1000);
    }
    std::printf("\\n");
}
""",
    "generators/gen.py": """import random, sys
rng = random.Random(int(sys.argv[1]))
print(" ".join(str(rng.randint(-50, 50)) for _ in range(int(sys.argv[2]))))
""",
    "generators/tree.py": "from lib import line\nimport sys\nprint(line(int(sys.argv[1])))\n",
    "generators/lib.py": "def line(n):\n    return ' '.join(str(i) for i in range(1, n + 1))\n",
    "generators/dirgen/build": "#!/bin/sh\ncp body.sh run\nchmod +x run\n",
    "generators/dirgen/body.sh": "#!/bin/sh\necho \"$1 $1 $1\"\n",
    "generators/flaky.py": """import sys
seed = int(sys.argv[1])
if seed % 4:
    sys.exit(1)
print(seed % 1000)
""",
    "generators/both.py": """open("testcase.in", "w").write("7 8\\n")
open("testcase.ans", "w").write("7 8\\n")
""",
    "generators/manual/edge.in": "0\n",
    "generators/manual/edge.ans": "0\n",
    "generators/generators.yaml": """solution: /submissions/accepted/echo.py
random_salt: rich
generators:
  tree:
    - tree.py
    - lib.py
data:
  sample:
    data:
      - "":
          in: "1 2 3"
      - two:
          in: |
            4 5
          yaml:
            hint: read all of it
  secret:
    include: [two]
    test_group.yaml:
      output_validator_args: [space_change_sensitive]  # written as it stands
    data:
      - cpp:
          generate: gen.cpp {seed} 5
          count: 2
      - py:
          generate: gen.py {seed:1} {count}
          count: [3, 5]
      - dir:
          generate: dirgen {count}
          count: 1..=2
      - tree: tree 4
      - edge:
          copy: manual/edge
      - both: both.py
      - flaky:
          generate: flaky.py {seed}
          retries: 30
      - matched:
          generate: gen.py {seed:2} 3
          match: "^-?[0-9]+ "
      - group:
          data:
            inner: tree 2
""",
}


def make(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if path.name == "build":  # the format: a build script must be executable
            path.chmod(0o755)
    return root
