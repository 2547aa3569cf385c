public class Main { public static void main(String[] a) { Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook"))); System.out.println("main"); } }
