from decimal import Decimal
from fractions import Fraction
print(f'{1/3:.6f}', 0.1 + 0.2, Decimal('1.10') * 3, Fraction(3, 9), 1e22, 1e-7)
