main :: IO ()
main = print (foldr (+) 0 [1 .. 1000000 :: Integer])
