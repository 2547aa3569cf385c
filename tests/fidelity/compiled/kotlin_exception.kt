fun main() { println("out"); throw IllegalStateException("boom") }
