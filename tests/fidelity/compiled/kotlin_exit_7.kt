import kotlin.system.exitProcess
fun main() { print("no newline"); System.out.flush(); exitProcess(7) }
