use std::io::{BufWriter, Write};
fn main() { let out = std::io::stdout(); let mut w = BufWriter::new(out.lock()); for i in 0..1000 { writeln!(w, "{}", i).unwrap(); } }
