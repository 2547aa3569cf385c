main :: IO ()
main = interact $ \s -> let ls = lines s in show (length ls) ++ " " ++ last ls ++ "\n"
