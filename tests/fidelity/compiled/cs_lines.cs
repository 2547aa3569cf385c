using System;
class P { static void Main() { int n = 0; string last = "", line; while ((line = Console.ReadLine()) != null) { n++; last = line; } Console.WriteLine(n + " " + last); } }
