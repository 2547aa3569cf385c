from dataclasses import dataclass
@dataclass
class P:
    x: int
    y: int = 2
print(P(1))
