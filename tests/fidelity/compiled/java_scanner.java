import java.util.*;
public class Main { public static void main(String[] a) { Scanner s = new Scanner(System.in); long x = s.nextLong(), y = s.nextLong(); System.out.println(x + y); } }
