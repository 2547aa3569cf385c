public class Main { public static void main(String[] a) { System.out.print("no newline"); System.exit(7); } }
