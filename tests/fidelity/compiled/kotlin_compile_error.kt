fun main() { val x: Int = "s" }
