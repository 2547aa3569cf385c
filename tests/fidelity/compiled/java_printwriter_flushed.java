import java.io.*;
public class Main { public static void main(String[] a) { PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out))); w.println("flushed"); w.flush(); } }
