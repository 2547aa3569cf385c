from typing import List, Dict
def f(xs: List[int]) -> Dict[int, int]:
    return {x: x * x for x in xs}
print(f([1, 2, 3]))
