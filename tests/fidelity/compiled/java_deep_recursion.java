public class Main { static int f(int n) { return n == 0 ? 0 : 1 + f(n - 1); } public static void main(String[] a) { System.out.println(f(200000)); } }
