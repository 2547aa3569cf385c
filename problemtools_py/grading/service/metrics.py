"""What the grading service counts, as Prometheus text for its ``/metrics``: requests by
endpoint, results by status, requests turned away, tests and their seconds, and the
gauges a balancer or an autoscaler reads: queue depth, running, capacity (the workers)
and load ((running + waiting) / capacity). A replica of ``gradeserver --replicas`` labels
every sample with ``replica``."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Metrics:
    """What the grading service counts, for its /metrics page."""

    requests: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    tests: int = 0
    test_seconds: float = 0.0
    rejected: int = 0

    def text(self, waiting: int, running: int, jobs: int = 1, replica: int = 0) -> str:
        """Prometheus text; with ``replica`` (one of ``gradeserver --replicas``), every
        sample labelled with it, and its load: (running + waiting) / jobs."""
        lines = ["# TYPE gradeserver_requests_total counter"]
        lines += [
            f'gradeserver_requests_total{{endpoint="{k}"}} {v}'
            for k, v in sorted(self.requests.items())
        ]
        lines.append("# TYPE gradeserver_results_total counter")
        lines += [
            f'gradeserver_results_total{{status="{k}"}} {v}'
            for k, v in sorted(self.statuses.items())
        ]
        lines += [
            "# TYPE gradeserver_rejected_total counter",
            f"gradeserver_rejected_total {self.rejected}",
            "# TYPE gradeserver_queue_depth gauge",
            f"gradeserver_queue_depth {waiting}",
            "# TYPE gradeserver_running gauge",
            f"gradeserver_running {running}",
            "# TYPE gradeserver_capacity gauge",
            f"gradeserver_capacity {jobs}",
            "# TYPE gradeserver_load gauge",
            f"gradeserver_load {(running + waiting) / max(1, jobs):.3f}",
            "# TYPE gradeserver_test_seconds summary",
            f"gradeserver_test_seconds_sum {self.test_seconds:.6f}",
            f"gradeserver_test_seconds_count {self.tests}",
        ]
        if replica:
            lines = [_labelled(line, f'replica="{replica}"') for line in lines]
        return "\n".join(lines) + "\n"


def _labelled(line: str, label: str) -> str:
    """A sample line with one more label (a comment line as it is)."""
    if line.startswith("#"):
        return line
    name, value = line.rsplit(" ", 1)
    if name.endswith("}"):
        return f"{name[:-1]},{label}}} {value}"
    return f"{name}{{{label}}} {value}"
