using System;
class P { static int F(int n) { return n == 0 ? 0 : 1 + F(n - 1); } static void Main() { Console.WriteLine(F(100000)); } }
