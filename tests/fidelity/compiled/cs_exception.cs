using System;
class P { static void Main() { Console.WriteLine("out"); throw new InvalidOperationException("boom"); } }
