class P { static void Main() { int x = "s"; } }
