fun main() {
    val lines = generateSequence(::readLine).toList()
    println("${lines.size} ${lines.last()}")
}
