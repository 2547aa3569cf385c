using System;
class P { static void Main() { Console.Write("no newline"); Environment.Exit(5); } }
