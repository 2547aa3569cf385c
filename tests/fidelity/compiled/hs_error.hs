main :: IO ()
main = putStrLn "out" >> error "boom"
