import kotlin.concurrent.thread
fun main() { thread { Thread.sleep(50); println("thread after main") }; println("main done") }
