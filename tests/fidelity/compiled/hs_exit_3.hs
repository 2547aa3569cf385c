import System.Exit
main :: IO ()
main = putStr "no newline" >> exitWith (ExitFailure 3)
