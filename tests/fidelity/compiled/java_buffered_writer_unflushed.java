import java.io.*;
public class Main { public static void main(String[] a) throws IOException { BufferedWriter w = new BufferedWriter(new OutputStreamWriter(System.out)); w.write("lost unless flushed\n"); } }
