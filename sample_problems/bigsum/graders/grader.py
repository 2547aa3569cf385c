#!/usr/bin/env python3
"""Grader for bigsum: reads "VERDICT score" lines, writes one "VERDICT score" line.

The problem is AC when any subresult is AC, and its score is the sum of all scores
(rejected groups score 0). With no AC subresult, the first verdict is reported."""
import sys

results = [line.split() for line in sys.stdin if line.strip()]
if not results:
    print("AC 0")
    sys.exit(0)
total = sum(float(score) for _verdict, score in results)
verdicts = [verdict for verdict, _score in results]
print(f"AC {total:g}" if "AC" in verdicts else f"{verdicts[0]} 0")
